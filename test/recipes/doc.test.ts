import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { recipesMarkdown } from '../../src/recipes/doc.ts';

test('docs/recipes.md is generated from the current data (run npm run docs)', () => {
  const doc = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8');
  assert.ok(doc === recipesMarkdown(), 'docs/recipes.md is stale: run "npm run docs"');
  const [library, rules] = doc.split('## The prompt-writing rules');
  assert.equal(library.match(/^\| \d+ \| /gm)?.length, 50, 'a table row for each of the 50');
  assert.equal(rules.match(/^\| \d+ \| /gm)?.length, 18, 'a table row for each of the 18 rules');
});
