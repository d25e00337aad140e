import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../src/ui/markdown.ts';

test('Markdown answers render without their markers, within the width, inline code in lists included', () => {
  const out = renderMarkdown('# Title\n\nSome **bold** words and `code` in a paragraph that is long enough to wrap at forty columns.\n\n- run `npm test` and **check**\n- done\n\n```ts\nconst x = 1;\n```', 40);
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  assert.doesNotMatch(plain, /\*\*|`|^#/m);
  assert.match(plain, /run npm test and check/);
  assert.match(plain, /const x = 1;/);
  assert.ok(plain.split('\n').every((l) => l.length <= 40), plain);
});

test('list items are marked • (nested and under numbers too); a code block keeps its * lines', () => {
  const out = renderMarkdown('- first\n- second\n  - nested\n\n1. one\n   - sub\n\n```js\n/**\n * doc\n */\n```', 60).replace(/\x1b\[[0-9;]*m/g, '');
  assert.match(out, /^ *• first$/m);
  assert.match(out, /^ *• nested$/m);
  assert.match(out, /^ *1\. one$/m);
  assert.match(out, /^ *• sub$/m);
  assert.match(out, /^ +\* doc$/m, 'code is code');
  assert.doesNotMatch(out, /^ *\* (first|second|nested|sub)/m);
});

test('the model\'s single line breaks stay line breaks (paragraphs, list items, emphasis); long lines still wrap at the width', () => {
  const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
  assert.equal(plain(renderMarkdown('Summary of the run:\nTests: 12 passed\nLint: clean\nBuild: ok', 60)), 'Summary of the run:\nTests: 12 passed\nLint: clean\nBuild: ok');
  const out = plain(renderMarkdown('First para line one\nline two *em\nphasis* end\n\n- item one\n  continued\n- item two\n\n1. one\n   two\n\n```\na\nb\n```\n\nA line long enough to need wrapping at thirty columns for sure.', 30));
  assert.match(out, /^First para line one\nline two em\nphasis end$/m);
  assert.doesNotMatch(out, /\/\\n\/g|\r/, 'no marked-terminal break garbage');
  assert.match(out, /^ *• item one\n {4}continued\n *• item two$/m, 'a break inside an item is indented under its text');
  assert.match(out, /^ *1\. one\n {5}two$/m);
  assert.match(out, /^ *a\n *b$/m, 'code blocks keep their lines');
  assert.match(out, /\n\nA line long enough/, 'paragraphs stay apart');
  assert.ok(out.split('\n').every((l) => l.length <= 30), out);
});
