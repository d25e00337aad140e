import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolOutput } from '../../src/agent/tool-output.ts';
import { Reasoning } from '../../src/agent/reasoning.ts';
import { toToolResult } from '../../src/mcp/result.ts';
import { imagesOutOfToolResults, withoutForbiddenReasoning, withoutImages } from '../../src/providers/wire-prompt.ts';

const PNG = 'iVBORw0KGgo=';
const vision = { label: 'anthropic:m', facts: { images: true } };

test("an MCP tool's image goes to the model by the same path as Read's; a text-only model gets a note; errors stay text", () => {
  const mcp = toToolResult(
    {
      content: [
        { type: 'text', text: 'a chart' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    },
    25_000,
  );
  assert.deepEqual(toolOutput(mcp, vision), {
    type: 'content',
    value: [
      { type: 'text', text: 'a chart\n[image: image/png, 8 B]' },
      { type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' },
    ],
  });
  const note = toolOutput(mcp, { label: 'openai:o3-mini', facts: { images: false } });
  assert.equal(note.type, 'text');
  assert.match((note as { value: string }).value, /\[1 image not shown: openai:o3-mini does not take images/);
  assert.deepEqual(toolOutput({ output: 'boom', isError: true, images: [{ mediaType: 'image/png', data: PNG }] }, vision), {
    type: 'error-text',
    value: 'boom',
  });
  assert.deepEqual(toolOutput({ output: 'plain' }, { label: 'x' }), { type: 'text', value: 'plain' });
});

test("chat wires get a result's images in a user message after it; reasoning is left out where a wire forbids it", () => {
  const prompt = [
    {
      role: 'assistant' as const,
      content: [
        { type: 'reasoning' as const, text: 'hm' },
        { type: 'tool-call' as const, toolCallId: 't', toolName: 'Read', input: {} },
      ],
    },
    {
      role: 'tool' as const,
      content: [
        {
          type: 'tool-result' as const,
          toolCallId: 't',
          toolName: 'Read',
          output: toolOutput({ output: 'Image a.png', images: [{ mediaType: 'image/png', data: PNG }] }, vision),
        },
      ],
    },
  ];
  assert.equal(imagesOutOfToolResults(prompt, 'anthropic'), prompt, 'Anthropic carries them in the result');
  const chat = imagesOutOfToolResults(prompt, 'openai-chat');
  assert.deepEqual(chat[1].content[0], {
    type: 'tool-result',
    toolCallId: 't',
    toolName: 'Read',
    output: { type: 'text', value: 'Image a.png' },
  });
  assert.deepEqual(chat[2], {
    role: 'user',
    content: [
      { type: 'text', text: 'The image returned by the Read call above:' },
      { type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' },
    ],
  });
  assert.deepEqual(
    (withoutForbiddenReasoning(prompt, 'openai-compatible')[0].content as Array<{ type: string }>).map((p) => p.type),
    ['tool-call'],
  );
  assert.equal(withoutForbiddenReasoning(prompt, 'anthropic'), prompt);
  const text = withoutImages([
    ...prompt,
    { role: 'user', content: [{ type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' }] },
  ]);
  assert.doesNotMatch(JSON.stringify(text), /"file"/, 'a text-only model gets notes for earlier images');
  assert.match(JSON.stringify(text[1]), /an image was here/);
});

test('reasoning blocks keep their provider metadata (signatures), merged as it streams', () => {
  const r = new Reasoning();
  r.add({ type: 'reasoning', id: '0', delta: 'Let ' });
  r.add({ type: 'reasoning', id: '0', delta: 'me.' });
  r.add({ type: 'reasoning', id: '0', delta: '', meta: { anthropic: { signature: 'S' } } });
  r.add({ type: 'reasoning', id: '1', delta: 'Again.' });
  assert.deepEqual(r.parts(), [
    { type: 'reasoning', text: 'Let me.', providerOptions: { anthropic: { signature: 'S' } } },
    { type: 'reasoning', text: 'Again.' },
  ]);
});
