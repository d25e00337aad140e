import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapToolNames, TOOL_NAME_RULE } from '../../src/mcp/names.ts';
import { capOutput, toToolResult } from '../../src/mcp/result.ts';
import { toToolDef } from '../../src/mcp/tool-def.ts';
import { inputJsonSchema, toolSchemas, validateInput } from '../../src/tools/registry.ts';

test('tool names: mcp__SERVER__TOOL, made safe for every provider, unique, with the mapping kept', () => {
  const long = 'a'.repeat(80);
  const m = mapToolNames([
    { server: 'github', tool: 'create_issue' },
    { server: 'my.server', tool: 'do thing/now' },
    { server: 'x', tool: 'a.b' },
    { server: 'x', tool: 'a_b' },
    { server: 'x', tool: 'a b' },
    { server: 'srv', tool: long },
    { server: 'srv', tool: `${long}z` },
    { server: 'ünï', tool: 'ok' },
  ]);
  assert.deepEqual(
    m.slice(0, 5).map((x) => [x.name, x.changed]),
    [
      ['mcp__github__create_issue', false],
      ['mcp__my_server__do_thing_now', true],
      ['mcp__x__a_b', true],
      ['mcp__x__a_b_2', true],
      ['mcp__x__a_b_3', true],
    ],
  );
  assert.equal(m[3].tool, 'a_b', "the mapping keeps the server's own name for tools/call");
  assert.equal(m[5].name.length, 64);
  assert.notEqual(m[5].name, m[6].name, 'two long names that share a start differ by their hash');
  assert.equal(m[7].name, 'mcp___n___ok');
  for (const x of m) assert.match(x.name, TOOL_NAME_RULE);
  assert.equal(new Set(m.map((x) => x.name)).size, m.length);
});

const echo = {
  name: 'echo',
  description: 'Echoes.',
  annotations: { readOnlyHint: true },
  inputSchema: {
    type: 'object' as const,
    properties: { text: { type: 'string', description: 'what', minLength: 1 } },
    required: ['text'],
    $schema: 'http://json-schema.org/draft-07/schema#',
  },
};

test("a server tool as a ToolDef: the server's JSON Schema as the model sees it, readOnly from readOnlyHint", async () => {
  const calls: unknown[] = [];
  const def = toToolDef(echo, { name: 'mcp__s__echo', server: 's', tool: 'echo', changed: false }, async (m, input) => {
    calls.push([m.tool, input]);
    return { output: 'ok' };
  });
  assert.equal(def.readOnly, true);
  assert.deepEqual(inputJsonSchema(def), {
    type: 'object',
    properties: { text: { type: 'string', description: 'what', minLength: 1 } },
    required: ['text'],
  });
  assert.deepEqual(toolSchemas([def])[0], { name: 'mcp__s__echo', description: 'Echoes.', inputSchema: inputJsonSchema(def) });
  const v = validateInput(def, '{"text": "hi", "extra": 1}');
  assert.ok('input' in v && v.input.extra === 1, 'the input reaches the server as given: the server checks it');
  assert.deepEqual(await def.execute({ text: 'hi' }, {} as never), { output: 'ok' });
  assert.deepEqual(calls, [['echo', { text: 'hi' }]]);
  const plain = toToolDef(
    { name: 'w', inputSchema: { type: 'object' } },
    { name: 'mcp__s__w', server: 's', tool: 'w', changed: false },
    async () => ({ output: '' }),
  );
  assert.equal(plain.readOnly, false, 'no readOnlyHint: not read-only');
  assert.equal(plain.description, 'Tool "w" of the MCP server "s".');
});

test('results: text, images kept as data, resource links, embedded resources, structured content, errors', () => {
  const r = toToolResult(
    {
      content: [
        { type: 'text', text: 'Here:' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain', description: 'the file' },
        { type: 'resource', resource: { uri: 'mem://n', mimeType: 'text/markdown', text: '# note' } },
        { type: 'resource', resource: { uri: 'mem://b', mimeType: 'application/zip', blob: 'AAAA' } },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      ],
      structuredContent: { temperature: 21 },
    },
    25_000,
  );
  assert.equal(
    r.output,
    [
      'Here:',
      '[image: image/png, 8 B]',
      '[resource link: a.txt <file:///a.txt> (text/plain)] the file',
      '[resource <mem://n> (text/markdown)]\n# note',
      '[resource <mem://b>: application/zip, 3 B]',
      '[audio: audio/wav, 3 B — not shown to the model]',
    ].join('\n'),
    'the text blocks carry what the structured content says',
  );
  assert.deepEqual(r.images, [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]);
  assert.equal(r.isError, undefined);
  assert.equal(r.display, '7 lines, 1 image');
  assert.equal((r.response as unknown[]).length, 6, 'hooks get the content as sent');
  assert.equal(
    toToolResult({ content: [{ type: 'text', text: 'T is 1' }], structuredContent: { t: 1 } }, 100).output,
    'T is 1',
    'no repeat of what the text carries',
  );
  assert.equal(
    toToolResult({ content: [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }], structuredContent: { t: 1 } }, 100).output,
    '[image: image/png, 3 B]\nStructured result:\n{\n  "t": 1\n}',
  );
  assert.equal(toToolResult({ content: [], structuredContent: { t: 1 } }, 100).output, '{\n  "t": 1\n}');
  const err = toToolResult({ isError: true, content: [{ type: 'text', text: 'jammed' }] }, 100);
  assert.deepEqual([err.output, err.isError, err.display], ['jammed', true, 'error']);
  assert.equal(toToolResult({ isError: true, content: [] }, 100).output, 'The tool reported an error without a message.');
});

test('output over MAX_MCP_OUTPUT_TOKENS is cut with a note the model can act on', () => {
  assert.deepEqual(capOutput('short', 10), { text: 'short', cut: false });
  const text = `${'line of text\n'.repeat(1000)}`;
  const c = capOutput(text, 100);
  assert.ok(c.cut);
  assert.ok(c.text.startsWith('line of text\n'));
  assert.ok(c.text.split('\n\n[output cut')[0].length <= 400);
  assert.match(
    c.text,
    /\[output cut: the tool returned about 3250 tokens, over the limit of 100 \(MAX_MCP_OUTPUT_TOKENS\); ask it for less, with a filter, a limit or paging, if it takes one\]$/,
  );
  assert.equal(toToolResult({ content: [{ type: 'text', text }] }, 100).display, '1001 lines, cut to the output limit');
});
