import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costUsd, lookupModel } from '../../src/providers/catalogue.ts';
import { contextWindow, fromModelsList, ollamaContext, parseOllamaShow } from '../../src/providers/context-window.ts';

/** A `num_ctx` the model was created with is what the server runs it with, so it wins over the trained length. */
const fromOllamaShow = (body: unknown) => {
  const s = parseOllamaShow(body);
  return s?.numCtx ?? s?.contextLength;
};
import { thinkingCall } from '../../src/providers/thinking.ts';

test("the catalogue (models.dev) knows the providers' models: window, output limit, price, images, reasoning", async () => {
  const sonnet = await lookupModel('anthropic', 'claude-sonnet-4-5');
  assert.ok(sonnet);
  assert.equal(sonnet.contextWindow, 200_000);
  assert.deepEqual(sonnet.price.slice(0, 2), [3, 15]);
  assert.equal(sonnet.images, true);
  assert.equal(sonnet.reasoning, true);
  assert.deepEqual((await lookupModel('anthropic', 'claude-sonnet-4-5-20250929'))?.price, sonnet.price, 'a dated id');
  assert.equal((await lookupModel('anthropic', 'claude-opus-4-5'))?.price[0], 5);
  assert.equal((await lookupModel('openai', 'gpt-5'))?.reasoning, true);
  assert.equal((await lookupModel('openai-chat', 'gpt-4o'))?.reasoning, false);
  assert.ok((await lookupModel('google', 'gemini-2.5-pro'))!.contextWindow >= 1_000_000);
  assert.match((await lookupModel('openai-compatible', 'anthropic/claude-sonnet-4.5'))?.foundAs ?? '', /^openrouter:/);
  assert.equal(await lookupModel('ollama', 'qwen3-coder'), undefined, 'a local model: its server says');
  assert.equal(await lookupModel('anthropic', 'claude-from-the-future'), undefined);
});

test('cost: fresh input, output and both cache kinds, each priced once', () => {
  const u = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 0 };
  assert.equal(costUsd([3, 15, 0.3, 3.75], u), 1.5 + 15 + 0.15);
  assert.equal(costUsd(undefined, u), 0);
});

test("Ollama's /api/show: num_ctx wins over the model's trained context length; capabilities are read", () => {
  const cases: Array<[unknown, number | undefined]> = [
    [
      {
        parameters: 'stop "<|im_end|>"\nnum_ctx                        8192',
        model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 },
      },
      8192,
    ],
    [{ parameters: '', model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 } }, 40960],
    [{ model_info: { 'llama.context_length': 131072 } }, 131072],
    [{ model_info: { 'general.architecture': 'x' } }, undefined],
    [undefined, undefined],
    ['not json', undefined],
  ];
  for (const [body, want] of cases) assert.equal(fromOllamaShow(body), want, JSON.stringify(body));
  assert.deepEqual(parseOllamaShow({ capabilities: ['completion', 'vision', 3] })?.capabilities, ['completion', 'vision']);
});

test("num_ctx: the Modelfile's, else the trained length capped by ollamaMaxContext, else the setting, else the cap", () => {
  assert.deepEqual(ollamaContext({ numCtx: 8192, contextLength: 40960 }, undefined), {
    tokens: 8192,
    source: "Ollama's /api/show (the model's num_ctx)",
  });
  assert.equal(ollamaContext({ contextLength: 40960 }, undefined, 65_536).tokens, 40960);
  assert.equal(ollamaContext({ contextLength: 131072 }, undefined).tokens, 32_768);
  assert.match(ollamaContext({ contextLength: 131072 }, undefined).source, /takes 131072; capped by ollamaMaxContext/);
  assert.equal(ollamaContext(null, 12_000).tokens, 12_000);
  assert.equal(ollamaContext(null, undefined, 16_384).tokens, 16_384);
});

test('/v1/models: the entry of this model, under the names servers use', () => {
  const list = (entry: Record<string, unknown>) => ({
    object: 'list',
    data: [
      { id: 'other', context_length: 1 },
      { id: 'm', ...entry },
    ],
  });
  const cases: Array<[unknown, number | undefined]> = [
    [list({ context_length: 32768 }), 32768],
    [list({ max_model_len: 16384 }), 16384],
    [list({ max_context_length: 8192 }), 8192],
    [list({ top_provider: { context_length: 200000 } }), 200000],
    [list({ context_length: -5 }), undefined],
    [list({}), undefined],
    [{ data: [{ id: 'other', context_length: 1 }] }, undefined],
    [{ error: 'nope' }, undefined],
  ];
  for (const [body, want] of cases) assert.equal(fromModelsList(body, 'm'), want, JSON.stringify(body));
});

test('the catalogue first; a server that does not answer falls through to the setting, then 200k', async () => {
  assert.deepEqual(await contextWindow({ provider: 'anthropic', model: 'claude-sonnet-4-5', catalogue: 200_000, setting: 5 }), {
    tokens: 200_000,
    source: 'the model catalogue',
  });
  const dead = { baseURL: 'http://127.0.0.1:9', timeoutMs: 500 };
  assert.deepEqual(await contextWindow({ provider: 'ollama', model: 'x', setting: 12_345, ...dead }), {
    tokens: 12_345,
    source: 'settings modelContextWindow',
  });
  const fallback = await contextWindow({ provider: 'openai-compatible', model: 'x', ...dead });
  assert.equal(fallback.tokens, 200_000);
  assert.match(fallback.source, /^the default/);
});

test("thinking: each provider's own request field; unset sends nothing", () => {
  assert.deepEqual(thinkingCall('anthropic', 'medium'), {
    reasoning: 'medium',
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 10_000 } } },
  });
  assert.deepEqual(thinkingCall('anthropic', 'off'), {});
  assert.deepEqual(thinkingCall('openai', 'high'), { reasoning: 'high', providerOptions: { openai: { reasoningSummary: 'auto' } } });
  assert.deepEqual(thinkingCall('openai-chat', 'off'), { reasoning: 'none' });
  assert.deepEqual(thinkingCall('google', 'low'), {
    reasoning: 'low',
    providerOptions: { google: { thinkingConfig: { includeThoughts: true } } },
  });
  assert.deepEqual(thinkingCall('ollama', 'low', { reasoning: true }), { providerOptions: { ollama: { think: true } } });
  assert.deepEqual(thinkingCall('ollama', 'low', { reasoning: false }), {}, 'a model without thinking refuses the field');
  assert.deepEqual(thinkingCall('openai-compatible', 'high'), { reasoning: 'high' });
  assert.deepEqual(thinkingCall('anthropic', undefined), {});
});
