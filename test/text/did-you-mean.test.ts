import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closest, editDistance, similarNames, suggestNames } from '../../src/text/did-you-mean.ts';

test('closest: case, typos and transpositions; nothing for unrelated words', () => {
  assert.equal(closest('defaultmode', ['allow', 'defaultMode']), 'defaultMode');
  assert.equal(closest('alow', ['allow', 'deny']), 'allow');
  assert.equal(closest('dney', ['allow', 'deny']), 'deny');
  assert.equal(closest('colour', ['model', 'env', 'hooks']), undefined);
  assert.equal(closest('ab', ['LS']), undefined);
});

test('editDistance: a swap of neighbours is one edit, case counts', () => {
  assert.equal(editDistance('dney', 'deny'), 1);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('A', 'a'), 1);
});

test('suggestNames: prefixes and typos, closest first, then alphabetical, at most 5', () => {
  assert.deepEqual(suggestNames('rewnd', ['rewind', 'review', 'help']), ['rewind']);
  assert.deepEqual(suggestNames('re', ['review', 'rewind', 'help', 'resume']), ['resume', 'review', 'rewind']);
  assert.deepEqual(suggestNames('a', ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b']), ['a1', 'a2', 'a3', 'a4', 'a5']);
  assert.deepEqual(suggestNames('zzz', ['review']), []);
});

test('similarNames: other case, other extension, a typo, containment; unrelated names left out', () => {
  const names = ['app.ts', 'App.tsx', 'apps.md', 'config.json', 'README.md', 'application.ts'];
  assert.deepEqual(similarNames('app.ts', names), ['app.ts', 'App.tsx', 'application.ts', 'apps.md']);
  assert.deepEqual(similarNames('confg.json', names), ['config.json']);
  assert.deepEqual(similarNames('zzz.txt', names), []);
});
