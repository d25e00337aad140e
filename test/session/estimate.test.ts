import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateTokens, IMAGE_TOKENS } from '../../src/session/compact.ts';
import type { Message } from '../../src/providers/types.ts';

const convo: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Fix the greeting in src/a.ts, please.' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'Read', input: { file_path: 'src/a.ts' } },
    ],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'Read', output: '1\texport const hi = "Hello";\n'.repeat(50) }],
  },
] as Message[];

test("the token estimate is the whole conversation's JSON at 4 characters a token, measured once per message", () => {
  const system = 'You are a coding assistant.';
  const whole = Math.ceil((system.length + JSON.stringify(convo).length) / 4);
  assert.equal(estimateTokens(system, convo), whole);
  // Asked again (every turn asks), the answer is the same; a new message adds its own length.
  assert.equal(estimateTokens(system, convo), whole);
  const next = [...convo, { role: 'user', content: [{ type: 'text', text: 'x'.repeat(4000) }] } as Message];
  assert.equal(estimateTokens(system, next), Math.ceil((system.length + JSON.stringify(next).length) / 4));
  assert.equal(estimateTokens('', []), 1, 'an empty conversation is its brackets');
});

test('an image counts as what a model charges for it, not as its base64 text', () => {
  const data = 'A'.repeat(200_000);
  const withImage = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', data, mediaType: 'image/png' },
      ],
    } as unknown as Message,
  ];
  const est = estimateTokens('', withImage);
  assert.ok(est >= IMAGE_TOKENS && est < IMAGE_TOKENS + 100, `estimate ${est}`);
});
