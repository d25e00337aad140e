/**
 * A `fetch` for the AI SDK providers that keeps the start of the last response body, so that when
 * a server sends something that is not its wire format (a proxy's HTML page, a torn JSON event)
 * the user can be told what it sent (SPEC §3). The body passes through unchanged.
 */
interface BodyTap {
  fetch: typeof fetch;
  /** The first `limit` characters of the last response body read so far ('' before any). */
  head(): string;
}

export function bodyTap(limit = 4096): BodyTap {
  let head = '';
  const tapped: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    head = '';
    if (!res.body) return res;
    const decoder = new TextDecoder();
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        if (head.length < limit) head = (head + decoder.decode(chunk, { stream: true })).slice(0, limit);
        c.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(copy), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: tapped, head: () => head };
}
