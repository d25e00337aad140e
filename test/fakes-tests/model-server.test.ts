/**
 * Proves the fake model server's three wire formats against the REAL AI SDK providers,
 * calling their LanguageModel doStream/doGenerate directly, as the product does.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import {
  cut,
  endEarly,
  fail,
  hang,
  lastToolResults,
  malformed,
  reply,
  stall,
  startFakeModel,
  stepFromJson,
  streamError,
  systemPrompt,
  toolNames,
  toolResults,
  userTexts,
  type FakeModel,
  type WireFormat,
} from '../fakes/model-server.ts';

/** No test may hang the suite: each gets 8 s. */
const T = { timeout: 8000 };

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});
beforeEach(() => {
  model.reset();
});

interface ProviderCase {
  name: string;
  format: WireFormat;
  path: string;
  idPrefix: string;
  make: (m: FakeModel) => LanguageModelV4;
}

const PROVIDERS: ProviderCase[] = [
  {
    name: 'anthropic',
    format: 'anthropic',
    path: '/v1/messages',
    idPrefix: 'toolu_',
    make: (m) => createAnthropic({ apiKey: 'x', baseURL: `${m.anthropicBaseUrl}/v1` })('claude-sonnet-4-5') as LanguageModelV4,
  },
  {
    name: 'openai responses',
    format: 'openai-responses',
    path: '/v1/responses',
    idPrefix: 'call_',
    make: (m) => createOpenAI({ apiKey: 'x', baseURL: m.openaiBaseUrl }).responses('gpt-5') as LanguageModelV4,
  },
  {
    name: 'openai chat',
    format: 'openai-chat',
    path: '/v1/chat/completions',
    idPrefix: 'call_',
    make: (m) => createOpenAI({ apiKey: 'x', baseURL: m.openaiBaseUrl }).chat('gpt-4o') as LanguageModelV4,
  },
  {
    name: 'openai-compatible',
    format: 'openai-chat',
    path: '/v1/chat/completions',
    idPrefix: 'call_',
    make: (m) => createOpenAICompatible({ name: 'x', baseURL: m.openaiBaseUrl, includeUsage: true })('m') as LanguageModelV4,
  },
];

const TOOLS: LanguageModelV4CallOptions['tools'] = [
  {
    type: 'function',
    name: 'Read',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } },
  },
  { type: 'function', name: 'Grep', description: 'Search', inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } } },
];

const hi = (text = 'hi'): LanguageModelV4Prompt => [{ role: 'user', content: [{ type: 'text', text }] }];

type FinishPart = Extract<LanguageModelV4StreamPart, { type: 'finish' }>;
interface Collected {
  parts: LanguageModelV4StreamPart[];
  text: string;
  textDeltas: string[];
  toolCalls: Array<{ id: string; name: string; input: unknown }>;
  finish?: FinishPart;
  errors: unknown[];
  /** What reader.read() rejected with, if it did. */
  thrown?: unknown;
}

async function collect(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<Collected> {
  const c: Collected = { parts: [], text: '', textDeltas: [], toolCalls: [], errors: [] };
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      c.parts.push(value);
      if (value.type === 'text-delta') {
        c.text += value.delta;
        if (value.delta) c.textDeltas.push(value.delta);
      }
      if (value.type === 'tool-call') c.toolCalls.push({ id: value.toolCallId, name: value.toolName, input: JSON.parse(value.input) });
      if (value.type === 'finish') c.finish = value;
      if (value.type === 'error') c.errors.push(value.error);
    }
  } catch (err) {
    c.thrown = err;
  }
  return c;
}

async function run(
  lm: LanguageModelV4,
  prompt: LanguageModelV4Prompt = hi(),
  extra: Partial<LanguageModelV4CallOptions> = {},
): Promise<Collected> {
  const { stream } = await lm.doStream({ prompt, tools: TOOLS, ...extra });
  return collect(stream);
}

// ───────────────────────── the wire formats ─────────────────────────

