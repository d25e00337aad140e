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
