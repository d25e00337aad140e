import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { setTimeout as sleep } from 'node:timers/promises';
import { HistoryView } from '../../src/ui/components/history-view.tsx';
import { PermissionDialog } from '../../src/ui/components/permission-dialog.tsx';
import { SelectDialog } from '../../src/ui/components/select-dialog.tsx';
import type { PermissionChoice } from '../../src/ui/state.ts';
import { reply, startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, until } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const tick = () => sleep(30);
const OPTIONS = [
  { label: 'one', value: 'a' },
  { label: 'two', value: 'b' },
  { label: 'three', value: 'c' },
];

test('select dialog: a digit moves the ❯ to its option as it answers; `initial` starts the ❯ there', async () => {
  const answers: Array<string | undefined> = [];
  const onAnswer = (v: string | undefined) => {
    answers.push(v);
  };
  const ui = render(h(SelectDialog, { title: 'Pick', options: OPTIONS, onAnswer, width: 60 }));
  assert.match(ui.lastFrame()!, /❯ 1\. one/);
  ui.stdin.write('2');
  await tick();
  assert.deepEqual(answers, ['b']);
  assert.match(ui.lastFrame()!, /❯ 2\. two/, 'the ❯ is on the option chosen');
  ui.unmount();
  const at = render(h(SelectDialog, { title: 'Pick', options: OPTIONS, initial: 2, onAnswer, width: 60 }));
  assert.match(at.lastFrame()!, /❯ 3\. three/);
  at.stdin.write('\r');
  await tick();
  assert.equal(answers.at(-1), 'c');
  at.unmount();
});

test('select dialog: what is typed filters the list, shown in the dialog; Backspace edits it, Esc clears it, then cancels', async () => {
  const answers: Array<string | undefined> = [];
  const ui = render(
    h(SelectDialog, {
      title: 'Resume which session?',
      options: [...OPTIONS, { label: 'fix the parser', value: 'p' }, { label: 'twenty', value: 't' }],
      onAnswer: (v: string | undefined) => {
        answers.push(v);
      },
      width: 60,
    }),
  );
  ui.stdin.write('tw');
  await tick();
  let f = ui.lastFrame()!;
  assert.match(f, /Filter: tw/);
  assert.match(f, /❯ 2\. two/);
  assert.match(f, /5\. twenty/);
  assert.doesNotMatch(f, /one|three|parser/);
  ui.stdin.write('\x1b[B');
  await tick();
  assert.match(ui.lastFrame()!, /❯ 5\. twenty/);
  ui.stdin.write('x');
  await tick();
  assert.match(ui.lastFrame()!, /No option matches/);
  ui.stdin.write('\x7f');
  await tick();
  f = ui.lastFrame()!;
  assert.match(f, /Filter: tw /);
  ui.stdin.write('\x1b');
  await sleep(80);
  f = ui.lastFrame()!;
  assert.doesNotMatch(f, /Filter:/);
  assert.match(f, /1\. one/);
  assert.deepEqual(answers, [], 'Esc cleared the filter, nothing answered');
  ui.stdin.write('par');
  await tick();
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(answers, ['p']);
  ui.unmount();
});

test('permission dialog: "3" moves the ❯ to "No" while the note is typed; a Write preview has no blank line at its end', async () => {
  const answers: PermissionChoice[] = [];
  const req = {
    tool: 'Write',
    input: { file_path: '/p/plum.txt', content: 'plum\nkiwi\n' },
    reason: 'Write needs approval in normal mode',
  };
  const ui = render(
    h(PermissionDialog, { req, always: ['Write(/plum.txt)'], onAnswer: (c: PermissionChoice) => answers.push(c), cwd: '/p', width: 60 }),
  );
  const lines = ui.lastFrame()!.split('\n');
  const k = lines.findIndex((l) => /│\s+\+kiwi\s+│/.test(l));
  assert.match(lines[k + 1], /^│\s+│$/, 'one blank line after the content…');
  assert.match(lines[k + 2], /Write needs approval/, '…not two');
  ui.stdin.write('3');
  await tick();
  assert.match(ui.lastFrame()!, /❯ 3\. No/);
  assert.doesNotMatch(ui.lastFrame()!, /❯ 1\./);
  ui.unmount();
});

test('/mode without a name opens the picker on the current mode', async () => {
  model.reset();
  const { ctrl } = await openCtrl(model, {}, 'auto-accept');
  void ctrl.submit('/mode');
  const q = await until(() => {
    const x = ctrl.store.get().question;
    return x?.kind === 'select' ? x : undefined;
  });
  assert.ok(q.kind === 'select');
  assert.equal(q.options[q.initial ?? 0].value, 'auto-accept');
  q.answer(undefined);
});

test('a command file with bad front matter is reported when the session opens, and in /help', async () => {
  model.reset();
  const { ctrl } = await openCtrl(model, {
    '.assistant/commands/broken.md': '---\ndescription: Broken\nthis is not a key\n---\nDo the thing.\n',
  });
  const notices = ctrl.store
    .get()
    .history.filter((i) => i.kind === 'notice')
    .map((i) => (i as { text: string }).text)
    .join('\n');
  assert.match(notices, /broken\.md:3: "this is not a key" is not "key: value"/);
  assert.match(notices, /\/help/);
  await ctrl.submit('/help');
  const help = ctrl.store
    .get()
    .history.filter((i) => i.kind === 'output')
    .map((i) => (i as { text: string }).text)
    .join('\n');
  assert.match(help, /Problems with command files:[\s\S]*broken\.md:3/);
});