for (const p of PROVIDERS) {
  test(`${p.name}: text, a tool call, parallel calls and a final answer stream through the real provider`, T, async () => {
    model.script(
      reply().text('Looking at the code now.').tool('Grep', { pattern: 'foo' }).usage({ input: 1200, output: 34 }),
      reply().tool('Read', { file_path: 'a.ts' }).tool('Read', { file_path: 'b.ts' }).usage({ input: 50, output: 7, cacheRead: 20 }),
      reply('Done.'),
    );
    const lm = p.make(model);

    const first = await run(lm);
    assert.equal(first.thrown, undefined);
    assert.deepEqual(first.errors, []);
    assert.equal(first.text, 'Looking at the code now.');
    assert.ok(first.textDeltas.length >= 3, `text arrives in several deltas, got ${JSON.stringify(first.textDeltas)}`);
    assert.equal(first.toolCalls.length, 1);
    assert.equal(first.toolCalls[0].name, 'Grep');
    assert.deepEqual(first.toolCalls[0].input, { pattern: 'foo' });
    assert.ok(first.toolCalls[0].id.startsWith(p.idPrefix), first.toolCalls[0].id);
    assert.equal(first.finish?.finishReason.unified, 'tool-calls');
    assert.equal(first.finish?.usage.inputTokens.total, 1200);
    assert.equal(first.finish?.usage.outputTokens.total, 34);

    const second = await run(lm);
    assert.equal(second.text, '');
    assert.deepEqual(
      second.toolCalls.map((t) => [t.name, t.input]),
      [
        ['Read', { file_path: 'a.ts' }],
        ['Read', { file_path: 'b.ts' }],
      ],
    );
    assert.notEqual(second.toolCalls[0].id, second.toolCalls[1].id);
    assert.equal(second.finish?.finishReason.unified, 'tool-calls');
    assert.equal(second.finish?.usage.inputTokens.total, 50);
    assert.equal(second.finish?.usage.inputTokens.cacheRead, 20);
    assert.equal(second.finish?.usage.outputTokens.total, 7);

    const third = await run(lm);
    assert.equal(third.text, 'Done.');
    assert.deepEqual(third.toolCalls, []);
    assert.equal(third.finish?.finishReason.unified, 'stop');
    assert.equal(third.finish?.usage.inputTokens.total, 100, 'default input usage');
    assert.ok((third.finish?.usage.outputTokens.total ?? 0) >= 1);

    assert.equal(model.requests.length, 3);
    for (const r of model.requests) {
      assert.equal(r.format, p.format);
      assert.equal(r.path, p.path);
      assert.equal(r.method, 'POST');
      assert.equal(r.stream, true);
      assert.equal(r.answer?.kind, 'reply');
    }
    assert.deepEqual(
      model.requests[1].answer?.toolCalls?.map((t) => t.id),
      second.toolCalls.map((t) => t.id),
      'answer records the generated ids',
    );
    assert.deepEqual(toolNames(model.requests[0]), ['Read', 'Grep']);
    assert.equal(model.remaining, 0);
  });

  test(`${p.name}: non-streaming JSON answers (doGenerate)`, T, async () => {
    model.script(reply().text('Hello.').tool('Read', { file_path: 'x.ts' }).usage({ input: 9, output: 4 }), reply('Bye.').truncated());
    const lm = p.make(model);
    const r1 = await lm.doGenerate({ prompt: hi(), tools: TOOLS });
    assert.equal(model.requests[0].stream, false);
    const text = r1.content
      .filter((c) => c.type === 'text')
      .map((c) => (c as { text: string }).text)
      .join('');
    assert.equal(text, 'Hello.');
    const calls = r1.content.filter((c) => c.type === 'tool-call') as Array<{ toolName: string; input: string; toolCallId: string }>;
    assert.deepEqual(
      calls.map((c) => [c.toolName, JSON.parse(c.input)]),
      [['Read', { file_path: 'x.ts' }]],
    );
    assert.ok(calls[0].toolCallId.startsWith(p.idPrefix));
    assert.equal(r1.finishReason.unified, 'tool-calls');
    assert.equal(r1.usage.inputTokens.total, 9);
    assert.equal(r1.usage.outputTokens.total, 4);
    const r2 = await lm.doGenerate({ prompt: hi() });
    assert.equal(r2.finishReason.unified, 'length');
  });

  test(`${p.name}: 429, 500 and 529 surface as APICallError from doStream`, T, async () => {
    model.script(fail(429, { retryAfter: 0 }), fail(500), fail(529), fail(429, { retryAfterMs: 250, message: 'slow down please' }));
    const lm = p.make(model);
    const expectError = (status: number, check: (e: APICallError) => void) => async () => {
      await assert.rejects(
        async () => lm.doStream({ prompt: hi(), tools: TOOLS }),
        (e: unknown) => {
          assert.ok(APICallError.isInstance(e), `expected APICallError, got ${String(e)}`);
          assert.equal(e.statusCode, status);
          assert.equal(e.isRetryable, true);
          check(e);
          return true;
        },
      );
    };
    await expectError(429, (e) => {
      assert.equal(e.responseHeaders?.['retry-after'], '0');
      assert.match(e.message, /rate limit/i);
    })();
    await expectError(500, (e) => assert.match(e.message, /Internal server error/))();
    await expectError(529, (e) => {
      if (p.format === 'anthropic') {
        assert.equal(e.message, 'Overloaded');
        assert.equal(JSON.parse(e.responseBody ?? '{}').error.type, 'overloaded_error');
      }
    })();
    await expectError(429, (e) => {
      assert.equal(e.responseHeaders?.['retry-after-ms'], '250');
      assert.equal(e.responseHeaders?.['retry-after'], undefined);
      assert.equal(e.message, 'slow down please');
    })();
    assert.deepEqual(
      model.requests.map((r) => r.answer?.status),
      [429, 500, 529, 429],
    );
  });

  test(`${p.name}: a cut stream delivers some text, then reader.read() rejects (no finish part)`, T, async () => {
    model.script(cut(reply().text('partial answer that is cut off somewhere')), cut(reply('never seen'), { after: 0 }));
    const lm = p.make(model);
    const c = await run(lm);
    assert.ok(c.text.length > 0, 'some text arrived before the cut');
    assert.ok('partial answer that is cut off somewhere'.startsWith(c.text) && c.text.length < 40, c.text);
    assert.equal(c.finish, undefined, 'no finish part');
    assert.deepEqual(c.errors, [], 'no error part: the stream itself errors');
    assert.ok(APICallError.isInstance(c.thrown), `read() rejects with APICallError, got ${String(c.thrown)}`);
    assert.equal(c.thrown.statusCode, 200);
    assert.equal((c.thrown.cause as Error)?.message, 'terminated');

    // Cut before the first event: the providers that peek at the first chunk throw from doStream itself.
    let thrownAt: 'doStream' | 'read' | 'none' = 'none';
    try {
      const { stream } = await lm.doStream({ prompt: hi() });
      const c2 = await collect(stream);
      if (c2.thrown) thrownAt = 'read';
    } catch {
      thrownAt = 'doStream';
    }
    assert.equal(thrownAt, p.name === 'openai-compatible' ? 'read' : 'doStream');
    assert.deepEqual(
      model.requests.map((r) => r.answer?.kind),
      ['cut', 'cut'],
    );
  });

  test(`${p.name}: an error event inside the stream, and a truncated answer`, T, async () => {
    model.script(
      streamError(reply('this answer breaks halfway through'), { type: p.format === 'anthropic' ? 'overloaded_error' : 'server_error' }),
      reply('cut short by the limit').truncated(),
    );
    const lm = p.make(model);
    const c = await run(lm);
    assert.equal(c.thrown, undefined);
    assert.ok(c.text.length > 0 && c.text.length < 'this answer breaks halfway through'.length);
    assert.equal(c.errors.length, 1);
    if (p.format === 'anthropic') {
      assert.equal(c.finish, undefined, 'anthropic: error part, no finish');
    } else {
      assert.equal(c.finish?.finishReason.unified, 'error', 'openai: error part, then finish(error)');
    }
    const t = await run(lm);
    assert.equal(t.text, 'cut short by the limit');
    assert.equal(t.finish?.finishReason.unified, 'length');
  });

  test(`${p.name}: endEarly() ends the body cleanly mid tool call; the provider marks the response incomplete`, T, async () => {
    model.script(
      endEarly(
        reply()
          .text('Writing it.')
          .tool('Write', { file_path: 'a.txt', content: 'x'.repeat(300) }),
      ),
    );
    const { stream } = await p.make(model).doStream({ prompt: hi(), tools: TOOLS });
    const parts: LanguageModelV4StreamPart[] = [];
    const reader = stream.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    const finish = parts.find((x): x is FinishPart => x.type === 'finish');
    const errors = parts.flatMap((x) => (x.type === 'error' ? [String((x.error as Error)?.message)] : []));
    if (p.name === 'openai-compatible') assert.deepEqual(errors, ['Response stream ended without a finish reason.']);
    else {
      assert.deepEqual(errors, [], 'no error: the body simply ended');
      assert.equal(finish?.finishReason.unified, 'interrupted');
    }
    const call = parts.find((x) => x.type === 'tool-call');
    // Anthropic and Responses drop the unfinished call; Chat flushes it with its arguments cut short.
    if (call?.type === 'tool-call') assert.throws(() => JSON.parse(call.input));
    assert.equal(model.requests[0].answer?.kind, 'end-early');
  });

  test(`${p.name}: malformed() sends data that is not the wire format; the provider reports it`, T, async () => {
    model.script(
      malformed(reply('never seen')),
      malformed(reply('some words first'), { after: 4, data: '{"type": "content_block_delta", "ind' }),
    );
    const lm = p.make(model);
    let first: unknown;
    try {
      first = (await run(lm)).errors[0];
    } catch (e) {
      first = e;
    }
    assert.ok(first, 'the first bad event surfaces, from doStream or as an error part');
    const second = await run(lm);
    assert.ok(second.errors.length === 1 || second.thrown !== undefined, 'a bad event later in the stream surfaces too');
    assert.deepEqual(
      model.requests.map((r) => r.answer?.kind),
      ['malformed', 'malformed'],
    );
  });

  test(`${p.name}: hang() and stall() are ended by an AbortSignal`, T, async () => {
    model.script(hang(), stall(reply('some words and then silence forever')));
    const lm = p.make(model);

    const ac = new AbortController();
    const pending = lm.doStream({ prompt: hi(), abortSignal: ac.signal });
    await model.waitForRequests(1);
    ac.abort();
    await assert.rejects(Promise.resolve(pending), (e: unknown) => (e as Error).name === 'AbortError');
    assert.equal(model.requests[0].answer?.kind, 'hang');

    const ac2 = new AbortController();
    const { stream } = await lm.doStream({ prompt: hi(), abortSignal: ac2.signal });
    const reader = stream.getReader();
    let seen = '';
    while (!seen.includes('some')) {
      const { value, done } = await reader.read();
      assert.ok(!done);
      if (value.type === 'text-delta') seen += value.delta;
    }
    setTimeout(() => ac2.abort(), 30);
    let outcome = 'ended';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value.type === 'finish') outcome = 'finished';
        if (value.type === 'error') outcome = 'error-part';
      }
    } catch (e) {
      outcome = (e as Error).name;
    }
    assert.equal(outcome, 'AbortError');
  });

  test(`${p.name}: tool results sent back are visible through lastToolResults, and a step can echo them`, T, async () => {
    model.script(reply().text('Reading both.').tool('Read', { file_path: 'a.ts' }).tool('Read', { file_path: 'b.ts' }), (req) =>
      reply(
        `saw: ${lastToolResults(req)
          .map((r) => r.content)
          .join(' | ')}`,
      ),
    );
    const lm = p.make(model);
    const prompt: LanguageModelV4Prompt = [
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: [{ type: 'text', text: 'read a and b' }] },
    ];
    const first = await run(lm, prompt);
    assert.equal(first.toolCalls.length, 2);
    const [a, b] = first.toolCalls;
    const second = await run(lm, [
      ...prompt,
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool-call', toolCallId: a.id, toolName: 'Read', input: a.input },
          { type: 'tool-call', toolCallId: b.id, toolName: 'Read', input: b.input },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: a.id, toolName: 'Read', output: { type: 'text', value: 'export const a = 1;' } },
          { type: 'tool-result', toolCallId: b.id, toolName: 'Read', output: { type: 'error-text', value: 'ENOENT: b.ts' } },
        ],
      },
    ]);
    // What reaches the wire is the provider's own rendering: @ai-sdk/openai wraps an error-text result as JSON.
    const errorContent = p.name.startsWith('openai ') ? '{"error":"ENOENT: b.ts"}' : 'ENOENT: b.ts';
    assert.equal(second.text, `saw: export const a = 1; | ${errorContent}`);

    const [r0, r1] = model.requests;
    assert.equal(systemPrompt(r0), 'You are a test.');
    assert.deepEqual(userTexts(r0), ['read a and b']);
    assert.deepEqual(lastToolResults(r0), []);
    const flag = (v: boolean) => (p.format === 'anthropic' ? v : undefined);
    assert.deepEqual(lastToolResults(r1), [
      { toolUseId: a.id, content: 'export const a = 1;', isError: flag(false) },
      { toolUseId: b.id, content: errorContent, isError: flag(true) },
    ]);
    assert.deepEqual(toolResults(r1), lastToolResults(r1));
    assert.equal(systemPrompt(r1), 'You are a test.');
    assert.deepEqual(userTexts(r1), ['read a and b']);
  });
}

