import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamJsonEvent } from '../../src/headless/format.ts';

test("stream-json assistant lines carry Claude Code's message fields: id, model, stop_reason, usage", () => {
  const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const line = streamJsonEvent(
    {
      type: 'message',
      usage,
      message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'Read', input: { file_path: 'a' } }] },
    },
    'S',
    'anthropic:claude-sonnet-4-5',
  ) as { type: string; message: Record<string, unknown>; session_id: string };
  assert.equal(line.type, 'assistant');
  assert.equal(line.session_id, 'S');
  assert.equal((line as Record<string, unknown>).parent_tool_use_id, null);
  assert.match(String((line as Record<string, unknown>).uuid), /^[0-9a-f-]{36}$/);
  assert.match(String(line.message.id), /^msg_[0-9a-f]{24}$/);
  assert.equal(line.message.model, 'anthropic:claude-sonnet-4-5');
  assert.equal(line.message.stop_reason, 'tool_use');
  assert.deepEqual(line.message.usage, { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  assert.deepEqual(line.message.content, [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }]);
  const text = streamJsonEvent({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] } }, 'S') as {
    message: Record<string, unknown>;
  };
  assert.equal(text.message.stop_reason, 'end_turn');
  assert.equal('usage' in text.message, false);
  assert.equal(streamJsonEvent({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'q' }] } }, 'S'), undefined);
});
