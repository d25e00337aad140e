import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endRun, groupTools, initialState, reduceEvent, splitFinished, toggleDetail, type UiState } from '../../src/ui/state.ts';
import { groupSummary } from '../../src/ui/components/group-view.tsx';
import type { AgentEvent } from '../../src/agent/events.ts';
import { summaryMessage } from '../../src/session/compact.ts';
import { replayItems } from '../../src/ui/replay.ts';

const start = (): UiState => initialState({ mode: 'normal', model: 'm', window: 1000, cwd: '/p' });
const apply = (s: UiState, ...evs: AgentEvent[]) => evs.reduce((acc, ev) => reduceEvent(acc, ev, 1000), s);

test('splitFinished commits whole paragraphs, never half a code block', () => {
  assert.deepEqual(splitFinished('one line'), ['', 'one line']);
  assert.deepEqual(splitFinished('para one\n\npara two'), ['para one', 'para two']);
  assert.deepEqual(splitFinished('intro\n\n```ts\nconst a = 1;\n\nconst b = 2;'), ['intro', '```ts\nconst a = 1;\n\nconst b = 2;']);
  assert.deepEqual(splitFinished('```ts\nx\n```\nafter'), ['```ts\nx\n```', 'after']);
});

test('streamed text moves to history paragraph by paragraph; the rest when the message ends', () => {
  let s = apply(
    start(),
    { type: 'request', turn: 1 },
    { type: 'text-delta', text: 'Hello ' },
    { type: 'text-delta', text: 'world.\n\nSecond' },
  );
  assert.deepEqual(
    s.history.map((h) => h.kind === 'assistant' && [h.text, !!h.cont]),
    [['Hello world.', false]],
  );
  assert.equal(s.live.streaming, 'Second');
  assert.ok(s.live.busy);
  s = apply(
    s,
    { type: 'text-delta', text: ' part.' },
    {
      type: 'message',
      message: { role: 'assistant', content: [] },
      usage: { inputTokens: 300, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
    },
  );
  assert.deepEqual(
    s.history.map((h) => h.kind === 'assistant' && [h.text, !!h.cont]),
    [
      ['Hello world.', false],
      ['Second part.', true],
    ],
  );
  assert.equal(s.live.streaming, '');
  assert.equal(s.context.used, 320);
});

test('a tool call is live while it runs and history once it ends; refusals and retries are shown', () => {
  let s = apply(start(), { type: 'tool-start', id: 't1', name: 'Bash', input: { command: 'ls' } });
  assert.equal(s.live.tools.length, 1);
  s = apply(s, {
    type: 'tool-end',
    id: 't1',
    name: 'Bash',
    input: { command: 'ls' },
    result: { output: 'a\nb', isError: false },
    durationMs: 12,
  });
  assert.equal(s.live.tools.length, 0);
  const item = s.history.at(-1)!;
  assert.equal(item.kind === 'tool' && item.status, 'ok');
  s = apply(s, { type: 'tool-denied', id: 't2', name: 'Edit', input: {}, reason: 'Plan Mode: no' });
  assert.equal(s.history.at(-1)!.kind === 'tool' && (s.history.at(-1) as { status: string }).status, 'denied');
  s = apply(s, { type: 'text-delta', text: 'partial' }, { type: 'retry', attempt: 1, maxRetries: 5, delayMs: 2000, message: 'overloaded' });
  assert.equal(s.live.streaming, '', 'a retry discards what was streamed');
  assert.equal(s.live.retry?.until, 3000);
});

test('hooks running for over a second and verification runs are visible; endRun clears the live region', () => {
  let s = apply(start(), { type: 'hook-running', event: 'PreToolUse', command: './slow.sh' });
  assert.deepEqual(s.live.hooks, ['PreToolUse: ./slow.sh']);
  s = apply(s, { type: 'hook', event: 'PreToolUse', command: './slow.sh', source: 'f', exitCode: 0, durationMs: 1500, outcome: 'ok' });
  assert.deepEqual(s.live.hooks, []);
  s = apply(s, { type: 'verify-start', command: 'npm test', attempt: 0 });
  assert.equal(s.live.verifying, 'npm test');
  s = apply(s, { type: 'verify-end', command: 'npm test', attempt: 0, passed: false, exitCode: 1, output: 'FAIL x', durationMs: 900 });
  const last = s.history.at(-1)!;
  assert.ok(last.kind === 'notice' && last.tone === 'error' && /Verification failed: npm test \(exit 1, 0\.9s\)\nFAIL x/.test(last.text));
  s = apply(s, { type: 'request', turn: 1 }, { type: 'text-delta', text: 'left over' });
  s = endRun(s);
  assert.equal(s.live.busy, undefined);
  assert.equal(s.history.at(-1)!.kind === 'assistant' && (s.history.at(-1) as { text: string }).text, 'left over');
});

test('replaying a compacted session shows "conversation compacted", not the summary as a prompt', () => {
  const items = replayItems([
    summaryMessage('We fixed the parser.'),
    { role: 'user', content: [{ type: 'text', text: 'next question' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Answer.' }] },
  ]);
  assert.equal(items[0].kind, 'notice');
  assert.match((items[0] as { text: string }).text, /Conversation compacted/);
  assert.ok(!items.some((i) => i.kind === 'user' && /We fixed the parser|continues an earlier conversation/.test(i.text)));
  assert.deepEqual(
    items.slice(1).map((i) => i.kind),
    ['user', 'assistant'],
  );
});

test('a run of reads and searches becomes one group once something else follows; a run of one stays a plain call', () => {
  const end = (id: string, name: string, input: unknown, isError = false): AgentEvent => ({
    type: 'tool-end',
    id,
    name,
    input,
    result: { output: isError ? 'no such file' : 'x', isError },
    durationMs: 1,
  });
  const startEv = (id: string, name: string, input: unknown): AgentEvent => ({ type: 'tool-start', id, name, input });
  let s = apply(
    start(),
    { type: 'text-delta', text: 'Looking.' },
    startEv('1', 'Grep', { pattern: 'a' }),
    end('1', 'Grep', { pattern: 'a' }),
    startEv('2', 'Read', { file_path: 'a.ts' }),
    end('2', 'Read', { file_path: 'a.ts' }),
    startEv('3', 'Glob', { pattern: '*.md' }),
  );
  assert.deepEqual(
    s.history.map((i) => i.kind),
    ['assistant'],
    'the group is live while it grows',
  );
  assert.equal(s.live.group?.length, 2);
  s = apply(
    s,
    end('3', 'Glob', { pattern: '*.md' }),
    { type: 'message', message: { role: 'assistant', content: [] } },
    { type: 'request', turn: 2 },
    startEv('4', 'Read', { file_path: 'b.ts' }),
    end('4', 'Read', { file_path: 'b.ts' }),
    { type: 'text-delta', text: 'Found it.' },
  );
  const group = s.history.at(-1)!;
  assert.ok(group.kind === 'group', 'text ends the run');
  assert.deepEqual(
    group.tools.map((t) => t.name),
    ['Grep', 'Read', 'Glob', 'Read'],
    'across model requests',
  );
  assert.equal(groupSummary(group.tools), 'Searched for 2 patterns, read 2 files');
  assert.equal(groupSummary([{ name: 'Read' }, { name: 'LS' }], true), 'Reading 1 file, listing 1 directory…');
  s = apply(
    s,
    startEv('5', 'Read', { file_path: 'c.ts' }),
    end('5', 'Read', { file_path: 'c.ts' }),
    startEv('6', 'Bash', { command: 'ls' }),
  );
  const one = s.history.at(-1)!;
  assert.ok(one.kind === 'tool' && one.name === 'Read', 'a group of one is the call itself, before the Bash that ends it');
  s = apply(
    s,
    end('6', 'Bash', { command: 'ls' }),
    startEv('7', 'Read', {}),
    end('7', 'Read', {}),
    startEv('8', 'Read', {}),
    end('8', 'Read', {}, true),
  );
  assert.deepEqual(
    s.history.slice(-2).map((i) => i.kind === 'tool' && i.status),
    ['ok', 'error'],
    'a failed read is shown on its own',
  );
  s = apply(s, startEv('9', 'Read', {}), end('9', 'Read', {}), startEv('10', 'Grep', {}), end('10', 'Grep', {}));
  s = endRun(s);
  assert.equal(s.history.at(-1)!.kind, 'group', 'the end of the prompt ends the run');
  assert.deepEqual(
    groupTools([
      { kind: 'tool', name: 'Read', input: {}, status: 'ok' },
      { kind: 'tool', name: 'Grep', input: {}, status: 'ok' },
      { kind: 'assistant', text: 'x' },
    ]).map((i) => i.kind),
    ['group', 'assistant'],
    'replayed sessions are grouped the same way',
  );
});

test('Ctrl-O toggles the detail view: the history printed anew, unfolded', () => {
  const s = toggleDetail(start());
  assert.equal(s.detail, true);
  assert.equal(s.epoch, 1);
  assert.equal(toggleDetail(s).detail, false);
});

test('thinking streams as one live line, then goes to history folded (the Ctrl-O detail view shows it whole)', () => {
  let s = apply(
    start(),
    { type: 'request', turn: 1 },
    { type: 'thinking-delta', text: 'Step one.\n' },
    { type: 'thinking-delta', text: 'Step two.' },
  );
  assert.equal(s.live.thinking, 'Step one.\nStep two.');
  assert.equal(s.history.length, 0);
  s = apply(s, { type: 'text-delta', text: 'Answer.' });
  assert.equal(s.live.thinking, undefined);
  assert.deepEqual(
    s.history.map((h) => h.kind === 'thinking' && h.text),
    ['Step one.\nStep two.'],
  );
  const retried = apply(
    start(),
    { type: 'thinking-delta', text: 'x' },
    { type: 'retry', attempt: 1, maxRetries: 2, delayMs: 1, message: 'm' },
  );
  assert.equal(retried.live.thinking, undefined, 'a retry drops it');
});
