import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { bodyTap } from '../../src/providers/body-tap.ts';
import { plainPost, postOverHttp } from '../../src/providers/http-post.ts';
import { LiteHeaders } from '../../src/providers/lite-web.ts';

// A proxy set in the environment running the tests would send these requests through fetch.
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
const saved = PROXY_VARS.map((k) => [k, process.env[k]] as const);
for (const k of PROXY_VARS) delete process.env[k];
after(() => {
  for (const [k, v] of saved) if (v !== undefined) process.env[k] = v;
});

/** A real HTTP server on a free port, answering with `handler`. */
async function serve(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const readAll = (req: http.IncomingMessage): Promise<string> =>
  new Promise((r) => {
    let s = '';
    req
      .setEncoding('utf8')
      .on('data', (d: string) => {
        s += d;
      })
      .on('end', () => r(s));
  });
const post = (body: string, extra: Omit<RequestInit, 'body'> = {}): RequestInit & { body: string } => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
  body,
  ...extra,
});

test('plainPost: only a POST with a string body to http(s), with no proxy set', () => {
  assert.equal(plainPost('http://h/v1', post('{}'), {}), true);
  assert.equal(plainPost(new URL('https://h/v1'), post('{}'), {}), true);
  assert.equal(plainPost('http://h/v1', { method: 'GET' }, {}), false);
  assert.equal(plainPost('http://h/v1', { method: 'POST', body: new Uint8Array(2) }, {}), false);
  assert.equal(plainPost('http://h/v1', post('{}'), { HTTPS_PROXY: 'http://proxy:8080' }), false);
  process.env.http_proxy = 'http://proxy:8080';
  try {
    assert.equal(plainPost('http://h/v1', post('{}'), {}), false, "the process's own proxy counts too");
  } finally {
    delete process.env.http_proxy;
  }
  assert.equal(plainPost('file:///x', post('{}'), {}), false);
});

test('the body and headers arrive as sent (non-ASCII too), the response streams back with its status and headers', async () => {
  const body = JSON.stringify({ text: 'héllo ✓ '.repeat(50_000) });
  let seen: { body: string; headers: http.IncomingHttpHeaders } | undefined;
  const s = await serve(async (req, res) => {
    seen = { body: await readAll(req), headers: req.headers };
    res.writeHead(201, 'Made', { 'content-type': 'text/event-stream', 'x-one': 'a' });
    res.write('data: 1\n\n');
    setTimeout(() => res.end('data: 2\n\n'), 20);
  });
  try {
    const r = await postOverHttp(`${s.url}/v1/messages`, post(body));
    assert.ok(r);
    assert.equal(r.status, 201);
    assert.equal(r.statusText, 'Made');
    assert.equal(r.ok, true);
    assert.equal(r.headers.get('x-one'), 'a');
    assert.equal(await r.text(), 'data: 1\n\ndata: 2\n\n');
    assert.equal(seen?.body, body);
    assert.equal(seen?.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(seen?.headers['x-api-key'], 'k');
    assert.equal(seen?.headers['content-type'], 'application/json');
  } finally {
    await s.close();
  }
});

test('an error status comes back as a response to read, as fetch gives it', async () => {
  const s = await serve((_req, res) => {
    res.writeHead(429, { 'retry-after-ms': '250', 'content-type': 'application/json' });
    res.end('{"error":{"message":"slow down"}}');
  });
  try {
    const r = await postOverHttp(s.url, post('{}'));
    assert.equal(r?.status, 429);
    assert.equal(r?.ok, false);
    assert.equal(r?.headers.get('retry-after-ms'), '250');
    assert.deepEqual(await r?.json(), { error: { message: 'slow down' } });
  } finally {
    await s.close();
  }
});

test('nothing listening: TypeError "fetch failed" with the socket error as its cause, as fetch', async () => {
  const s = await serve(() => {});
  const url = s.url;
  await s.close();
  const err = await postOverHttp(url, post('{}')).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof TypeError);
  assert.equal(err.message, 'fetch failed');
  assert.equal((err.cause as { code?: string }).code, 'ECONNREFUSED');
});

test('a body cut off mid-way: the stream fails with TypeError "terminated", as fetch', async () => {
  const s = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  try {
    const r = await postOverHttp(s.url, post('{}'));
    const reader = r!.body!.getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), 'data: 1\n\n');
    const err = await reader.read().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof TypeError, String(err));
    assert.equal(err.message, 'terminated');
  } finally {
    await s.close();
  }
});

