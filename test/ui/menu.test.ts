import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { setTimeout as sleep } from 'node:timers/promises';
import { PromptInput } from '../../src/ui/components/prompt-input.tsx';
import type { Controller } from '../../src/ui/controller.ts';
import { fuzzyPaths } from '../../src/ui/file-index.ts';
import { KeySplitter, translateModifiedKeys } from '../../src/ui/stdin-keys.ts';
import { makeProject } from '../fakes/project.ts';

const tick = () => sleep(40);

function input(files: Record<string, string> = {}) {
  const { dir, home } = makeProject(files);
  const calls: string[] = [];
  const ctrl = {
    setup: { cwd: dir, home },
    history: { all: ['an older prompt'] },
    touch() {},
    hint() {},
    submit: async (t: string, shown?: string) => {
      calls.push(t);
      if (shown) calls.push(`shown: ${shown}`);
    },
    interrupt() {},
    exit: async () => {},
    cycleMode() {},
  } as unknown as Controller;
  return { ui: render(h(PromptInput, { ctrl, busy: false, width: 80, active: true })), calls };
}

async function frameMatching(ui: ReturnType<typeof render>, re: RegExp, ms = 3000): Promise<string> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (re.test(ui.lastFrame() ?? '')) return ui.lastFrame()!;
    await sleep(20);
  }
  throw new Error(`no frame matching ${re}:\n${ui.lastFrame()}`);
}

test('typing / shows the matching commands at once; ↑/↓ choose, Tab completes, Enter runs one that takes no arguments', async () => {
  const { ui, calls } = input();
  ui.stdin.write('/re');
  const f = await frameMatching(ui, /❯ \/recipes/);
  assert.match(f, /\/resume\s+Resume an earlier session/);
  assert.match(f, /\/rewind/);
  assert.doesNotMatch(f, /\/help/);
  ui.stdin.write('\x1b[B');
  await frameMatching(ui, /❯ \/recipe\s/);
  ui.stdin.write('\t');
  await frameMatching(ui, /> \/recipe \S/);
  assert.deepEqual(calls, [], 'Tab only completes');
  ui.stdin.write('\x15'); // Ctrl-U
  await tick();
  ui.stdin.write('/cl');
  await frameMatching(ui, /❯ \/clear/);
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(calls, ['/clear'], 'Enter on /clear runs it');
  ui.stdin.write('/comp');
  await frameMatching(ui, /❯ \/compact/);
  ui.stdin.write('\r');
  await frameMatching(ui, /> \/compact \S/);
  assert.deepEqual(calls, ['/clear'], 'a command that takes arguments waits for them');
  ui.unmount();
});

test('typing @name shows project files by fuzzy match on the name, .gitignore respected; Enter inserts the path, Esc hides the menu', async () => {
  const { ui, calls } = input({
    'src/components/Button.tsx': '',
    'src/components/ButtonGroup.tsx': '',
    'src/util.ts': '',
    '.gitignore': 'build/\n',
    'build/Button.js': '',
  });
  ui.stdin.write('look at @Button');
  const f = await frameMatching(ui, /❯ @src\/components\/Button\.tsx/);
  assert.match(f, /@src\/components\/ButtonGroup\.tsx/);
  assert.doesNotMatch(f, /build\/Button/, 'ignored files are not offered');
  ui.stdin.write('\r');
  await frameMatching(ui, /> look at @src\/components\/Button\.tsx \S/);
  assert.deepEqual(calls, [], 'Enter inserted the path, nothing was sent');
  ui.stdin.write('@utl');
  await frameMatching(ui, /❯ @src\/util\.ts/);
  ui.stdin.write('\x1b');
  await sleep(100);
  assert.doesNotMatch(ui.lastFrame()!, /❯ @src\/util/, 'Esc hides it');
  ui.stdin.write('\x1b[A');
  await tick();
  assert.match(ui.lastFrame()!, /an older prompt/, 'with the menu hidden, ↑ is history again');
  ui.unmount();
});

test('fuzzyPaths ranks the name before the path, exact before prefix before substring before scattered letters', () => {
  const paths = [
    'docs/buttons.md',
    'src/components/',
    'src/components/Button.tsx',
    'src/components/ButtonGroup.tsx',
    'src/big-utton.ts',
    'test/button-test.ts',
  ];
  assert.deepEqual(
    fuzzyPaths('button', paths).map((c) => c.value),
    ['@src/components/Button.tsx', '@docs/buttons.md', '@test/button-test.ts', '@src/components/ButtonGroup.tsx', '@src/big-utton.ts'],
  );
  assert.deepEqual(
    fuzzyPaths('comp', paths)
      .map((c) => c.value)
      .slice(0, 1),
    ['@src/components/'],
  );
  assert.equal(fuzzyPaths('comp', paths)[0].partial, true);
  assert.deepEqual(
    fuzzyPaths('bgt', paths).map((c) => c.value),
    ['@src/big-utton.ts', '@src/components/ButtonGroup.tsx'],
  );
});

