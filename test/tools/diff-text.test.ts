import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffFiles, hunkLines, MORE_DIFF_LINES } from '../../src/tools/diff-text.ts';

const lines = (f: (i: number) => string, n = 40) => Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n';

test('a long diff: the model\'s text is cut at 80 lines with a marker; counts and hunkLines cover the whole diff', () => {
  const d = diffFiles('/p/f.txt', lines((i) => `line ${i}`), lines((i) => `LINE ${i}`));
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
