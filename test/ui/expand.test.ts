import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { setTimeout as sleep } from 'node:timers/promises';
import { App } from '../../src/ui/app.tsx';
import { ToolView } from '../../src/ui/components/tool-view.tsx';
import { foldedText, toExpand } from '../../src/ui/fold.ts';
import { addItems, initialState, type HistoryItem } from '../../src/ui/state.ts';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, until } from './helpers.ts';

let model: FakeModel;
before(async () => { model = await startFakeModel(); });
after(async () => { await model.close(); });

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

test('foldedText: what the history folds or summarises, by the limits ToolView uses', () => {
  const bash = (output: string) => ({ name: 'Bash', status: 'ok' as const, result: { output } });
  assert.equal(foldedText(bash(lines(5))), undefined, 'five lines are shown whole');
  assert.equal(foldedText(bash(lines(6))), lines(6));
  assert.equal(foldedText({ name: 'Read', status: 'ok', result: { output: '1\tx\n2\ty', display: 'Read 2 lines' } }), '1\tx\n2\ty', 'a summary hides the output');
  assert.equal(foldedText({ name: 'Glob', status: 'ok', result: { output: 'No files found', display: 'No files' } }), undefined, 'one line: nothing hidden');
  const diff = `@@ -1,30 +1,30 @@\n${Array.from({ length: 30 }, (_, i) => `-old ${i}\n+new ${i}`).join('\n')}`;
  assert.equal(foldedText({ name: 'Edit', status: 'ok', result: { output: 'ok', display: diff } }), diff);
  assert.equal(foldedText({ name: 'Bash', status: 'error', result: { output: lines(8), isError: true } }), undefined);
  assert.equal(foldedText({ name: 'Bash', status: 'denied', reason: 'no' }), undefined);
});

test('toExpand: the last prompt\'s folded calls, each once', () => {
  const tool = (output: string): Omit<Extract<HistoryItem, { kind: 'tool' }>, 'id'> => ({ kind: 'tool', name: 'Bash', input: { command: 'x' }, status: 'ok', result: { output } });
  let s = addItems(initialState({ mode: 'normal', model: 'm', window: 1, cwd: '/p' }), { kind: 'user', text: 'one' }, tool(lines(9)), { kind: 'user', text: 'two' }, tool(lines(2)), tool(lines(7)));
  const first = toExpand(s.history);
  assert.equal(first.length, 1, 'only the folded call of the last prompt');
  assert.equal(first[0].kind === 'tool' && first[0].expandedFrom, 5);
  s = addItems(s, ...first);
  assert.deepEqual(toExpand(s.history), [], 'already expanded');
});

test('ToolView expanded: the whole output, marked', () => {
  const props = { name: 'Bash', input: { command: 'seq 40' }, status: 'ok' as const, result: { output: lines(40) }, durationMs: 5, cwd: '/p', width: 80 };
  const folded = render(h(ToolView, props)).lastFrame()!;
  assert.match(folded, /… \+35 lines/);
  const whole = render(h(ToolView, { ...props, expanded: true })).lastFrame()!;
  assert.match(whole, /Bash\(seq 40\) · 5ms · expanded \(ctrl\+o\)/);
  assert.match(whole, /line 40/);
  assert.doesNotMatch(whole, /\+35 lines/);
});

test('Ctrl-O in the session prints the folded Bash output of the last prompt whole; again: nothing more', async () => {
  model.reset();
  model.script(reply().tool('Bash', { command: 'seq 1 30' }), reply('Printed.'));
  const { ctrl } = await openCtrl(model, {}, 'bypass');
  const ui = render(h(App, { ctrl }));
  ctrl.onExit = () => {};
  await sleep(50);
  ui.stdin.write('print');
  await sleep(30);
  ui.stdin.write('\r');
  await until(() => ctrl.store.get().history.some((i) => i.kind === 'assistant'));
  await until(() => !ctrl.store.get().live.busy || undefined);
  await sleep(50);
  assert.match(ui.frames.join('\n'), /… \+25 lines/);
  assert.doesNotMatch(ui.frames.join('\n'), /^\s*30$/m);
  ui.stdin.write('\x0f');
  await until(() => ctrl.store.get().history.some((i) => i.kind === 'tool' && i.expandedFrom !== undefined));
  await sleep(50);
  const frames = ui.frames.join('\n');
  assert.match(frames, /Bash\(seq 1 30\).*expanded \(ctrl\+o\)/);
  assert.match(frames, /^.*\b29\n.*\b30$/m, 'the last lines are there');
  ui.stdin.write('\x0f');
  await sleep(50);
  assert.match(ui.lastFrame()!, /Nothing folded to expand in the last prompt\./);
  assert.equal(ctrl.store.get().history.filter((i) => i.kind === 'tool').length, 2);
  ui.unmount();
  await ctrl.exit();
});
