import { setTimeout as sleep } from 'node:timers/promises';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { PermissionDialog } from '../../src/ui/components/permission-dialog.tsx';
import { permissionPreview } from '../../src/ui/permission-preview.ts';
import { askPermission, Questions } from '../../src/ui/questions.ts';
import type { AskDeps } from '../../src/ui/questions.ts';
import type { PermissionRequest } from '../../src/agent/events.ts';
import type { Question } from '../../src/ui/state.ts';

const dir = mkdtempSync(join(tmpdir(), 'perm-preview-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const numbered = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

/** The question as drawn for `req`, with the preview read from `dir` as askPermission does. */
async function question(req: Omit<PermissionRequest, 'reason'>): Promise<string> {
  const full = { ...req, reason: 'needs approval' };
  const preview = await permissionPreview(full, dir);
  const ui = render(h(PermissionDialog, { req: full, always: [], preview, onAnswer: () => {}, cwd: dir, width: 80 }));
  const frame = ui.lastFrame()!;
  ui.unmount();
  return frame;
}

test("an Edit's question shows the change in the file: its line numbers, 3 lines of context each side", async () => {
  writeFileSync(join(dir, 'e.txt'), numbered(20));
  const q = await question({ tool: 'Edit', input: { file_path: 'e.txt', old_string: 'line 10\n', new_string: 'ten\n' } });
  assert.match(q, /e\.txt/);
  assert.match(q, /│\s+ 7   line 7\s+│/, 'context before, numbered');
  assert.match(q, /│\s+10 - line 10\s+│/);
  assert.match(q, /│\s+10 \+ ten\s+│/);
  assert.match(q, /│\s+13   line 13\s+│/, 'context after');
  assert.doesNotMatch(q, /line 6\b|line 14\b/, 'no more than 3 lines of context');
  // replace_all: every occurrence, each with its own line number.
  writeFileSync(
    join(dir, 'r.txt'),
    numbered(12, (i) => (i % 5 === 0 ? 'x' : `l${i}`)),
  );
  const all = await question({ tool: 'Edit', input: { file_path: 'r.txt', old_string: 'x', new_string: 'y', replace_all: true } });
  assert.match(all, /│\s+ 5 \+ y/);
  assert.match(all, /│\s+10 \+ y/);
});

test("a Write's question: replacing a file shows the numbered change; a new file shows every line added", async () => {
  writeFileSync(join(dir, 'w.txt'), numbered(9));
  const q = await question({ tool: 'Write', input: { file_path: join(dir, 'w.txt'), content: numbered(9).replace('line 8', 'eight') } });
  assert.match(q, /│\s+5   line 5\s+│/);
  assert.match(q, /│\s+8 - line 8\s+│/);
  assert.match(q, /│\s+8 \+ eight\s+│/);
  assert.match(q, /│\s+9   line 9\s+│/);
  assert.doesNotMatch(q, /line 4\b/);
  const created = await question({ tool: 'Write', input: { file_path: 'new.txt', content: 'alpha\nbeta\n' } });
  assert.match(created, /│\s+1 \+ alpha\s+│/);
  assert.match(created, /│\s+2 \+ beta\s+│/);
});

test('the preview falls back to old_string/new_string when old_string is not in the file or the file cannot be read', async () => {
  writeFileSync(join(dir, 'f.txt'), 'one\ntwo\n');
  const missing = { tool: 'Edit', input: { file_path: 'f.txt', old_string: 'three', new_string: 'drei' } };
  assert.equal(await permissionPreview(missing, dir), undefined);
  const q = await question(missing);
  assert.match(q, /│\s+-three\s+│/, 'the old/new preview, unnumbered');
  assert.match(q, /│\s+\+drei\s+│/);
  const unreadable = { tool: 'Edit', input: { file_path: '.', old_string: 'a', new_string: 'b' } };
  assert.equal(await permissionPreview(unreadable, dir), undefined, 'a directory is not read');
  assert.match(await question(unreadable), /│\s+-a\s+│/);
  assert.equal(
    await permissionPreview({ tool: 'Edit', input: { file_path: 'gone.txt', old_string: 'a', new_string: 'b' } }, dir),
    undefined,
  );
});

test('a long change fits the screen folded ("… +N lines (ctrl+o to expand)"); Ctrl-O shows it whole, scrolled in the question', async () => {
  writeFileSync(join(dir, 'long.txt'), numbered(60));
  const req = { tool: 'Write', input: { file_path: 'long.txt', content: numbered(60, (i) => `LINE ${i}`) }, reason: 'needs approval' };
  const preview = await permissionPreview(req, dir);
  const answers: unknown[] = [];
  const ui = render(
    h(PermissionDialog, { req, always: [], preview, onAnswer: (a: unknown) => answers.push(a), cwd: dir, width: 80, height: 30 }),
  );
  const q = ui.lastFrame()!;
  assert.match(q, /│\s+1 - line 1\s+│/);
  assert.doesNotMatch(q, /LINE 60/);
  const m = /… \+(\d+) lines \(ctrl\+o to expand\)/.exec(q);
  assert.ok(m, `the fold marker:\n${q}`);
  const shown = 120 - Number(m[1]);
  assert.ok(q.split('\n').length <= 30 - 2, `the question fits the screen with the footer:\n${q}`);
  ui.stdin.write('\x0f');
  await sleep(30);
  assert.match(ui.lastFrame()!, new RegExp(`lines 1–${shown} of 120 · ↑/↓ PgUp/PgDn to scroll`));
  for (let i = 0; i < 200; i++) ui.stdin.write('\x1b[B');
  await sleep(50);
  const end = ui.lastFrame()!;
  assert.match(end, /60 \+ LINE 60/, 'scrolled to the end of the change');
  assert.match(end, new RegExp(`lines ${120 - shown + 1}–120 of 120`));
  assert.equal(end.split('\n').length, q.split('\n').length, 'the question keeps its height');
  ui.stdin.write('1');
  await sleep(30);
  assert.deepEqual(answers, [{ kind: 'once' }], 'the options still answer');
  ui.unmount();
});

test('askPermission reads the file and puts the preview on the question', async () => {
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  let shown: Question | undefined;
  const questions = new Questions(
    (q) => {
      shown = q;
    },
    () => {},
  );
  const d = {
    session: { gate: { suggest: async () => ['Edit(/a.txt)'] } },
    cwd: dir,
    questions,
    notice() {},
    interrupt() {},
  } as unknown as AskDeps;
  const ac = new AbortController();
  const answer = askPermission(
    d,
    { tool: 'Edit', input: { file_path: 'a.txt', old_string: 'two', new_string: 'dos' }, reason: 'r' },
    ac.signal,
  );
  for (let i = 0; i < 50 && !shown; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(shown?.kind === 'permission');
  assert.equal(shown.preview, '@@ -1,3 +1,3 @@\n one\n-two\n+dos\n three');
  shown.answer({ kind: 'once' });
  assert.deepEqual(await answer, { allow: true });
});
