import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ed from '../../src/ui/editor.ts';
import { foldLines, nextMode, toolTitle } from '../../src/ui/format.ts';

test('the editor inserts, deletes and moves across lines', () => {
  let b = ed.insert(ed.emptyBuffer(), 'first');
  b = ed.insert(b, '\nsecond');
  assert.deepEqual(ed.position(b), { line: 1, col: 6, lines: ['first', 'second'] });
  b = ed.up(b)!;
  assert.equal(b.cursor, 5, 'up keeps the column where it can');
  assert.equal(ed.up(b), undefined, 'up on the first line is for the history');
  b = ed.lineStart(b);
  b = ed.insert(b, '> ');
  assert.equal(b.text, '> first\nsecond');
  b = ed.lineEnd(ed.down(b)!);
  b = ed.deleteWord(b);
  assert.equal(b.text, '> first\n');
  b = ed.backspace(b);
  assert.equal(b.text, '> first');
  assert.equal(ed.killToStart(b).text, '');
  assert.deepEqual(ed.currentToken(ed.bufferOf('look at @src/ma')), { token: '@src/ma', start: 8 });
  assert.equal(ed.replaceToken(ed.bufferOf('look at @src/ma'), 8, '@src/main.ts ').text, 'look at @src/main.ts ');
  assert.equal(ed.insert(ed.emptyBuffer(), 'a\r\nb\tc').text, 'a\nb  c');
});

test('Shift+Tab cycles Normal → Auto-Accept → Plan → Normal; Bypass joins only when started in it', () => {
  assert.equal(nextMode('normal', false), 'auto-accept');
  assert.equal(nextMode('auto-accept', false), 'plan');
  assert.equal(nextMode('plan', false), 'normal');
  assert.equal(nextMode('plan', true), 'bypass');
  assert.equal(nextMode('bypass', true), 'normal');
});

test('tool titles show the arguments the way Claude Code does', () => {
  assert.equal(toolTitle('Edit', { file_path: '/p/src/a.ts' }, '/p'), 'Update(src/a.ts)');
  assert.equal(toolTitle('Bash', { command: 'npm test\n&& echo ok' }, '/p'), 'Bash(npm test ↵ && echo ok)');
  assert.equal(toolTitle('Grep', { pattern: 'foo', path: '/p/src' }, '/p'), 'Grep("foo" in src)');
  assert.equal(toolTitle('Read', { file_path: '/etc/hosts', offset: 10, limit: 5 }, '/p'), 'Read(/etc/hosts:10+5)');
  assert.equal(toolTitle('Bash', { command: 'x'.repeat(300) }, '/p', 40).length, 40);
  assert.deepEqual(foldLines('1\n2\n3\n4\n', 2), { lines: ['1', '2'], hidden: 2 });
});
