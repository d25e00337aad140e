import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AgentEvent } from '../../src/agent/events.ts';
import { initJson, resultJson, streamJsonEvent } from '../../src/headless/format.ts';
import { StreamJsonLine, streamJsonSchema } from '../../src/headless/stream-schema.ts';
import { emptyUsage } from '../../src/providers/types.ts';

// ajv comes with the MCP SDK (a devDependency): the published JSON Schema is checked as other languages would use it.
const Ajv2020 = createRequire(import.meta.url)('ajv/dist/2020.js').default;

test('schema/stream-json.schema.json is generated from the current schemas (run npm run docs)', () => {
  const file = readFileSync(new URL('../../schema/stream-json.schema.json', import.meta.url), 'utf8');
  assert.ok(file === streamJsonSchema(), 'schema/stream-json.schema.json is stale: run "npm run docs"');
});

const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 };
const events: AgentEvent[] = [
  {
    type: 'message',
    message: {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'hm' },
        { type: 'text', text: 'hi' },
        { type: 'tool-call', toolCallId: 't1', toolName: 'Bash', input: { command: 'ls' } },
      ],
    } as never,
    usage,
  },
  {
    type: 'message',
    message: {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'Bash', output: { type: 'text', value: 'a\nb' } }],
    } as never,
  },
  {
    type: 'message',
    message: {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 't2', toolName: 'Read', output: { type: 'error-text', value: 'no' } }],
    } as never,
  },
  { type: 'retry', attempt: 1, maxRetries: 3, delayMs: 100, message: 'overloaded' },
  { type: 'tool-start', id: 't1', name: 'Bash', input: {}, sandboxed: true, reason: 'inside the sandbox' },
  { type: 'tool-denied', id: 't2', name: 'Write', input: {}, reason: 'Plan Mode' },
  { type: 'warning', message: 'careful' },
  {
    type: 'hook',
    event: 'PreToolUse',
    command: './g.sh',
    source: 'settings.json',
    exitCode: 2,
    durationMs: 3,
    outcome: 'block',
    message: 'no',
  },
  { type: 'hook', event: 'PreToolUse', command: './g.sh', source: 'settings.json', exitCode: null, durationMs: 3, outcome: 'failed' },
  { type: 'hook-running', event: 'Stop', command: './slow.sh' },
  { type: 'verify-start', command: 'npm test', attempt: 0 },
  { type: 'verify-end', command: 'npm test', attempt: 0, passed: false, exitCode: 1, output: 'fail', durationMs: 40 },
];

test('every kind of stream-json line fits the zod schema and the published JSON Schema', () => {
  const validate = new Ajv2020({ strict: false }).compile(JSON.parse(streamJsonSchema()));
  const lines: unknown[] = [
    initJson(
      { id: 's', tools: [{ name: 'Read' }], conversation: { transcript: { path: '/t.jsonl' } } },
      { cwd: '/p', model: 'm', mode: 'default' },
    ),
    ...events.map((e) => ({ ...streamJsonEvent(e, 's', 'm'), uuid: 'u' })),
    resultJson({
      outcome: { status: 'done', text: 'ok', turns: 1, usage },
      sessionId: 's',
      durationMs: 1,
      durationApiMs: 1,
      costUsd: 0.1,
      denials: [{ tool_name: 'Write', tool_use_id: 't', tool_input: {} }],
    }),
    resultJson({
      outcome: { status: 'max-turns', text: '', turns: 3, usage: emptyUsage(), error: 'limit' },
      sessionId: 's',
      durationMs: 1,
      durationApiMs: 1,
      costUsd: 0,
      denials: [],
    }),
  ];
  assert.equal(lines.length, events.length + 3);
  for (const line of lines) {
    const z = StreamJsonLine.safeParse(line);
    assert.ok(z.success, `zod: ${JSON.stringify(line)}: ${z.success ? '' : z.error.message}`);
    assert.ok(validate(line), `JSON Schema: ${JSON.stringify(line)}: ${JSON.stringify(validate.errors)}`);
  }
});

test('the schemas reject what is not a line', () => {
  const validate = new Ajv2020({ strict: false }).compile(JSON.parse(streamJsonSchema()));
  for (const bad of [
    { type: 'result', subtype: 'success' },
    { type: 'system', subtype: 'init' },
    { type: 'nonsense' },
    { type: 'warning', session_id: 's', uuid: 'u' },
  ]) {
    assert.equal(StreamJsonLine.safeParse(bad).success, false, JSON.stringify(bad));
    assert.equal(validate(bad), false, JSON.stringify(bad));
  }
});
