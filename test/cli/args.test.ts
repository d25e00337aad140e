import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitRules } from '../../src/cli/args.ts';

test('rules split on commas and spaces outside parentheses (SPEC §11.11)', () => {
  assert.deepEqual(splitRules(['Read,Bash(git log:*)', 'Edit']), ['Read', 'Bash(git log:*)', 'Edit']);
  assert.deepEqual(splitRules(['Bash(a,b) Grep']), ['Bash(a,b)', 'Grep']);
});
