import { plainPost, postOverHttp } from './http-post.ts';

/**
 * A `fetch` for the AI SDK providers that keeps the start of the last response body, so that when
 * a server sends something that is not its wire format (a proxy's HTML page, a torn JSON event)
 * the user can be told what it sent (SPEC §3). The body passes through unchanged. A plain POST
 * (a model request) goes out on node:http (http-post.ts), everything else through `fetch`.
 */
interface BodyTap {
  fetch: typeof fetch;
  /** The first `limit` characters of the last response body read so far ('' before any). */
  head(): string;
}

/** `env`: the model's environment (resolveModel's), to see a proxy configured there. */
export function bodyTap(limit = 4096, env: NodeJS.ProcessEnv = process.env): BodyTap {
  let head = '';
  const tapped: typeof fetch = async (input, init) => {
    const decoder = new TextDecoder();
    const keep = (chunk: Uint8Array) => {
      if (head.length < limit) head = (head + decoder.decode(chunk, { stream: true })).slice(0, limit);
    };
    if (plainPost(input, init, env)) {
      const res = await postOverHttp(input as string | URL, init, {
        start: () => {
          head = '';
        },
        chunk: keep,
      });
      if (res) return res;
      // A redirect: fetch follows it, as it always did.
    }
    const res = await fetch(input, init);
    head = '';
    if (!res.body) return res;
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        keep(chunk);
        c.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(copy), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: tapped, head: () => head };
}
