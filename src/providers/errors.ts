import { InvalidResponseDataError, JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import type { ProviderErrorInfo } from './types.ts';

const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529]);

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** Reads `retry-after-ms` / `retry-after` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = header(headers, 'retry-after');
  if (ra === undefined) return undefined;
  if (ra.trim() !== '' && Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    const j = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof j.error === 'string') return j.error;
    return j.error?.message ?? j.message ?? body.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}

const NETWORK_CODES =
  /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR|socket hang up|terminated|fetch failed|other side closed/i;

/** The message of a response that ended before its final event: a dropped stream, retried (SPEC §3). */
export const INCOMPLETE = 'the model stream ended before the response was complete';

/** `text` on one line, at most `n` characters, between backquotes (verbatim: no escaping to read through). */
function quote(text: string, n = 160): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return `\`${one.length > n ? `${one.slice(0, n)}…` : one}\``;
}

/**
 * What a server sent that is not its wire format, in plain words, from the start of the response
 * body: the first SSE `data:` payload that is not JSON, else the first payload, else the body.
 */
export function describeBadBody(body: string): string {
  const data = [...body.matchAll(/^data:[ \t]?(.*)$/gm)].map((m) => m[1]).filter((d) => d.trim() !== '' && d.trim() !== '[DONE]');
  const notJson = data.find((d) => {
    try {
      JSON.parse(d);
      return false;
    } catch {
      return true;
    }
  });
  if (notJson !== undefined) return `the model server sent data that is not valid JSON: ${quote(notJson)}`;
  if (data.length === 0)
    return body.trim()
      ? `the model server sent something that is not an event stream: ${quote(body)}`
      : 'the model server sent an empty response';
  return `the model server sent an event that is not in the expected format: ${quote(data[0])}`;
}

/**
 * Turns anything a provider threw or streamed as an error into one classified value. `body`: the
 * start of the response body (body-tap.ts), to say what a server sent when it was not the wire format.
 */
export function classifyError(err: unknown, body?: string): ProviderErrorInfo {
  // Data the provider could not read is a broken stream, retried like a dropped one (SPEC §3).
  if (JSONParseError.isInstance(err))
    return { message: `the model server sent data that is not valid JSON: ${quote(err.text)}`, retryable: true };
  if (TypeValidationError.isInstance(err))
    return {
      message: `the model server sent an event that is not in the expected format: ${quote(JSON.stringify(err.value) ?? String(err.value))}`,
      retryable: true,
    };
  if (InvalidResponseDataError.isInstance(err) && /without a finish reason/.test(err.message))
    return { message: `${INCOMPLETE} (no finish reason)`, retryable: true };
  // @ai-sdk/anthropic reads the first event before returning the stream, and replaces a parse error there with this bare message.
  if (err instanceof Error && /^Expected a normalized \w+ stream error$/.test(err.message)) {
    return {
      message: body !== undefined ? describeBadBody(body) : 'the model server sent a stream that is not in the expected format',
      retryable: true,
    };
  }
  const e = err as {
    statusCode?: number;
    responseHeaders?: Record<string, string>;
    responseBody?: string;
    message?: string;
    cause?: { code?: string; message?: string };
    type?: string;
    error?: { type?: string; message?: string };
  };
  if (e && typeof e === 'object' && typeof e.statusCode === 'number') {
    const status = e.statusCode;
    if (status >= 200 && status < 300) {
      // The server said yes, then the body broke off or could not be read: a dropped stream.
      return { message: `the model stream broke off (${e.message ?? 'unreadable response'})`, retryable: true };
    }
    const detail = serverMessage(e.responseBody) ?? e.message ?? 'request failed';
    return {
      message: `${describeStatus(status)}: ${detail}`,
      status,
      retryable: RETRYABLE_STATUS.has(status),
      retryAfterMs: retryAfterMs(e.responseHeaders),
    };
  }
  // Errors sent inside an SSE stream (Anthropic `{type:"error", error:{type:"overloaded_error"}}`).
  const inner = e?.error && typeof e.error === 'object' ? e.error : e;
  const kind = typeof inner?.type === 'string' ? inner.type : '';
  if (/overloaded|rate_limit|api_error|server_error/.test(kind)) {
    return { message: `${kind}: ${inner?.message ?? ''}`.trim(), retryable: true };
  }
  const text = `${e?.message ?? String(err)} ${e?.cause?.code ?? ''} ${e?.cause?.message ?? ''}`;
  if (/ECONNREFUSED/.test(text)) {
    // Nothing listens there (a local server not started, a wrong port): retrying only makes the user wait.
    return {
      message: `nothing is listening at the model server's address (connection refused): ${e?.cause?.message ?? e?.message ?? ''}`.trim(),
      retryable: false,
    };
  }
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME/.test(text)) {
    // The host name does not resolve (a typo in a base URL, no network or DNS): a retry 30 s later rarely helps.
    return {
      message:
        `the model server's host name could not be resolved (${e?.cause?.message ?? e?.message ?? ''}): check the base URL and the network`.replace(
          ' ()',
          '',
        ),
      retryable: false,
    };
  }
  if (NETWORK_CODES.test(text)) {
    return { message: `connection to the model server failed: ${e?.cause?.message ?? e?.message ?? String(err)}`, retryable: true };
  }
  return { message: e?.message ?? String(err), retryable: false };
}

function describeStatus(status: number): string {
  if (status === 401 || status === 403) return `the model server refused the API key (HTTP ${status})`;
  if (status === 404) return `model or endpoint not found (HTTP 404)`;
  if (status === 429) return `rate limited (HTTP 429)`;
  if (status === 529) return `the model is overloaded (HTTP 529)`;
  if (status >= 500) return `the model server failed (HTTP ${status})`;
  return `the model server rejected the request (HTTP ${status})`;
}

export function isAbort(err: unknown, signal: AbortSignal): boolean {
  if (signal.aborted) return true;
  const name = (err as { name?: string })?.name;
  return name === 'AbortError';
}
