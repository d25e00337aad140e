import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffFiles, editedText, hunkLines, MORE_DIFF_LINES, previewPatch } from '../../src/fs/diff-text.ts';

const lines = (f: (i: number) => string, n = 40) => Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n';

test("a long diff: the model's text is cut at 80 lines with a marker; counts and hunkLines cover the whole diff", () => {
  const d = diffFiles(
    '/p/f.txt',
    lines((i) => `line ${i}`),
    lines((i) => `LINE ${i}`),
  );
  assert.equal(d.added, 40);
  assert.equal(d.removed, 40);
  const text = d.text.split('\n');
  assert.equal(text.length, 81, '80 diff lines and the marker');
  assert.match(text.at(-1)!, MORE_DIFF_LINES);
  assert.equal(text.at(-1), '… 1 more diff lines');
  assert.doesNotMatch(d.text, /\+LINE 39/);
  const whole = hunkLines(d.hunks);
  assert.equal(whole.length, 81, 'the hunk header and 80 lines');
  assert.equal(whole.at(-1), '+LINE 39');
  assert.equal(whole.filter((l) => l.startsWith('+')).length, 40);
  assert.ok(!whole.some((l) => MORE_DIFF_LINES.test(l)));
});

test('a short diff is not cut', () => {
  const d = diffFiles('/p/f.txt', 'a\nb\n', 'a\nc\n');
  assert.equal(d.text, '@@ -1,2 +1,2 @@\n a\n-b\n+c');
  assert.equal(d.text, hunkLines(d.hunks).join('\n'));
  assert.deepEqual([d.added, d.removed], [1, 1]);
});

test('editedText applies an edit as the Edit tool does, and is undefined where the tool would refuse', () => {
  assert.equal(editedText('a\nb\na\n', 'b', 'B'), 'a\nB\na\n');
  assert.equal(editedText('a\nb\na\n', 'a', 'A'), undefined, 'two occurrences without replace_all');
  assert.equal(editedText('a\nb\na\n', 'a', 'A', true), 'A\nb\nA\n');
  assert.equal(editedText('a\n', 'z', 'Z'), undefined, 'not found');
  assert.equal(editedText('a\n', 'a', 'a'), undefined, 'no change');
  assert.equal(editedText('x\r\ny\r\n', 'x\ny', 'x\nz'), 'x\r\nz\r\n', 'LF strings in a CRLF file');
  assert.equal(editedText(null, '', 'new\n'), 'new\n', 'an empty old_string creates a missing file');
  assert.equal(editedText(null, 'a', 'b'), undefined);
  assert.equal(editedText('', '', 'new\n'), 'new\n');
  assert.equal(editedText('a\n', '', 'new\n'), undefined, 'an empty old_string on a file with content');
});

test("previewPatch: the change with the file's line numbers and 3 lines of context; a new file is all added", () => {
  const file = lines((i) => `line ${i + 1}`, 20);
  const edit = previewPatch('Edit', { file_path: 'f.txt', old_string: 'line 10\n', new_string: 'ten\n' }, file)!;
  assert.deepEqual(edit.split('\n'), [
    '@@ -7,7 +7,7 @@',
    ' line 7',
    ' line 8',
    ' line 9',
    '-line 10',
    '+ten',
    ' line 11',
    ' line 12',
    ' line 13',
  ]);
  const write = previewPatch('Write', { file_path: 'f.txt', content: file.replace('line 20', 'twenty') }, file)!;
  assert.match(write, /^@@ -17,4 \+17,4 @@\n line 17\n line 18\n line 19\n-line 20\n\+twenty$/);
  assert.equal(previewPatch('Write', { file_path: 'n.txt', content: 'a\nb\n' }, null), '@@ -1,0 +1,2 @@\n+a\n+b');
  assert.equal(previewPatch('Edit', { file_path: 'f.txt', old_string: 'nope', new_string: 'x' }, file), undefined);
  assert.equal(previewPatch('Write', { file_path: 'f.txt', content: file }, file), undefined, 'nothing changes');
  assert.equal(previewPatch('Bash', { command: 'ls' }, file), undefined);
});

test('a diff too large to work out line by line in time comes back at once as one hunk (Edit replace_all on a big file never hangs)', () => {
  const n = 300_000;
  const before = lines((i) => `row ${i} padding padding`, n);
  const after = `head\n${lines((i) => `row ${i} pad`, n).replace(/\n$/, '')}`;
  const started = Date.now();
  const d = diffFiles('/p/big.txt', before, after);
  assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  assert.equal(d.removed, n);
  assert.equal(d.added, n + 1);
  const whole = hunkLines(d.hunks);
  assert.equal(whole[0], `@@ -1,${n} +1,${n + 1} @@`);
  assert.equal(whole[1], '-row 0 padding padding');
  assert.equal(whole.at(-2), '+row 299999 pad');
  assert.equal(whole.at(-1), '\\ No newline at end of file');
  assert.match(d.text.split('\n').at(-1)!, MORE_DIFF_LINES);
});

test('the one-hunk fallback is a patch that applies, final newlines included', async () => {
  const { applyPatch } = await import('diff');
  const { oneHunk } = await import('../../src/fs/diff-text.ts');
  const cases = ['', 'a', 'a\n', 'a\nb\nc\n', 'a\nb\nc', 'x\ny\n', 'a\nB\nc\n', 'a\nb\nc\nd\ne\nf\ng\nh\n', 'a\nb\nc\nd\nX\nf\ng\nh'];
  for (const before of cases)
    for (const after of cases) {
      if (before === after) continue;
      const hunks = oneHunk(before, after, 3);
      const applied = applyPatch(before, { oldFileName: 'f', newFileName: 'f', oldHeader: '', newHeader: '', hunks });
      assert.equal(applied, after, `${JSON.stringify(before)} -> ${JSON.stringify(after)}: ${JSON.stringify(hunks)}`);
    }
});