// ───────────────────────── server behaviour ─────────────────────────

test('an exhausted script answers HTTP 500 naming how many requests were served', T, async () => {
  model.script(reply('only one'));
  const anthropic = PROVIDERS[0].make(model);
  const chat = PROVIDERS[2].make(model);
  assert.equal((await run(anthropic)).text, 'only one');
  for (const lm of [anthropic, chat]) {
    await assert.rejects(
      async () => lm.doStream({ prompt: hi() }),
      (e: unknown) => {
        assert.ok(APICallError.isInstance(e));
        assert.equal(e.statusCode, 500);
        assert.match(e.message, /fake model: script exhausted after \d+ requests/);
        return true;
      },
    );
  }
  assert.deepEqual(
    model.requests.map((r) => r.answer?.kind),
    ['reply', 'exhausted', 'exhausted'],
  );
});

async function fetchJson(m: FakeModel, path: string, body: unknown = { model: 'x', messages: [] }, method = 'POST') {
  const res = await fetch(m.url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { error: { message: string; type: string } } };
}

test('the exhaustion message counts the requests served before it', T, async () => {
  model.script(reply('a'), reply('b'));
  await fetchJson(model, '/v1/messages');
  await fetchJson(model, '/messages');
  const r = await fetchJson(model, '/v1/chat/completions');
  assert.equal(r.status, 500);
  assert.equal(r.body.error.message, 'fake model: script exhausted after 2 requests');
  assert.deepEqual(
    model.requests.map((q) => q.format),
    ['anthropic', 'anthropic', 'openai-chat'],
  );
});

