import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyConfigured, useProxyFromEnv } from '../../src/providers/proxy.ts';
import { reply, startFakeModel } from '../fakes/model-server.ts';
import { startProxy } from '../fakes/proxy.ts';

test('proxy variables: any of the four, an empty one is unset', () => {
  assert.equal(proxyConfigured({}), false);
  assert.equal(proxyConfigured({ HTTPS_PROXY: ' ' }), false);
  assert.equal(proxyConfigured({ http_proxy: 'http://p:1' }), true);
});

// The path for a Node without http.setGlobalProxyFromEnv (before 24.5): undici's EnvHttpProxyAgent
// and undici's fetch. This process's fetch goes through the proxy from here on.
test("without Node's own support: undici's EnvHttpProxyAgent sends fetch through the proxy, NO_PROXY bypasses it", async () => {
  const model = await startFakeModel();
  const proxy = await startProxy();
  try {
    model.script(reply('one'), reply('two'));
    assert.equal(await useProxyFromEnv({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost' }, 'undici'), 'undici');
    const post = (host: string) =>
      fetch(`http://${host}:${model.port}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [], stream: false }),
      });
    assert.equal((await post('127.0.0.1')).status, 200);
    assert.equal(proxy.seen.length, 1, `through the proxy: ${proxy.seen.join(', ')}`);
    assert.equal((await post('localhost')).status, 200);
    assert.equal(proxy.seen.length, 1, 'NO_PROXY host: direct');
  } finally {
    await Promise.all([model.close(), proxy.close()]);
  }
});
