import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayPath, isInside, resolvePath } from '../../src/fs/paths.ts';

test('resolvePath resolves against cwd and expands ~', () => {
  assert.equal(resolvePath('src/a.ts', '/proj'), '/proj/src/a.ts');
  assert.equal(resolvePath('/abs/x', '/proj'), '/abs/x');
  assert.equal(resolvePath('../up', '/proj/sub'), '/proj/up');
  assert.equal(resolvePath('~', '/proj', '/home/me'), '/home/me');
  assert.equal(resolvePath('~/notes.md', '/proj', '/home/me'), '/home/me/notes.md');
  assert.equal(resolvePath('~other', '/proj', '/home/me'), '/proj/~other');
});

test('isInside and displayPath', () => {
  assert.equal(isInside('/proj', '/proj'), true);
  assert.equal(isInside('/proj', '/proj/a/b'), true);
  assert.equal(isInside('/proj', '/project/a'), false);
  assert.equal(isInside('/proj', '/'), false);
  assert.equal(isInside('/proj', '/proj/..secret'), true);
  assert.equal(displayPath('/proj/src/a.ts', '/proj'), 'src/a.ts');
  assert.equal(displayPath('/other/a.ts', '/proj'), '/other/a.ts');
});