test('unknown paths get 404 and consume no step; short paths without /v1 work', T, async () => {
  model.script(reply('kept'));
  const nf = await fetchJson(model, '/v1/models', undefined, 'GET');
  assert.equal(nf.status, 404);
  assert.match(nf.body.error.message, /no endpoint GET \/v1\/models/);
  assert.equal(model.remaining, 1);
  const lm = createOpenAI({ apiKey: 'x', baseURL: model.url }).chat('gpt-4o') as LanguageModelV4;
  assert.equal((await run(lm)).text, 'kept');
  assert.equal(model.probes[0].path, '/v1/models', 'the model list is a probe (see models())');
  assert.equal(model.requests[0].path, '/chat/completions');
});

test('onRequest answers before the script and can fall through to it', T, async () => {
  model.script(reply('from the script'));
  model.onRequest((req) => (userTexts(req).at(-1) === 'ping' ? reply('pong') : undefined));
  const lm = PROVIDERS[1].make(model);
  assert.equal((await run(lm, hi('ping'))).text, 'pong');
  assert.equal(model.remaining, 1);
  assert.equal((await run(lm, hi('something else'))).text, 'from the script');
  assert.equal(model.remaining, 0);
});

test('one script drives every wire format in turn; delay() holds the first byte', T, async () => {
  model.script(reply('one'), reply('two').delay(80), reply('three'), reply('four'));
  const texts: string[] = [];
  for (const p of PROVIDERS) {
    const t0 = Date.now();
    texts.push((await run(p.make(model))).text);
    if (texts.length === 2) assert.ok(Date.now() - t0 >= 70, 'delay respected');
  }
  assert.deepEqual(texts, ['one', 'two', 'three', 'four']);
  assert.deepEqual(
    model.requests.map((r) => r.format),
    ['anthropic', 'openai-responses', 'openai-chat', 'openai-chat'],
  );
});