test('a paste of more than 10 lines shows as [Pasted text #1 +N lines] and is sent whole; a short paste is inserted as is', async () => {
  const { ui, calls } = input();
  const big = Array.from({ length: 40 }, (_, i) => `log line ${i + 1}`).join('\n');
  ui.stdin.write('explain this: ');
  await tick();
  ui.stdin.write(`\x1b[200~${big}\n\x1b[201~`);
  const f = await frameMatching(ui, /\[Pasted text #1 \+40 lines\]/);
  assert.doesNotMatch(f, /log line 2\b/, 'collapsed in the box');
  ui.stdin.write(' and ');
  await tick();
  ui.stdin.write('\x1b[200~two\nlines\x1b[201~');
  await frameMatching(ui, /and two/);
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(
    calls,
    [`explain this: ${big} and two\nlines`, 'shown: explain this: [Pasted text #1 +40 lines] and two\nlines'],
    'sent whole (less its last newline); shown collapsed',
  );
  ui.unmount();
});

test('Ctrl-L asks the controller to redraw the screen', async () => {
  const { ui } = input();
  let redrawn = 0;
  // The fake controller of input() has no redraw; give it one.
  const ctrl = {
    setup: { cwd: '/tmp', home: '/tmp' },
    history: { all: [] },
    touch() {},
    hint() {},
    submit: async () => {},
    redraw() {
      redrawn++;
    },
  } as unknown as Controller;
  ui.rerender(h(PromptInput, { ctrl, busy: false, width: 80, active: true }));
  ui.stdin.write('\x0c');
  await tick();
  assert.equal(redrawn, 1);
  ui.unmount();
});

test('↑/↓ keep browsing history through entries that start with / (no menu for a recalled entry until it is edited)', async () => {
  const { dir, home } = makeProject({});
  const calls: string[] = [];
  const ctrl = {
    setup: { cwd: dir, home },
    history: { all: ['first prompt', '/cost', 'hello', '/help'] },
    touch() {},
    hint() {},
    submit: async (t: string) => {
      calls.push(t);
    },
    interrupt() {},
    exit: async () => {},
    cycleMode() {},
  } as unknown as Controller;
  const ui = render(h(PromptInput, { ctrl, busy: false, width: 80, active: true }));
  const up = async () => {
    ui.stdin.write('\x1b[A');
    await tick();
  };
  const down = async () => {
    ui.stdin.write('\x1b[B');
    await tick();
  };
  await up();
  assert.match(ui.lastFrame()!, /> \/help/);
  assert.doesNotMatch(ui.lastFrame()!, /❯/, 'no menu for a recalled command');
  await up();
  assert.match(ui.lastFrame()!, /> hello/);
  await up();
  assert.match(ui.lastFrame()!, /> \/cost/);
  await up();
  assert.match(ui.lastFrame()!, /> first prompt/, '↑ goes past /cost');
  await down();
  assert.match(ui.lastFrame()!, /> \/cost/);
  await down();
  assert.match(ui.lastFrame()!, /> hello/, '↓ comes back past /cost');
  await down();
  await down();
  assert.match(ui.lastFrame()!, /Try "explain this project"/, 'past the newest entry: the empty draft');
  // Editing a recalled command opens the menu again, and then ↑/↓ choose in it.
  await up();
  ui.stdin.write('\x7f\x7f\x7f'); // "/help" → "/h"
  await frameMatching(ui, /❯ \/help/);
  await up();
  assert.match(ui.lastFrame()!, /> \/h\W/, '↑ moves in the menu of a command being typed, not in history');
  assert.match(ui.lastFrame()!, /❯ \/hooks/);
  await up();
  assert.match(ui.lastFrame()!, /❯ \/help/);
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(calls, ['/help'], 'Enter runs the chosen command');
  ui.unmount();
});

test('Shift+Enter (CSI-u ESC[13;2u, xterm ESC[27;2;13~) inserts a new line instead of sending', async () => {
  const { ui, calls } = input();
  translateModifiedKeys(ui.stdin as never);
  ui.stdin.write('abc');
  await tick();
  ui.stdin.write('\x1b[13;2u');
  await tick();
  ui.stdin.write('def');
  await tick();
  ui.stdin.write('\x1b[27;2;13~');
  await tick();
  ui.stdin.write('ghi');
  await tick();
  assert.deepEqual(calls, [], 'nothing sent');
  assert.match(ui.lastFrame()!, /> abc +│\n│ +def +│\n│ +ghi/);
  assert.doesNotMatch(ui.lastFrame()!, /27;2;13|13;2u/);
  ui.stdin.write('\r');
  await tick();
  assert.deepEqual(calls, ['abc\ndef\nghi']);
  ui.unmount();
});

test('every key of one read applies: C-w C-w deletes two words, C-a C-k clears the line, text around a key stays', async () => {
  const s = new KeySplitter();
  assert.deepEqual(s.split('\x17\x17'), ['\x17', '\x17']);
  assert.deepEqual(s.split('ab\x01cd\x0b'), ['ab', '\x01', 'cd', '\x0b']);
  assert.deepEqual(s.split('fix it\r'), ['fix it\r'], 'Enter stays in typed text');
  assert.deepEqual(s.split('\x1b[A\x1b[B'), ['\x1b[A\x1b[B'], "escape sequences are Ink's to split");
  assert.deepEqual(s.split('\x1b[200~a\x17b'), ['\x1b[200~a\x17b'], 'a paste is left whole…');
  assert.deepEqual(s.split('c\x1b[201~\x17'), ['c\x1b[201~', '\x17'], '…across reads');
  const { ui } = input();
  translateModifiedKeys(ui.stdin as never);
  ui.stdin.write('one two three');
  await tick();
  ui.stdin.write('\x17\x17');
  await tick();
  assert.match(ui.lastFrame()!, /> one \x1b\[7m \x1b\[27m +│/);
  ui.stdin.write('\x01\x0b');
  await tick();
  assert.doesNotMatch(ui.lastFrame()!, /one/);
  ui.unmount();
});
