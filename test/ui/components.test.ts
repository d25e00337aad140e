import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { setTimeout as sleep } from 'node:timers/promises';
import { PermissionDialog } from '../../src/ui/components/permission-dialog.tsx';
import { PromptInput } from '../../src/ui/components/prompt-input.tsx';
import { HINT_PAUSE_MS } from '../../src/ui/components/prompt-hints.ts';
import { typingHints } from '../../src/agent/typing-hints.ts';
import { ToolView } from '../../src/ui/components/tool-view.tsx';
import { DiffView } from '../../src/ui/components/diff-view.tsx';
import { Footer } from '../../src/ui/components/footer.tsx';
import type { Controller } from '../../src/ui/controller.ts';
import type { PermissionChoice } from '../../src/ui/state.ts';
import { makeProject } from '../fakes/project.ts';

const tick = () => sleep(30);
const ESC = '\x1b';

test('the permission dialog: the question, "always" with its rules, refusal with a note, Esc', async () => {
  const answers: PermissionChoice[] = [];
  const req = { tool: 'Bash', input: { command: 'npm test', description: 'Run the tests' }, reason: 'Bash needs approval in normal mode' };
  const ui = render(
    h(PermissionDialog, { req, always: ['Bash(npm test:*)'], onAnswer: (c: PermissionChoice) => answers.push(c), cwd: '/p', width: 80 }),
  );
  const frame = ui.lastFrame()!;
  assert.match(frame, /Bash command/);
  assert.match(frame, /npm test/);
  assert.match(frame, /Run the tests/);
  assert.match(frame, /2\. Yes, and don't ask again for Bash\(npm test:\*\) in this project/);
  ui.stdin.write('2');
  await tick();
  assert.deepEqual(answers, [{ kind: 'always' }]);
  ui.stdin.write('3');
  await tick();
  assert.match(ui.lastFrame()!, /What should assistant do instead\?/);
  ui.stdin.write('use yarn');
  await tick();
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(answers[1], { kind: 'deny', feedback: 'use yarn' });
  ui.unmount();
  const ui2 = render(h(PermissionDialog, { req, always: [], onAnswer: (c: PermissionChoice) => answers.push(c), cwd: '/p', width: 80 }));
  assert.doesNotMatch(ui2.lastFrame()!, /don't ask again/, 'no "always" when no rule can be offered');
  ui2.stdin.write(ESC);
  await sleep(80);
  assert.deepEqual(answers[2], { kind: 'interrupt' });
  ui2.unmount();
});

function fakeCtrl(history: string[] = []) {
  const { dir, home } = makeProject({ 'src/main.ts': '', 'src/math.ts': '' });
  const calls: string[] = [];
  const ctrl = {
    setup: { cwd: dir, home },
    history: { all: history },
    touch() {},
    hint(t?: string) {
      calls.push(`hint:${t ?? ''}`);
    },
    submit: async (t: string) => {
      calls.push(`submit:${t}`);
    },
    interrupt() {
      calls.push('interrupt');
    },
    exit: async () => {
      calls.push('exit');
    },
    cycleMode() {
      calls.push('mode');
    },
  };
  return { ctrl: ctrl as unknown as Controller, calls };
}

test('the input: multi-line with \\ Enter, submit, history with ↑, @ completion, Shift+Tab, Ctrl-D', async () => {
  const { ctrl, calls } = fakeCtrl(['older prompt', 'last prompt']);
  const ui = render(h(PromptInput, { ctrl, busy: false, width: 60, active: true }));
  assert.match(ui.lastFrame()!, /Try "explain this project"/);
  ui.stdin.write('line one\\');
  await tick();
  ui.stdin.write('\r');
  await tick();
  ui.stdin.write('line two');
  await tick();
  assert.match(ui.lastFrame()!, /> line one +│\n│ +line two/);
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(calls, ['submit:line one\nline two']);
  ui.stdin.write('\x1b[A');
  await tick();
  assert.match(ui.lastFrame()!, /> last prompt/);
  ui.stdin.write('\x1b[A');
  await tick();
  assert.match(ui.lastFrame()!, /> older prompt/);
  ui.stdin.write('\x1b[B');
  await tick();
  ui.stdin.write('\x1b[B');
  await tick();
  assert.doesNotMatch(ui.lastFrame()!, /prompt/, '↓ past the newest entry gives back the draft');
  ui.stdin.write('look at @src/ma');
  await tick();
  assert.match(ui.lastFrame()!, /❯ @src\/main\.ts/, 'the menu shows as you type');
  assert.match(ui.lastFrame()!, /@src\/math\.ts/);
  ui.stdin.write('\t');
  await tick();
  assert.match(ui.lastFrame()!, /> look at @src\/main\.ts/);
  ui.stdin.write('\x1b[Z');
  await tick();
  assert.equal(calls.at(-1), 'mode');
  ui.stdin.write('\x15');
  await tick();
  ui.stdin.write('\x04');
  await tick();
  assert.equal(calls.at(-1), 'exit', 'Ctrl-D on an empty line quits');
  ui.unmount();
});

test('prompt-lint hints: once typing pauses, only the findings that matter, never blocking; ui.promptHints: false turns them off', async () => {
  const { ctrl, calls } = fakeCtrl([]);
  const ui = render(h(PromptInput, { ctrl, busy: false, width: 100, active: true }));
  ui.stdin.write('Fix the login bug');
  await tick();
  assert.doesNotMatch(ui.lastFrame() ?? '', /hint:/, 'nothing while typing');
  for (let i = 0; i < 100 && !/hint:/.test(ui.lastFrame()!); i++) await sleep(HINT_PAUSE_MS / 10);
  assert.match(ui.lastFrame() ?? '', /hint: a debugging prompt with no file, no line and no symptom/);
  ui.stdin.write(' now');
  await tick();
  assert.match(ui.lastFrame() ?? '', /hint: a debugging prompt/, 'typing on does not make the hint jump away');
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(calls, ['submit:Fix the login bug now']);
  assert.doesNotMatch(ui.lastFrame() ?? '', /hint:/);
  ui.stdin.write('add a logout button to the header');
  await sleep(HINT_PAUSE_MS + 100);
  assert.doesNotMatch(ui.lastFrame() ?? '', /hint:/, 'a finding that fires on most prompts (no verification asked for) is not shown');
  ui.unmount();
  assert.deepEqual(
    typingHints('this is wrong, try again', false).map((f) => f.id),
    ['vague-feedback'],
  );
  assert.deepEqual(typingHints('/review the login bug', false), [], 'not for commands');
  (ctrl.setup as unknown as { settings: unknown }).settings = { merged: { ui: { promptHints: false } } };
  const off = render(h(PromptInput, { ctrl, busy: false, width: 100, active: true }));
  off.stdin.write('Fix the login bug');
  await sleep(HINT_PAUSE_MS + 100);
  assert.doesNotMatch(off.lastFrame() ?? '', /hint:/);
  off.unmount();
});

test('Ctrl-C: interrupts while busy; clears text; twice on an empty line quits', async () => {
  const { ctrl, calls } = fakeCtrl();
  const busy = render(h(PromptInput, { ctrl, busy: true, width: 60, active: true }));
  busy.stdin.write('\x03');
  await tick();
  assert.equal(calls.at(-1), 'interrupt');
  busy.stdin.write(ESC);
  await sleep(80);
  assert.equal(calls.at(-1), 'interrupt', 'Esc interrupts too');
  busy.unmount();
  const idle = render(h(PromptInput, { ctrl, busy: false, width: 60, active: true }));
  idle.stdin.write('draft');
  await tick();
  idle.stdin.write('\x03');
  await tick();
  assert.doesNotMatch(idle.lastFrame()!, /draft/);
  idle.stdin.write('\x03');
  await tick();
  assert.equal(calls.at(-1), 'hint:Press Ctrl-C again to exit');
  idle.stdin.write('\x03');
  await tick();
  assert.equal(calls.at(-1), 'exit');
  idle.unmount();
});

test('tool results: edits as diffs, Bash output folded, refusals and errors', () => {
  const diff = '@@ -1,2 +1,2 @@\n-old line\n+new line\n same';
  const edit = render(
    h(ToolView, {
      name: 'Edit',
      input: { file_path: '/p/a.ts' },
      status: 'ok',
      result: { output: 'ok', display: diff },
      durationMs: 40,
      cwd: '/p',
      width: 80,
    }),
  );
  const f = edit.lastFrame()!;
  assert.match(f, /● Update\(a\.ts\) · 40ms/);
  assert.match(f, /⎿ {2}Updated a\.ts with 1 addition and 1 removal/);
  assert.match(f, /1 - old line\n.*1 \+ new line\n.*2 {3}same/, 'numbered like Claude Code: old number for removals, new for the rest');
  assert.doesNotMatch(f, /@@/);
  const two = render(h(DiffView, { diff: '@@ -9,2 +9,3 @@\n a\n+b\n c\n@@ -120,1 +121,1 @@\n-x\n+y' }));
  assert.match(two.lastFrame()!, / 9 {3}a\n *10 \+ b\n *11 {3}c\n *…\n120 - x\n121 \+ y/);
  const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n');
  const bash = render(
    h(ToolView, {
      name: 'Bash',
      input: { command: 'seq 2000' },
      status: 'ok',
      result: { output: lines },
      durationMs: 1500,
      cwd: '/p',
      width: 80,
    }),
  );
  assert.match(bash.lastFrame()!, /line 5\n.*… \+1995 lines/);
  assert.doesNotMatch(bash.lastFrame()!, /line 6\b/);
  const denied = render(
    h(ToolView, {
      name: 'Write',
      input: { file_path: '/p/x' },
      status: 'denied',
      reason: 'Plan Mode: Write x is refused.',
      cwd: '/p',
      width: 80,
    }),
  );
  assert.match(denied.lastFrame()!, /Plan Mode: Write x is refused\./);
});

test('the footer always shows the mode, and the model, context used and cost', () => {
  const f = render(
    h(Footer, {
      mode: 'plan',
      model: 'anthropic:claude-sonnet-4-5',
      context: { used: 50_000, window: 200_000 },
      costUsd: 0.1234,
      width: 100,
    }),
  ).lastFrame()!;
  assert.match(f, /⏸ plan mode on \(shift\+tab to cycle\)/);
  assert.match(f, /anthropic:claude-sonnet-4-5 · ctx 25% \(50\.0k\) · \$0\.12/);
  const narrow = render(
    h(Footer, { mode: 'auto-accept', model: 'anthropic:claude-sonnet-4-5', context: { used: 0, window: 0 }, costUsd: 0, width: 60 }),
  ).lastFrame()!;
  assert.match(narrow, /accept edits on/);
  assert.match(narrow, /ctx 0% · \$0\.00/, 'narrow terminals keep the essentials');
});

test('a draft from the controller (a rewound prompt) replaces the input text, once per id', async () => {
  const { ctrl, calls } = fakeCtrl();
  const ui = render(h(PromptInput, { ctrl, busy: false, width: 60, active: true }));
  ui.stdin.write('half typed');
  await tick();
  ui.rerender(h(PromptInput, { ctrl, busy: false, width: 60, active: true, draft: { id: 1, text: 'fix the parser' } }));
  await tick();
  assert.match(ui.lastFrame()!, /> fix the parser/);
  assert.doesNotMatch(ui.lastFrame()!, /half typed/);
  ui.stdin.write(' again');
  await tick();
  ui.rerender(h(PromptInput, { ctrl, busy: false, width: 60, active: true, draft: { id: 1, text: 'fix the parser' } }));
  await tick();
  assert.match(ui.lastFrame()!, /> fix the parser again/, 'the same draft is not applied twice');
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(calls, ['submit:fix the parser again']);
  ui.unmount();
});

test("a diff longer than the model's 80 lines: counts of the whole diff, folded to 24 rows, whole when expanded", async () => {
  const { diffFiles } = await import('../../src/fs/diff-text.ts');
  const text = (f: (i: number) => string) => Array.from({ length: 40 }, (_, i) => f(i)).join('\n') + '\n';
  const d = diffFiles(
    '/p/f.txt',
    text((i) => `line ${i}`),
    text((i) => `LINE ${i}`),
  );
  const result = {
    output: `updated:\n${d.text}`,
    display: d.text,
    response: { type: 'update', filePath: '/p/f.txt', structuredPatch: d.hunks },
  };
  const props = { name: 'Edit', input: { file_path: '/p/f.txt' }, status: 'ok' as const, result, durationMs: 34, cwd: '/p', width: 80 };
  const folded = render(h(ToolView, props)).lastFrame()!;
  assert.match(folded, /Updated f\.txt with 40 additions and 40 removals/);
  assert.match(folded, /… \+56 lines/);
  const whole = render(h(ToolView, { ...props, expanded: true })).lastFrame()!;
  assert.match(whole, /40 \+ LINE 39/, 'the last line of the diff');
  assert.doesNotMatch(whole, /more diff lines|… \+\d+ lines/);
  // An older result with only the cut display: the marker is a gap, not a numbered line.
  const old = render(h(DiffView, { diff: d.text, maxLines: Infinity })).lastFrame()!;
  assert.match(old, /39 \+ LINE 38\n\s+… 1 more diff lines/);
  assert.doesNotMatch(old, /\d+ {3}… 1 more/);
});

test('a retry notice that wraps continues under its text, not at column 0', async () => {
  const { LiveView } = await import('../../src/ui/components/live-view.tsx');
  const live = {
    streaming: '',
    tools: [],
    hooks: [],
    retry: {
      until: Date.now() + 3000,
      attempt: 1,
      maxRetries: 5,
      message: 'rate limited (HTTP 429): Rate limit exceeded: too many requests (fake model)',
    },
  };
  const ui = render(h(LiveView, { live, width: 70, height: 30, cwd: '/p' }));
  const lines = ui
    .lastFrame()!
    .split('\n')
    .filter((l) => l.trim());
  const k = lines.findIndex((l) => /⚠ rate limited/.test(l));
  assert.ok(k >= 0 && lines[k + 1], ui.lastFrame()!);
  assert.equal(lines[k + 1].search(/\S/), lines[k].indexOf('rate'), `wrapped under the message:\n${ui.lastFrame()}`);
  assert.match(lines.slice(k).join(' '), /retrying in \ds \(attempt 1\/5\)/);
  ui.unmount();
});

test('after a command with an argument-hint is completed, the hint shows dim after the cursor', async () => {
  const { dir, home } = makeProject({
    '.assistant/commands/review.md': '---\ndescription: Review a file\nargument-hint: "[file]"\n---\nReview $ARGUMENTS\n',
  });
  const calls: string[] = [];
  const ctrl = {
    setup: { cwd: dir, home },
    history: { all: [] },
    touch() {},
    hint() {},
    submit: async (t: string) => {
      calls.push(t);
    },
    interrupt() {},
    exit: async () => {},
    cycleMode() {},
  } as unknown as Controller;
  const ui = render(h(PromptInput, { ctrl, busy: false, width: 60, active: true }));
  ui.stdin.write('/revi');
  await sleep(80);
  assert.match(ui.lastFrame()!, /❯ \/review/);
  assert.doesNotMatch(ui.lastFrame()!, /\[file\]/);
  ui.stdin.write('\t');
  await sleep(80);
  assert.match(ui.lastFrame()!, /> \/review \x1b\[7m \x1b\[27m.*\[file\]/);
  ui.stdin.write('a.ts');
  await sleep(60);
  assert.doesNotMatch(ui.lastFrame()!, /\[file\]/, 'gone once arguments are typed');
  ui.unmount();
});

test('thinking: one folded line in the history; whole in the Ctrl-O detail view', async () => {
  const { HistoryView } = await import('../../src/ui/components/history-view.tsx');
  const folded = render(h(HistoryView, { item: { kind: 'thinking', id: 1, text: 'a\nb\nc' }, width: 80, cwd: '/p' }));
  assert.match(folded.lastFrame() ?? '', /✻ Thought for 3 lines \(ctrl\+o to expand\)/);
  assert.doesNotMatch(folded.lastFrame() ?? '', /\bb\b/);
  const whole = render(
    h(HistoryView, { item: { kind: 'thinking', id: 2, text: 'first idea\nsecond idea' }, width: 80, cwd: '/p', detail: true }),
  );
  assert.match(whole.lastFrame() ?? '', /first idea[\s\S]*second idea/);
});