test('malformed tool arguments are passed through verbatim', T, async () => {
  model.script(reply().tool('Read', '{"file_path": "a.t'));
  const lm = PROVIDERS[2].make(model);
  const { stream } = await lm.doStream({ prompt: hi(), tools: TOOLS });
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const call = parts.find((x) => x.type === 'tool-call');
  assert.equal(call?.type === 'tool-call' ? call.input : undefined, '{"file_path": "a.t');
});

test('stepFromJson reads the serialisable forms', T, () => {
  const r = stepFromJson({ text: 'hi', tools: [{ name: 'Read', input: { file_path: 'a' } }], usage: { input: 3 } });
  assert.equal(typeof r === 'object' && r.kind, 'reply');
  assert.deepEqual(stepFromJson({ fail: 429, retryAfter: 2 }), { kind: 'fail', status: 429, retryAfter: 2 });
  assert.equal((stepFromJson({ cut: 'x', after: 2 }) as { kind: string; after?: number }).after, 2);
  assert.equal((stepFromJson({ hang: true }) as { kind: string }).kind, 'hang');
  assert.equal((stepFromJson({ stall: { text: 'x' } }) as { kind: string }).kind, 'stall');
  assert.equal((stepFromJson({ streamError: 'x', type: 'overloaded_error' }) as { kind: string; type?: string }).type, 'overloaded_error');
  assert.equal((stepFromJson('Done.') as { kind: string }).kind, 'reply');
  assert.equal((stepFromJson({ endEarly: 'x', after: 3 }) as { kind: string; after?: number }).after, 3);
  assert.equal((stepFromJson({ malformed: 'x', data: 'oops' }) as { kind: string; data?: string }).data, 'oops');
  assert.throws(() => stepFromJson({ txt: 'typo' } as never), /unknown step keys txt/);
});

