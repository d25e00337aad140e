import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, withRetries } from '../../src/providers/retry.ts';
import { JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { classifyError, describeBadBody, retryAfterMs } from '../../src/providers/errors.ts';
import type { StreamEvent } from '../../src/providers/types.ts';

const policy = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 };
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

async function collect(it: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test('a retryable failure is retried, announced, and the later success passes through', async () => {
  let n = 0;
  const events = await collect(
    withRetries(
      async function* () {
        n++;
        if (n === 1) {
          yield { type: 'text', delta: 'partial' };
          yield { type: 'error', error: { message: 'cut', retryable: true } };
          return;
        }
        yield { type: 'text', delta: 'ok' };
        yield { type: 'finish', reason: 'stop', usage };
      },
      policy,
      new AbortController().signal,
    ),
  );
  assert.deepEqual(
    events.map((e) => e.type),
    ['text', 'retry', 'text', 'finish'],
  );
  assert.equal(n, 2);
});

test('gives up after maxRetries with a message that says so', async () => {
  const events = await collect(
    withRetries(
      async function* () {
        yield { type: 'error', error: { message: 'rate limited (HTTP 429)', retryable: true, retryAfterMs: 0 } };
      },
      policy,
      new AbortController().signal,
    ),
  );
  const last = events.at(-1)!;
  assert.equal(last.type, 'error');
  assert.match((last as { error: { message: string } }).error.message, /gave up after 3 attempts/);
  assert.equal(events.filter((e) => e.type === 'retry').length, 2);
});

test('a non-retryable error ends the stream at once', async () => {
  let n = 0;
  const events = await collect(
    withRetries(
      async function* () {
        n++;
        yield { type: 'error', error: { message: 'bad key', retryable: false, status: 401 } };
      },
      policy,
      new AbortController().signal,
    ),
  );
  assert.equal(n, 1);
  assert.deepEqual(
    events.map((e) => e.type),
    ['error'],
  );
});

test('abort during the backoff wait ends with aborted', async () => {
  const ac = new AbortController();
  const it = withRetries(
    async function* () {
      yield { type: 'error', error: { message: 'x', retryable: true, retryAfterMs: 60_000 } };
    },
    policy,
    ac.signal,
  );
  const events: StreamEvent[] = [];
  for await (const e of it) {
    events.push(e);
    if (e.type === 'retry') ac.abort();
  }
  assert.deepEqual(
    events.map((e) => e.type),
    ['retry', 'aborted'],
  );
});

test('retry-after: seconds, milliseconds and HTTP dates', () => {
  assert.equal(retryAfterMs({ 'retry-after': '3' }), 3000);
  assert.equal(retryAfterMs({ 'Retry-After-Ms': '250' }), 250);
  assert.equal(retryAfterMs({ 'retry-after': new Date(10_000).toUTCString() }, 4_000), 6000);
  assert.equal(retryAfterMs({}), undefined);
  assert.equal(
    backoffMs(1, { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 }, { message: '', retryable: true, retryAfterMs: 1234 }),
    1234,
  );
  const b3 = backoffMs(3, { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 }, { message: '', retryable: true });
  assert.ok(b3 >= 4000 && b3 <= 4800, `exponential backoff: ${b3}`);
});

test('errors are classified: HTTP status, overload inside a stream, network failure', () => {
  const e429 = classifyError({
    statusCode: 429,
    responseHeaders: { 'retry-after': '2' },
    responseBody: '{"error":{"message":"slow down"}}',
  });
  assert.equal(e429.retryable, true);
  assert.equal(e429.retryAfterMs, 2000);
  assert.match(e429.message, /rate limited.*slow down/);
  const e401 = classifyError({ statusCode: 401, responseBody: '{"error":{"message":"invalid x-api-key"}}' });
  assert.equal(e401.retryable, false);
  assert.match(e401.message, /refused the API key.*invalid x-api-key/);
  assert.equal(classifyError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }).retryable, true);
  assert.equal(classifyError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } })).retryable, true);
  assert.equal(classifyError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })).retryable, false);
  for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
    const dns = classifyError(
      Object.assign(new TypeError('fetch failed'), { cause: { code, message: `getaddrinfo ${code} api.example.invalid` } }),
    );
    assert.equal(dns.retryable, false, code);
    assert.match(dns.message, new RegExp(`host name could not be resolved \\(getaddrinfo ${code} api\\.example\\.invalid\\)`));
  }
  assert.equal(classifyError(new Error('something else')).retryable, false);
});

test('data that is not the wire format is a broken stream: retried, and what was sent is quoted', () => {
  const cases: Array<[unknown, string | undefined, RegExp]> = [
    [
      new JSONParseError({ text: '<html>502 Bad Gateway</html>', cause: new Error('x') }),
      undefined,
      /not valid JSON: `<html>502 Bad Gateway<\/html>`/,
    ],
    [
      new TypeValidationError({ value: { type: 'surprise' }, cause: new Error('x') }),
      undefined,
      /not in the expected format: `\{"type":"surprise"\}`/,
    ],
    [
      new Error('Expected a normalized Anthropic stream error'),
      'event: message_start\ndata: {"type":"message_sta\n\n',
      /not valid JSON: `\{"type":"message_sta`/,
    ],
    [new Error('Expected a normalized Anthropic stream error'), undefined, /not in the expected format/],
  ];
  for (const [err, body, want] of cases) {
    const c = classifyError(err, body);
    assert.equal(c.retryable, true, c.message);
    assert.match(c.message, want);
  }
  assert.match(describeBadBody('Service Unavailable'), /not an event stream: `Service Unavailable`/);
  assert.match(describeBadBody('data: {"a":1}\n\n'), /an event that is not in the expected format: `\{"a":1\}`/);
  assert.match(describeBadBody(`data: ${'x'.repeat(500)}\n\n`), /`x{160}…`$/);
  assert.equal(describeBadBody(''), 'the model server sent an empty response');
});
