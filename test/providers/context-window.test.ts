import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextWindow, fromModelsList, fromOllamaShow } from '../../src/providers/context-window.ts';

test("Ollama's /api/show: num_ctx wins over the model's trained context length", () => {
  const cases: Array<[unknown, number | undefined]> = [
    [{ parameters: 'stop "<|im_end|>"\nnum_ctx                        8192', model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 } }, 8192],
    [{ parameters: '', model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 } }, 40960],
    [{ model_info: { 'llama.context_length': 131072 } }, 131072],
    [{ model_info: { 'general.architecture': 'x' } }, undefined],
    [undefined, undefined],
    ['not json', undefined],
  ];
  for (const [body, want] of cases) assert.equal(fromOllamaShow(body), want, JSON.stringify(body));
});

test('/v1/models: the entry of this model, under the names servers use', () => {
  const list = (entry: Record<string, unknown>) => ({ object: 'list', data: [{ id: 'other', context_length: 1 }, { id: 'm', ...entry }] });
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
  assert.deepEqual(await contextWindow({ provider: 'anthropic', model: 'claude-sonnet-4-5', setting: 5 }), { tokens: 200_000, source: 'the model catalogue' });
  const dead = { baseURL: 'http://127.0.0.1:9', timeoutMs: 500 };
  assert.deepEqual(await contextWindow({ provider: 'ollama', model: 'x', setting: 12_345, ...dead }), { tokens: 12_345, source: 'settings modelContextWindow' });
  const fallback = await contextWindow({ provider: 'openai-compatible', model: 'x', ...dead });
  assert.equal(fallback.tokens, 200_000);
  assert.match(fallback.source, /^the default/);
});