test('the model-information routes answer as Ollama and OpenAI-compatible servers do, recorded as probes', T, async () => {
  model.models([
    { id: 'qwen3-coder', contextLength: 40960, numCtx: 16384 },
    { id: 'local-model', contextLength: 32768 },
  ]);
  const show = await fetch(`${model.url}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'qwen3-coder' }) }).then(
    (r) => r.json() as Promise<any>,
  );
  assert.equal(show.model_info['fake.context_length'], 40960);
  assert.match(show.parameters, /num_ctx\s+16384/);
  const missing = await fetch(`${model.url}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'nope' }) });
  assert.equal(missing.status, 404);
  const list = await fetch(`${model.openaiBaseUrl}/models`).then((r) => r.json() as Promise<any>);
  assert.deepEqual(
    list.data.map((m: { id: string; context_length?: number }) => [m.id, m.context_length]),
    [
      ['qwen3-coder', 40960],
      ['local-model', 32768],
    ],
  );
  assert.equal(model.requests.length, 0, 'probes are not model requests');
  assert.deepEqual(
    model.probes.map((r) => r.path),
    ['/api/show', '/api/show', '/v1/models'],
  );
  model.models([]);
});

test('the CLI serves a JSON script from a separate process and prints its URL', T, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fake-model-'));
  const file = join(dir, 'script.json');
  writeFileSync(
    file,
    JSON.stringify([
      { text: 'From the CLI.', tools: [{ name: 'Read', input: { file_path: 'a.ts' } }] },
      { fail: 429, retryAfter: 1 },
      'Done.',
    ]),
  );
  const cli = fileURLToPath(new URL('../fakes/model-server-cli.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', cli, file], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: child.stdout });
      rl.once('line', (line) => resolve(line.trim()));
      child.once('exit', (code) => reject(new Error(`CLI exited ${code}: ${stderr}`)));
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const lm = createAnthropic({ apiKey: 'x', baseURL: `${url}/v1` })('claude-sonnet-4-5') as LanguageModelV4;
    const c = await run(lm);
    assert.equal(c.text, 'From the CLI.');
    assert.deepEqual(
      c.toolCalls.map((t) => [t.name, t.input]),
      [['Read', { file_path: 'a.ts' }]],
    );
    await assert.rejects(
      async () => lm.doStream({ prompt: hi() }),
      (e: unknown) => APICallError.isInstance(e) && e.statusCode === 429 && e.responseHeaders?.['retry-after'] === '1',
    );
    const openai = createOpenAI({ apiKey: 'x', baseURL: `${url}/v1` }).responses('gpt-5') as LanguageModelV4;
    assert.equal((await run(openai)).text, 'Done.');
    assert.match(stderr, /#0 POST \/v1\/messages \(anthropic\) → reply "From the CLI\." tools=Read/);
  } finally {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    rmSync(dir, { recursive: true, force: true });
  }
});
