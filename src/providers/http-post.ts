/**
 * The providers' POSTs (one model request each) on `node:http` instead of `fetch`, with the same
 * outcome for the AI SDK: a `Response` whose body streams as it arrives, `TypeError('fetch failed')`
 * when no response comes (the cause carries the socket's code), `TypeError('terminated')` when the
 * body breaks off, the signal's reason on abort, undici's connect (10 s) and idle (300 s) timeouts.
 *
 * The response is a LiteResponse (lite-web.ts): nothing on this path loads undici.
 *
 * Why: the AI SDK hands `fetch` the request as one JSON string (the whole conversation, so it grows
 * with the session). `fetch` copies it into a second buffer and holds both until the response has
 * been read; by then they sit in V8's old generation and stay until a full GC, a megabyte or more per
 * turn of a long session (bench/README.md, "Long sessions"). Here the string is written to the socket
 * as it is and nothing holds it once written.
 *
 * Only for a plain case: POST with a string body to http(s), no proxy configured, and the process's
 * `fetch` still Node's own (a host program that replaced it, or the undici proxy path, keeps it).
 * A redirect is left to `fetch`, which sends the request again from the start and follows it as before.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { LiteHeaders, LiteResponse } from './lite-web.ts';
import { proxyConfigured } from './proxy.ts';

const nodeFetch = globalThis.fetch;
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 300_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([204, 205, 304]);

/** Whether this request can go through `postOverHttp`: `env` is the model's environment (a proxy there, or in the process's, keeps fetch). */
export function plainPost(
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
  env: NodeJS.ProcessEnv = process.env,
): init is RequestInit & { body: string } {
  if (globalThis.fetch !== nodeFetch || typeof init?.body !== 'string' || (init.method ?? 'GET').toUpperCase() !== 'POST') return false;
  if (typeof input !== 'string' && !(input instanceof URL)) return false;
  return /^https?:/i.test(String(input)) && !proxyConfigured(env) && !proxyConfigured(process.env);
}

function headersOf(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  const pairs =
    typeof (h as Iterable<unknown>)[Symbol.iterator] === 'function'
      ? (h as Iterable<[string, string]>)
      : Object.entries(h as Record<string, string>);
  for (const [k, v] of pairs) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/**
 * POSTs `init.body` to `input` and resolves with the response once its headers are in (undefined for
 * a redirect: send it with `fetch`); `tap` hears of the response's start and sees every body chunk
 * as it arrives (body-tap.ts).
 */
export function postOverHttp(
  input: string | URL,
  init: RequestInit & { body: string },
  tap?: { start(): void; chunk(bytes: Uint8Array): void },
): Promise<Response | undefined> {
  const url = new URL(String(input));
  const signal = init.signal ?? undefined;
  const headers = headersOf(init.headers);
  headers['content-length'] ??= String(Buffer.byteLength(init.body));
  headers.accept ??= '*/*';
  const http = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http');
  return new Promise<Response | undefined>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    let settled = false;
    let body: ReadableStreamDefaultController<Uint8Array> | undefined;
    let ended = false;
    /** The body stream's end: an error once the response has begun, else the fetch's rejection. */
    const fail = (err: unknown) => {
      if (ended) return;
      ended = true;
      cleanup();
      if (!settled) {
        settled = true;
        reject(err);
        return;
      }
      try {
        body?.error(err);
      } catch {
        /* already closed */
      }
    };
    const onAbort = () => {
      fail(abortReason(signal!));
      req.destroy();
    };
    const cleanup = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });

    const req: ClientRequest = http.request(url, { method: 'POST', headers });
    req.setTimeout(IDLE_TIMEOUT_MS, () =>
      req.destroy(withCode(`${settled ? 'Body' : 'Headers'} Timeout Error`, settled ? 'UND_ERR_BODY_TIMEOUT' : 'UND_ERR_HEADERS_TIMEOUT')),
    );
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const t = setTimeout(
        () =>
          req.destroy(
            withCode(`Connect Timeout Error (attempted address: ${url.host}, timeout: ${CONNECT_TIMEOUT_MS}ms)`, 'UND_ERR_CONNECT_TIMEOUT'),
          ),
        CONNECT_TIMEOUT_MS,
      );
      t.unref();
      socket.once('connect', () => clearTimeout(t)).once('close', () => clearTimeout(t));
    });
    req.on('error', (err) => fail(settled ? new TypeError('terminated', { cause: err }) : new TypeError('fetch failed', { cause: err })));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && res.headers.location) {
        // fetch follows redirects (and resends the body on 307/308): the caller sends it there.
        res.resume();
        settled = true;
        ended = true;
        cleanup();
        resolve(undefined);
        return;
      }
      let source: NodeJS.ReadableStream = res;
      const encoding = String(res.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase();
      if (encoding && encoding !== 'identity' && !NULL_BODY.has(status)) {
        // fetch decodes these; we ask for none, so only a server that sends them anyway gets here.
        const zlib = process.getBuiltinModule('node:zlib') as typeof import('node:zlib');
        const decoder =
          encoding === 'gzip' || encoding === 'x-gzip'
            ? zlib.createGunzip()
            : encoding === 'deflate'
              ? zlib.createInflate()
              : encoding === 'br'
                ? zlib.createBrotliDecompress()
                : undefined;
        if (decoder) {
          decoder.on('error', (err) => fail(new TypeError('terminated', { cause: err })));
          source = res.pipe(decoder);
        }
      }
      res.on('close', () => {
        if (!res.complete) fail(new TypeError('terminated', { cause: withCode('other side closed', 'UND_ERR_SOCKET') }));
      });
      res.on('error', (err) => fail(new TypeError('terminated', { cause: err })));
      const stream = NULL_BODY.has(status)
        ? null
        : new ReadableStream<Uint8Array>({
            start(c) {
              body = c;
              source.on('data', (chunk: Buffer) => {
                if (ended) return;
                const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
                tap?.chunk(bytes);
                c.enqueue(bytes);
                if ((c.desiredSize ?? 1) <= 0) source.pause();
              });
              source.on('end', () => {
                if (ended) return;
                ended = true;
                cleanup();
                c.close();
              });
            },
            pull() {
              source.resume();
            },
            cancel() {
              ended = true;
              cleanup();
              req.destroy();
            },
          });
      if (!stream) {
        res.resume();
        res.on('end', () => {
          ended = true;
          cleanup();
        });
      }
      let response: LiteResponse;
      try {
        const headers = new LiteHeaders();
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        response = new LiteResponse(stream, status, res.statusMessage ?? '', headers, url.href);
      } catch (err) {
        fail(new TypeError('fetch failed', { cause: err }));
        req.destroy();
        return;
      }
      settled = true;
      tap?.start();
      resolve(response as unknown as Response);
    });
    // Headers first, on their own: written together with a string body, Node would join the two
    // into one more string as long as the body.
    req.flushHeaders();
    req.end(init.body);
  });
}
