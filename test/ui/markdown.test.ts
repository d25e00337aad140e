import { test } from 'node:test';
import assert from 'node:assert/strict';
import './force-color.ts';
import { fenceClosed, renderMarkdown } from '../../src/ui/markdown.ts';

test('Markdown answers render without their markers, within the width, inline code in lists included', () => {
  const out = renderMarkdown(
    '# Title\n\nSome **bold** words and `code` in a paragraph that is long enough to wrap at forty columns.\n\n- run `npm test` and **check**\n- done\n\n```ts\nconst x = 1;\n```',
    40,
  );
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  assert.doesNotMatch(plain, /\*\*|`|^#/m);
  assert.match(plain, /run npm test and check/);
  assert.match(plain, /const x = 1;/);
  assert.ok(
    plain.split('\n').every((l) => l.length <= 40),
    plain,
  );
});

test('list items are marked • (nested and under numbers too); a code block keeps its * lines', () => {
  const out = renderMarkdown('- first\n- second\n  - nested\n\n1. one\n   - sub\n\n```js\n/**\n * doc\n */\n```', 60).replace(
    /\x1b\[[0-9;]*m/g,
    '',
  );
  assert.match(out, /^ *• first$/m);
  assert.match(out, /^ *• nested$/m);
  assert.match(out, /^ *1\. one$/m);
  assert.match(out, /^ *• sub$/m);
  assert.match(out, /^ +\* doc$/m, 'code is code');
  assert.doesNotMatch(out, /^ *\* (first|second|nested|sub)/m);
});

test("the model's single line breaks stay line breaks (paragraphs, list items, emphasis); long lines still wrap at the width", () => {
  const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
  assert.equal(
    plain(renderMarkdown('Summary of the run:\nTests: 12 passed\nLint: clean\nBuild: ok', 60)),
    'Summary of the run:\nTests: 12 passed\nLint: clean\nBuild: ok',
  );
  const out = plain(
    renderMarkdown(
      'First para line one\nline two *em\nphasis* end\n\n- item one\n  continued\n- item two\n\n1. one\n   two\n\n```\na\nb\n```\n\nA line long enough to need wrapping at thirty columns for sure.',
      30,
    ),
  );
  assert.match(out, /^First para line one\nline two em\nphasis end$/m);
  assert.doesNotMatch(out, /\/\\n\/g|\r/, 'no marked-terminal break garbage');
  assert.match(out, /^• item one\n {2}continued\n• item two$/m, 'a break inside an item is indented under its text');
  assert.match(out, /^1\. one\n {3}two$/m);
  assert.match(out, /^ *a\n *b$/m, 'code blocks keep their lines');
  assert.match(out, /\n\nA line long enough/, 'paragraphs stay apart');
  assert.ok(
    out.split('\n').every((l) => l.length <= 30),
    out,
  );
});

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

test('code in a language the highlighter lacks, or a fence still streaming, is plain code; nothing is written to the console', () => {
  const written: unknown[] = [];
  const saved = { error: console.error, warn: console.warn, log: console.log };
  console.error =
    console.warn =
    console.log =
      (...a: unknown[]) => {
        written.push(a);
      };
  try {
    for (const lang of ['mermaid', 'vue', 'svelte', 'graphql', 'hcl', 'env', 'jsonc', 'csv', 'log', 'ts', 'no-such-language']) {
      const out = renderMarkdown(`Before.\n\n\`\`\`${lang}\ngraph TD; A-->B\nconst x = 1;\n\`\`\`\n\nAfter.`, 60);
      assert.match(plain(out), /^ {2}graph TD; A-->B\n {2}const x = 1;$/m, lang);
      assert.doesNotMatch(out, /Could not find the language/);
    }
    assert.match(plain(renderMarkdown('Here:\n\n```j', 60)), /^Here:/, 'a fence cut after its language');
    assert.match(plain(renderMarkdown('```ts\nconst a = 1;\nconst b', 60)), /const a = 1;\n {2}const b$/);
  } finally {
    Object.assign(console, saved);
  }
  assert.deepEqual(written, []);
  assert.equal(fenceClosed('```ts\nx\n```\n'), true);
  assert.equal(fenceClosed('```ts\nx\n'), false);
  assert.equal(fenceClosed('````md\n```\nx'), false, 'a shorter fence does not close it');
  assert.equal(fenceClosed('    indented code'), true);
});

test('a blockquote has ▎ on each of its lines, wrapped within the width; an answer starting with a list starts at the text column', () => {
  const q = plain(renderMarkdown('> A quoted sentence long enough to wrap at thirty columns, twice over.\n> Second line.\n\nAfter.', 30));
  const lines = q.split('\n');
  const quoted = lines.filter((l) => l.startsWith('▎'));
  assert.ok(quoted.length >= 3, q);
  assert.ok(
    lines.slice(0, quoted.length).every((l) => l.startsWith('▎ ') || l === '▎'),
    q,
  );
  assert.ok(
    lines.every((l) => l.length <= 30),
    q,
  );
  assert.match(q, /Second line\./);
  assert.match(q, /\n\nAfter\.$/);
  assert.match(plain(renderMarkdown('1. one\n2. two', 40)), /^1\. one\n2\. two$/);
  assert.match(plain(renderMarkdown('- a\n  - b', 40)), /^• a\n {2}• b$/);
});
