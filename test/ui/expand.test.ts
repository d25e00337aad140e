import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { setTimeout as sleep } from 'node:timers/promises';
import { App } from '../../src/ui/app.tsx';
import { ToolView } from '../../src/ui/components/tool-view.tsx';
import { foldedText } from '../../src/ui/fold.ts';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, until } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

test('foldedText: what the history folds or summarises, by the limits ToolView uses', () => {
  const bash = (output: string) => ({ name: 'Bash', status: 'ok' as const, result: { output } });
  assert.equal(foldedText(bash(lines(5))), undefined, 'five lines are shown whole');
  assert.equal(foldedText(bash(lines(6))), lines(6));
  assert.equal(
    foldedText({ name: 'Read', status: 'ok', result: { output: '1\tx\n2\ty', display: 'Read 2 lines' } }),
    '1\tx\n2\ty',
    'a summary hides the output',
  );
  assert.equal(
    foldedText({ name: 'Glob', status: 'ok', result: { output: 'No files found', display: 'No files' } }),
    undefined,
    'one line: nothing hidden',
  );
  const diff = `@@ -1,30 +1,30 @@\n${Array.from({ length: 30 }, (_, i) => `-old ${i}\n+new ${i}`).join('\n')}`;
  assert.equal(foldedText({ name: 'Edit', status: 'ok', result: { output: 'ok', display: diff } }), diff);
  assert.equal(
    foldedText({ name: 'Bash', status: 'error', result: { output: lines(6), isError: true } }),
    undefined,
    'five lines and how it ended',
  );
  assert.equal(foldedText({ name: 'Bash', status: 'error', result: { output: lines(7), isError: true } }), lines(7));
  assert.equal(foldedText({ name: 'Bash', status: 'denied', reason: 'no' }), undefined);
});

test('ToolView: folded output says how to see it; an interrupted command folds at 5 lines and keeps its last; expanded shows it all', () => {
  const props = {
    name: 'Bash',
    input: { command: 'seq 40' },
    status: 'ok' as const,
    result: { output: lines(40) },
    durationMs: 5,
    cwd: '/p',
    width: 80,
  };
  const folded = render(h(ToolView, props)).lastFrame()!;
  assert.match(folded, /line 5\n.*… \+35 lines \(ctrl\+o to expand\)/);
  const whole = render(h(ToolView, { ...props, expanded: true })).lastFrame()!;
  assert.match(whole, /line 40/);
  assert.doesNotMatch(whole, /\+35 lines/);
  const stopped = render(
    h(ToolView, {
      ...props,
      status: 'error' as const,
      result: { output: `${lines(30)}\nCommand was interrupted by the user and killed.`, isError: true },
    }),
  ).lastFrame()!;
  assert.match(stopped, /line 5\n.*… \+25 lines \(ctrl\+o to expand\)\n.*Command was interrupted by the user and killed\./);
  assert.doesNotMatch(stopped, /line 6/);
  const read = render(
    h(ToolView, {
      name: 'Read',
      input: { file_path: '/p/a.ts' },
      status: 'ok' as const,
      result: { output: lines(3), display: 'Read 3 lines' },
      cwd: '/p',
      width: 80,
    }),
  ).lastFrame()!;
  assert.match(read, /Read 3 lines \(ctrl\+o to expand\)/);
});

test('Ctrl-O shows the whole history unfolded (earlier prompts too), printed anew, not appended; again folds it', async () => {
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'seq 1 30' }),
    reply('Printed.'),
    reply().tool('Bash', { command: 'seq 100 140' }),
    reply('Again.'),
  );
  const { ctrl } = await openCtrl(model, {}, 'bypass');
  const ui = render(h(App, { ctrl }));
  ctrl.onExit = () => {};
  let wipes = 0;
  ctrl.onClearScreen = () => {
    wipes++;
  };
  await sleep(50);
  for (const p of ['print', 'more']) {
    ui.stdin.write(p);
    await sleep(30);
    ui.stdin.write('\r');
    await until(() => ctrl.store.get().history.filter((i) => i.kind === 'assistant').length === (p === 'print' ? 1 : 2) || undefined);
    await until(() => !ctrl.store.get().live.busy || undefined);
  }
  await sleep(50);
  assert.match(ui.frames.join('\n'), /… \+25 lines \(ctrl\+o to expand\)/);
  const items = ctrl.store.get().history.length;
  ui.stdin.write('\x0f');
  await until(() => ctrl.store.get().detail || undefined);
  await sleep(80);
  const frames = ui.frames.join('\n');
  assert.match(frames, /^.*\b29\n.*\b30$/m, "the first prompt's output, whole");
  assert.match(frames, /^.*\b139\n.*\b140$/m, "the last prompt's too");
  assert.match(ui.lastFrame()!, /ctrl\+o to fold/);
  assert.equal(ctrl.store.get().history.length, items, 'nothing appended to the history');
  assert.equal(wipes, 1, 'the screen is printed anew');
  ui.stdin.write('\x0f');
  await sleep(50);
  assert.equal(ctrl.store.get().detail, false);
  assert.doesNotMatch(ui.lastFrame()!, /ctrl\+o to fold/);
  ui.unmount();
  await ctrl.exit();
});
