import { test } from 'node:test';
import assert from 'node:assert/strict';
import { advise } from '../../src/recipes/advise.ts';

// task, options → shape, mode, then-mode, first recipe that should be among the matches
const TABLE: Array<[string, { minutes?: number; risk?: 'low' | 'medium' | 'high' }, string, string, string | undefined, number | undefined]> = [
  ['fix a typo in the README', {}, 'template', 'auto-accept', undefined, undefined],
  ['explain what the parser does', {}, 'template', 'auto-accept', undefined, 21],
  ['the checkout page crashes with a TypeError', {}, 'recipe', 'normal', undefined, 4],
  ['the login page crashes in production', {}, 'recipe', 'plan', 'normal', 4],
  ['upgrade react from 17 to 18', {}, 'plan-then-steps', 'plan', 'normal', 10],
  ['write a commit message for my staged changes', { minutes: 2, risk: 'low' }, 'template', 'auto-accept', undefined, 22],
  ['review my branch before I merge the pull request', { minutes: 20 }, 'recipe', 'normal', undefined, 12],
  ['add missing unit tests for the date utils', { minutes: 20, risk: 'low' }, 'recipe', 'auto-accept', undefined, 17],
  ['refactor the payment module into smaller services', { minutes: 240, risk: 'high' }, 'plan-then-steps', 'plan', 'normal', 8],
  ['our API is slow, p95 latency is 2 s', { minutes: 20 }, 'recipe', 'normal', undefined, 24],
  ['set up a GitHub Actions CI pipeline', { minutes: 15, risk: 'low' }, 'recipe', 'auto-accept', undefined, 34],
  ['write a Dockerfile for the service', { minutes: 15 }, 'recipe', 'normal', undefined, 33],
  ['audit our npm dependencies for vulnerabilities', { minutes: 10 }, 'recipe', 'normal', undefined, 37],
  ['prototype a new CLI flag in my side project', { minutes: 60 }, 'plan-then-steps', 'plan', 'auto-accept', undefined],
];

test('advise follows the two tables and finds the recipes that fit', () => {
  for (const [task, o, shape, mode, thenMode, recipe] of TABLE) {
    const a = advise(task, o);
    assert.equal(a.shape, shape, `${task}: shape`);
    assert.equal(a.mode, mode, `${task}: mode`);
    assert.equal(a.thenMode, thenMode, `${task}: then`);
    if (recipe !== undefined) assert.ok(a.recipes.some((r) => r.number === recipe), `${task}: expected recipe ${recipe}, got ${a.recipes.map((r) => r.number).join(', ')}`);
    assert.equal(a.humanReview, a.risk.value === 'high');
  }
});

test('band edges: 5 minutes is a recipe, 30 is a recipe, 31 is Plan Mode first', () => {
  assert.equal(advise('x', { minutes: 4.9 }).shape, 'template');
  assert.equal(advise('x', { minutes: 5 }).shape, 'recipe');
  assert.equal(advise('x', { minutes: 30 }).shape, 'recipe');
  assert.equal(advise('x', { minutes: 31 }).shape, 'plan-then-steps');
  assert.equal(advise('x', { minutes: 10, risk: 'high' }).mode, 'plan');
  assert.equal(advise('x', { minutes: 10, risk: 'low' }).mode, 'auto-accept');
  assert.equal(advise('x', { minutes: 10 }).risk.estimated, true);
  assert.equal(advise('x', { minutes: 10, risk: 'medium' }).risk.estimated, false);
});