test('/mode bypass is refused unless the session started in bypass, and the picker offers it only then', async () => {
  model.reset();
  const { ctrl } = await openCtrl(model, {});
  await ctrl.submit('/mode bypass');
  assert.equal(ctrl.session.gate.mode, 'normal');
  const last = ctrl.store.get().history.at(-1) as { kind: string; text: string };
  assert.equal(last.kind, 'notice');
  assert.match(last.text, /--permission-mode bypass/);
  void ctrl.submit('/mode');
  const q = await until(() => {
    const x = ctrl.store.get().question;
    return x?.kind === 'select' ? x : undefined;
  });
  assert.ok(q.kind === 'select' && !q.options.some((o) => o.value === 'bypass'));
  q.answer(undefined);
  const started = await openCtrl(model, {}, 'bypass');
  await started.ctrl.submit('/mode normal');
  await started.ctrl.submit('/mode bypass');
  assert.equal(started.ctrl.session.gate.mode, 'bypass', 'back to bypass when the session began in it');
});

test('@file attachments are shown under the prompt: ⎿ attached a.ts (3 lines)', async () => {
  model.reset();
  model.script(reply('Seen.'));
  const { ctrl } = await openCtrl(model, { 'a.ts': 'one\ntwo\nthree\n', 'src/b.ts': 'x\n' });
  await ctrl.submit('look at @a.ts and @src/');
  const items = ctrl.store.get().history;
  const i = items.findIndex((x) => x.kind === 'user');
  const att = items[i + 1];
  assert.equal(att.kind, 'attached');
  assert.deepEqual((att as { lines: string[] }).lines, ['a.ts (3 lines)', 'the listing of src/']);
  const frame = render(h(HistoryView, { item: att, width: 60, cwd: '/p' })).lastFrame()!;
  assert.match(frame, /⎿ {2}attached a\.ts \(3 lines\)/);
  assert.match(frame, /attached the listing of src\//);
});

test('a select dialog with a Markdown body (the plan) renders it: no # or ** markers', () => {
  const ui = render(
    h(SelectDialog, {
      title: 'The plan is in plan.md. Would you like to proceed?',
      body: '# Plan\n\n1. Change **one** to `uno`\n2. Run the tests',
      markdown: true,
      options: OPTIONS,
      onAnswer: () => {},
      width: 60,
    }),
  );
  const f = ui.lastFrame()!;
  assert.match(f, /Plan/);
  assert.match(f, /1\. Change one to uno/);
  assert.doesNotMatch(f, /# Plan|\*\*|`/);
  ui.unmount();
});

test("long options wrap under their own text, not at the box's edge (permission and select dialogs)", () => {
  const always = ['Bash(uniq:*)', 'Bash(sort:*)', 'Bash(head:*)', 'Bash(tail:*)', 'Bash(wc:*)', 'Bash(cut:*)', 'Bash(tr:*)'];
  const req = {
    tool: 'Bash',
    input: { command: 'cat a | sort | uniq | head | tail | wc | cut -c1 | tr a b' },
    reason: 'Bash needs approval in normal mode',
  };
  const perm = render(h(PermissionDialog, { req, always, onAnswer: () => {}, cwd: '/p', width: 60 }))
    .lastFrame()!
    .split('\n');
  const k = perm.findIndex((l) => /2\. Yes, and don't ask again/.test(l));
  assert.ok(k > 0, perm.join('\n'));
  const col = perm[k].indexOf('Yes');
  assert.equal(perm[k + 1].slice(1).search(/\S/) + 1, col, `continues under "Yes":\n${perm.join('\n')}`);
  const sel = render(
    h(SelectDialog, {
      title: 'Pick',
      options: [{ label: 'a very long option label that cannot fit on a single line of this narrow box', value: 'x' }],
      onAnswer: () => {},
      width: 40,
    }),
  )
    .lastFrame()!
    .split('\n');
  const j = sel.findIndex((l) => /1\. a very/.test(l));
  assert.ok(j > 0, sel.join('\n'));
  assert.equal(sel[j + 1].slice(1).search(/\S/) + 1, sel[j].indexOf('a very'), sel.join('\n'));
});

test('"No, keep planning" says so and stays in plan mode', async () => {
  model.reset();
  model.script(reply().tool('Write', { file_path: 'plan.md', content: '# Plan\n\n1. Do it\n' }), reply('The plan is ready.'));
  const { ctrl } = await openCtrl(model, {}, 'plan');
  const run = ctrl.submit('plan it');
  const q = await until(() => {
    const x = ctrl.store.get().question;
    return x?.kind === 'select' ? x : undefined;
  });
  if (q.kind === 'select') q.answer('plan');
  await run;
  assert.equal(ctrl.session.gate.mode, 'plan');
  const notes = ctrl.store
    .get()
    .history.filter((i) => i.kind === 'notice')
    .map((i) => (i as { text: string }).text);
  assert.ok(
    notes.some((t) => /Kept planning/.test(t)),
    notes.join('\n'),
  );
  assert.equal(model.requests.length, 2, 'nothing more sent');
  await ctrl.exit();
});