test("abort before the answer rejects with the signal's reason; abort mid-body fails the stream with it", async () => {
  const s = await serve((req, res) => {
    if (req.url === '/hang') return;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
  });
  try {
    const before = new AbortController();
    const pending = postOverHttp(`${s.url}/hang`, post('{}', { signal: before.signal }));
    const reason = new Error('interrupted (SIGINT)');
    setTimeout(() => before.abort(reason), 30);
    assert.equal(
      await pending.then(
        () => undefined,
        (e: unknown) => e,
      ),
      reason,
    );

    const mid = new AbortController();
    const r = await postOverHttp(s.url, post('{}', { signal: mid.signal }));
    const reader = r!.body!.getReader();
    await reader.read();
    const stalled = new Error('stalled');
    mid.abort(stalled);
    assert.equal(
      await reader.read().then(
        () => undefined,
        (e: unknown) => e,
      ),
      stalled,
    );

    const already = new AbortController();
    already.abort();
    const e = await postOverHttp(s.url, post('{}', { signal: already.signal })).then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.equal((e as Error).name, 'AbortError');
  } finally {
    await s.close();
  }
});

test('a redirect is left to fetch, which follows it with the body; the tap still sees the answer', async () => {
  const bodies: string[] = [];
  const s = await serve(async (req, res) => {
    bodies.push(await readAll(req));
    if (req.url === '/old') {
      res.writeHead(307, { location: '/new' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('moved here');
  });
  try {
    assert.equal(await postOverHttp(`${s.url}/old`, post('{"a":1}')), undefined);
    const tap = bodyTap();
    const r = await tap.fetch(`${s.url}/old`, post('{"a":2}'));
    assert.equal(await r.text(), 'moved here');
    assert.equal(tap.head(), 'moved here');
    // The redirecting address hears the request twice (node:http, then fetch from the start), the new one once.
    assert.deepEqual(bodies, ['{"a":1}', '{"a":2}', '{"a":2}', '{"a":2}']);
  } finally {
    await s.close();
  }
});

test('a gzip body sent unasked is decoded, as fetch does; 204 has no body', async () => {
  const s = await serve((req, res) => {
    if (req.url === '/none') {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
    res.end(gzipSync('unzipped'));
  });
  try {
    assert.equal(await (await postOverHttp(s.url, post('{}')))!.text(), 'unzipped');
    const none = await postOverHttp(`${s.url}/none`, post('{}'));
    assert.equal(none?.status, 204);
    assert.equal(none?.body, null);
  } finally {
    await s.close();
  }
});

test('the body tap keeps the start of the last answer over node:http, reset per request', async () => {
  let n = 0;
  const s = await serve((_req, res) => {
    n++;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(n === 1 ? '<html>proxy page</html>' : 'x'.repeat(5000));
  });
  try {
    const tap = bodyTap(100);
    assert.equal(tap.head(), '');
    await (await tap.fetch(s.url, post('{}'))).text();
    assert.equal(tap.head(), '<html>proxy page</html>');
    await (await tap.fetch(s.url, post('{}'))).text();
    assert.equal(tap.head(), 'x'.repeat(100));
  } finally {
    await s.close();
  }
});

test('LiteHeaders reads and iterates as Headers does; instanceof accepts real Headers too', () => {
  const h = new LiteHeaders({ 'X-B': ' 2 ', 'x-a': '1' });
  h.append('x-b', '3');
  assert.deepEqual(
    [...h],
    [
      ['x-a', '1'],
      ['x-b', '2, 3'],
    ],
  );
  assert.deepEqual(
    [...h],
    [...new Headers({ 'X-B': ' 2 ', 'x-a': '1' }).entries()].map(([k, v]) => (k === 'x-b' ? [k, `${v}, 3`] : [k, v])),
  );
  assert.equal(h.get('X-A'), '1');
  assert.equal(h.has('x-c'), false);
  h.set('user-agent', 'ai-sdk');
  assert.deepEqual(Object.fromEntries(h.entries()), { 'user-agent': 'ai-sdk', 'x-a': '1', 'x-b': '2, 3' });
  assert.equal(new Headers() instanceof LiteHeaders, true);
  assert.equal({ a: '1' } instanceof LiteHeaders, false);
  assert.deepEqual([...new LiteHeaders(new Headers([['k', 'v']]))], [['k', 'v']]);
  assert.throws(() => new LiteHeaders({ 'x-key': 'a\nb' }), /invalid header value/);
  assert.throws(() => new LiteHeaders({ 'bad name': 'v' }), /invalid header name/);
});
