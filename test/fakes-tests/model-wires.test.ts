/**
 * The fake server's Gemini and Ollama wire formats, and reasoning and images on every wire, proved
 * against the real AI SDK providers (the product's own), called through doStream / doGenerate.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOllama } from 'ollama-ai-provider-v2';
import { ollamaFetch } from '../../src/providers/ollama-fetch.ts';
import { APICallError, type LanguageModelV4, type LanguageModelV4Prompt, type LanguageModelV4StreamPart } from '@ai-sdk/provider';
import {
  fail,
  lastToolResults,
  receivedImages,
  reply,
  startFakeModel,
  streamError,
  systemPrompt,
  toolNames,
  userTexts,
  type FakeModel,
  type WireFormat,
} from '../fakes/model-server.ts';

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

const CASES: Array<{ name: string; format: WireFormat; make: (m: FakeModel) => LanguageModelV4 }> = [
  {
    name: 'gemini',
    format: 'gemini',
    make: (m) => createGoogleGenerativeAI({ apiKey: 'x', baseURL: `${m.url}/v1beta` })('gemini-2.5-pro') as LanguageModelV4,
  },
  // As the product makes it: its fetch turns Ollama's in-stream error line into a failed body (the provider would skip the line).
  {
    name: 'ollama',
    format: 'ollama',
    make: (m) => createOllama({ baseURL: `${m.url}/api`, fetch: ollamaFetch(fetch) })('qwen3') as LanguageModelV4,
  },
];
const TOOLS = [
  {
    type: 'function' as const,
    name: 'Read',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } } as never,
  },
];
const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

async function collect(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  let thrown: unknown;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch (e) {
    thrown = e;
  }
  const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('');
  const reasoning = parts.flatMap((p) => (p.type === 'reasoning-delta' ? [p.delta] : [])).join('');
  const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p] : []));
  const finish = parts.find((p) => p.type === 'finish') as Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
  return { parts, text, reasoning, calls, finish, errors: parts.filter((p) => p.type === 'error'), thrown };
}

for (const c of CASES) {
  test(`${c.name}: thinking, text and a tool call stream; the tool result and an image go back; errors surface`, T, async () => {
    model.script(
      reply().thinking('Let me think.').text('Reading it now.').tool('Read', { file_path: 'a.png' }).usage({ input: 300, output: 20 }),
      (req) =>
        reply(
          `saw: ${lastToolResults(req)
            .map((r) => r.content)
            .join(' | ')}`,
        ),
      reply('Plain.').truncated(),
      fail(429, { retryAfter: 0 }),
      streamError(reply('breaks halfway through this answer')),
    );
    const lm = c.make(model);
    const prompt: LanguageModelV4Prompt = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'look' }] },
    ];
    const first = await collect((await lm.doStream({ prompt, tools: TOOLS })).stream);
    assert.equal(first.text, 'Reading it now.');
    assert.equal(first.reasoning, 'Let me think.');
    assert.deepEqual(
      first.calls.map((x) => [x.toolName, JSON.parse(x.input)]),
      [['Read', { file_path: 'a.png' }]],
    );
    assert.equal(first.finish?.finishReason.unified, 'tool-calls');
    assert.equal(first.finish?.usage.inputTokens.total, 300);
    assert.equal(model.requests[0].format, c.format);
    assert.equal(model.requests[0].stream, true);
    assert.equal(systemPrompt(model.requests[0]), 'Be brief.');
    assert.deepEqual(userTexts(model.requests[0]), ['look']);
    assert.deepEqual(toolNames(model.requests[0]), ['Read']);

    const call = first.calls[0];
    const second = await collect(
      (
        await lm.doStream({
          prompt: [
            ...prompt,
            {
              role: 'assistant',
              content: [
                {
                  type: 'tool-call',
                  toolCallId: call.toolCallId,
                  toolName: 'Read',
                  input: JSON.parse(call.input),
                  providerOptions: call.providerMetadata as never,
                },
              ],
            },
            {
              role: 'tool',
              content: [
                { type: 'tool-result', toolCallId: call.toolCallId, toolName: 'Read', output: { type: 'text', value: 'PNG bytes' } },
              ],
            },
            { role: 'user', content: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } } as never] },
          ],
          tools: TOOLS,
        })
      ).stream,
    );
    assert.equal(second.text, 'saw: PNG bytes');
    assert.deepEqual(
      receivedImages(model.requests[1]).map((i) => [i.where, i.data]),
      [['user', PNG]],
    );

    const third = await lm.doGenerate({ prompt });
    assert.equal(model.requests[2].stream, false);
    assert.equal(third.finishReason.unified, 'length');

    await assert.rejects(
      async () => lm.doStream({ prompt }),
      (e: unknown) => APICallError.isInstance(e) && e.statusCode === 429 && e.isRetryable,
    );
    const broken = await collect((await lm.doStream({ prompt })).stream);
    // Gemini's provider makes it an error part; for Ollama the read fails with Ollama's words.
    assert.equal(broken.errors.length + (broken.thrown ? 1 : 0), 1, 'the error inside the stream surfaces');
    if (broken.thrown) assert.match(String(broken.thrown), /Ollama: /);
  });
}

test('thinking streams as reasoning on the Anthropic, Responses and Chat wires, with what must come back', T, async () => {
  const steps = () => model.script(reply().thinking('Hmm.', { signature: 'SIG' }).text('Answer.'));
  const anthropic = createAnthropic({ apiKey: 'x', baseURL: `${model.url}/v1` })('claude-sonnet-4-5') as LanguageModelV4;
  const responses = createOpenAI({ apiKey: 'x', baseURL: model.openaiBaseUrl }).responses('gpt-5') as LanguageModelV4;
  const chat = createOllama({ baseURL: `${model.url}/api` })('m') as LanguageModelV4;
  const prompt: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text: 'q' }] }];
  for (const lm of [anthropic, responses, chat]) {
    steps();
    const r = await collect((await lm.doStream({ prompt })).stream);
    assert.equal(r.reasoning, 'Hmm.', lm.provider);
    assert.equal(r.text, 'Answer.', lm.provider);
  }
  steps();
  const a = await collect((await anthropic.doStream({ prompt })).stream);
  const sig = a.parts.flatMap((p) => (p.type === 'reasoning-delta' && p.providerMetadata ? [p.providerMetadata] : []));
  assert.deepEqual(sig, [{ anthropic: { signature: 'SIG' } }], 'the signature arrives as the block ends');
});
