/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured by the provider requests, and a custom CA
 * (NODE_EXTRA_CA_CERTS, as behind a TLS-inspecting proxy) is trusted: the fake model serves HTTPS
 * with a self-signed certificate made here, through a CONNECT proxy on 127.0.0.1.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply, startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { startProxy, type TestProxy } from '../fakes/proxy.ts';
import { runCli } from './cli.ts';

let tls: FakeModel;
let plain: FakeModel;
let proxy: TestProxy;
let caFile: string;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assistant-ca-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  caFile = join(dir, 'cert.pem');
  tls = await startFakeModel({ tls: { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(caFile, 'utf8') } });
  plain = await startFakeModel();
  proxy = await startProxy();
});
after(async () => {
  await Promise.all([tls.close(), plain.close(), proxy.close()]);
});

test('HTTPS_PROXY tunnels the provider request (CONNECT) with a custom CA; NO_PROXY bypasses it; HTTP_PROXY carries plain HTTP', async () => {
  const { dir, home } = makeProject();
  const base = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: tls.url, NODE_EXTRA_CA_CERTS: caFile, NO_PROXY: '', no_proxy: '' };
  tls.script(reply('through the tunnel'), reply('direct'));
  const via = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ...base, HTTPS_PROXY: proxy.url },
  });
  assert.equal(via.code, 0, via.stderr);
  assert.equal(via.stdout, 'through the tunnel\n');
  assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${tls.port}`]);

  const bypass = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ...base, HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
  });
  assert.equal(bypass.code, 0, bypass.stderr);
  assert.equal(bypass.stdout, 'direct\n');
  assert.equal(proxy.seen.length, 1, 'NO_PROXY: the proxy saw nothing more');
  assert.equal(tls.requests.length, 2);

  plain.script(reply('over plain http'));
  const http = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ...plain.env('anthropic'), HTTP_PROXY: proxy.url, NO_PROXY: '', no_proxy: '' },
  });
  assert.equal(http.code, 0, http.stderr);
  // Node's proxy client tunnels plain HTTP too; either form goes through the proxy.
  assert.ok([`CONNECT 127.0.0.1:${plain.port}`, `POST ${plain.url}/v1/messages`].includes(proxy.seen[1]), proxy.seen[1]);
});

test('no proxy set (the node:http transport): HTTPS to the model trusts NODE_EXTRA_CA_CERTS, and without it says why', async () => {
  const { dir, home } = makeProject();
  tls.reset();
  tls.script(reply('direct with the CA'));
  const base = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: tls.url, HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '' };
  const ok = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ...base, NODE_EXTRA_CA_CERTS: caFile },
  });
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, 'direct with the CA\n');
  const untrusted = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], { cwd: dir, home, env: base });
  assert.equal(untrusted.code, 1);
  assert.match(untrusted.stderr, /self-signed certificate/);
  assert.equal(tls.requests.length, 1, 'the untrusted server never got a request');
});

test("a proxy named only in the settings' env carries the model requests", async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': JSON.stringify({ env: { HTTP_PROXY: proxy.url } }) });
  plain.reset();
  plain.script(reply('via the settings proxy'));
  const before = proxy.seen.length;
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ...plain.env('anthropic'), NO_PROXY: '', no_proxy: '' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'via the settings proxy\n');
  assert.ok([`CONNECT 127.0.0.1:${plain.port}`, `POST ${plain.url}/v1/messages`].includes(proxy.seen[before]), String(proxy.seen[before]));
});
