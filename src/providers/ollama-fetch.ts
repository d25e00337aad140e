/**
 * Ollama reports a failure inside a streamed answer as a line `{"error": "…"}`, which its AI SDK
 * provider skips (with a console warning over the terminal UI). This fetch turns such a line into a
 * failed body, so the failure reaches the retry logic with Ollama's own words.
 */
export function ollamaFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (!res.ok || !res.body || !/ndjson/.test(res.headers.get('content-type') ?? '')) return res;
    const decoder = new TextDecoder();
    let pending = '';
    const check = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const error = errorOf(line);
          if (error !== undefined) {
            c.error(new Error(`Ollama: ${error}`));
            return;
          }
        }
        c.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(check), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function errorOf(line: string): string | undefined {
  if (!line.includes('"error"')) return undefined;
  try {
    const v = JSON.parse(line) as { error?: unknown; message?: unknown };
    return typeof v.error === 'string' && v.message === undefined ? v.error : undefined;
  } catch {
    return undefined;
  }
}
