import { test } from 'node:test';
import assert from 'node:assert/strict';
import { advise, type Advice } from '../../src/recipes/advise.ts';

/**
 * What a careful engineer would pick, by the source's choosing rules: complexity (under 5 minutes:
 * a one-line template; 5 to 30: a recipe; over 30: Plan Mode first), risk (low: Auto-Accept;
 * medium: Normal; high, production or core code: Plan Mode and human review) and the mode table
 * (analysis without changing code: Plan Mode). Without --minutes and --risk a task's words, and
 * else the recipe that fits it, give the estimates.
 *
 * `recipe`: the first recipe suggested (null: none should be); `template`: the first template
 * (null: none); `then`: the mode for the steps after a plan.
 */
interface Row {
  task: string;
  o?: { minutes?: number; risk?: 'low' | 'medium' | 'high' };
  recipe?: number | null;
  template?: string | null;
  mode: Advice['mode'];
  then?: Advice['thenMode'];
  shape?: Advice['shape'];
}

const TABLE: Row[] = [
  // Under 5 minutes: a one-sentence template or a small recipe, never a plan.
  { task: 'rename a variable', recipe: null, mode: 'normal', shape: 'template' },
  { task: 'rename a variable in my side project', recipe: null, mode: 'auto-accept', shape: 'template' },
  { task: 'fix a typo in the README', recipe: null, mode: 'auto-accept', shape: 'template' },
  { task: 'explain what the parser does', template: 'explain', mode: 'plan', shape: 'template' },
  { task: 'add JSDoc comments to the exported functions of the api client', template: 'docs', mode: 'auto-accept', shape: 'template' },
  { task: 'write a commit message for my staged changes', recipe: 22, mode: 'auto-accept', shape: 'template' },
  { task: 'write a regex that matches ISO 8601 dates', recipe: 29, mode: 'plan', shape: 'template' },
  { task: 'add a regression test for the date parsing bug we just fixed', recipe: 7, mode: 'auto-accept' },
  { task: 'generate the changelog for version 2.3', recipe: 36, mode: 'auto-accept' },
  { task: 'who changed the retry logic last month? look at the git history', recipe: 32, mode: 'plan' },
  { task: 'scaffold unit test stubs for the money module', recipe: 28, mode: 'auto-accept' },
  { task: 'improve my prompt before I send it', recipe: 40, mode: 'plan' },
  // Logging that changes no behaviour is low risk (recipe 6 says so): Auto-Accept.
  { task: 'add debug logging to the CSV export to see where rows go missing', recipe: 6, mode: 'auto-accept' },
  // 5 to 30 minutes: a recipe with constraints and verification, in the mode its risk asks for.
  { task: 'fix the bug where the cart total is wrong for empty carts, then run the tests', recipe: 5, mode: 'normal', shape: 'recipe' },
  { task: 'the export crashes with a TypeError and I do not know why', recipe: 4, mode: 'plan', shape: 'recipe' },
  { task: 'the checkout page crashes with a TypeError', recipe: 4, mode: 'plan', shape: 'recipe' },
  { task: 'add a notifications module that follows our conventions', recipe: 3, mode: 'normal', shape: 'recipe' },
  { task: 'remove the duplicated validation logic in the two signup handlers', recipe: 11, mode: 'normal' },
  { task: 'review my branch before I merge the pull request', o: { minutes: 20 }, recipe: 12, mode: 'normal', shape: 'recipe' },
  { task: 'add missing unit tests for the date utils', o: { minutes: 20, risk: 'low' }, recipe: 17, mode: 'auto-accept', shape: 'recipe' },
  { task: 'write the tests first for a new slugify function, then implement it', recipe: 18, mode: 'normal' },
  { task: 'add input validation with zod to the comments endpoint', recipe: 19, mode: 'normal' },
  { task: 'write API documentation for the REST endpoints', recipe: 15, mode: 'auto-accept' },
  { task: 'add our new error-handling conventions to ASSISTANT.md', recipe: 16, mode: 'normal' },
  { task: 'write a Dockerfile for the service', o: { minutes: 15 }, recipe: 33, mode: 'normal', shape: 'recipe' },
  { task: 'set up a GitHub Actions CI pipeline', o: { minutes: 15, risk: 'low' }, recipe: 34, mode: 'auto-accept', shape: 'recipe' },
  { task: 'audit our npm dependencies for vulnerabilities', o: { minutes: 10 }, recipe: 37, mode: 'normal', shape: 'recipe' },
  { task: 'assess the technical debt in the reporting module', recipe: 35, mode: 'auto-accept' },
  { task: 'find code smells in the orders module', recipe: 39, mode: 'plan' },
  { task: 'our API is slow, p95 latency is 2 s', o: { minutes: 20 }, recipe: 24, mode: 'plan', shape: 'recipe' },
  { task: 'this SQL query on the orders table is slow', recipe: 30, mode: 'plan' },
  { task: 'run the pre-release checks for version 3.0', recipe: 14, mode: 'normal' },
  { task: 'generate a README for this project', recipe: 25, mode: 'auto-accept' },
  // Over 30 minutes, or high risk: Plan Mode first, a recipe, and a human review for high risk.
  {
    task: 'start a new project: a URL shortener in Go with Postgres',
    recipe: 1,
    mode: 'plan',
    then: 'auto-accept',
    shape: 'plan-then-steps',
  },
  { task: 'write a spec, a plan and a task list for the invoicing feature', recipe: 2, mode: 'auto-accept' },
  { task: 'upgrade react from 17 to 18', recipe: 10, mode: 'plan', then: 'normal', shape: 'plan-then-steps' },
  { task: 'migrate our public REST API from v1 to v2', recipe: 31, mode: 'plan', then: 'normal', shape: 'plan-then-steps' },
  {
    task: 'refactor the payment module into smaller services',
    o: { minutes: 240, risk: 'high' },
    recipe: 8,
    mode: 'plan',
    then: 'normal',
    shape: 'plan-then-steps',
  },
  { task: 'rename the User class across the whole codebase', recipe: 8, mode: 'plan', then: 'normal', shape: 'plan-then-steps' },
  { task: 'do a security review of the auth middleware', recipe: 13, mode: 'plan' },
  { task: 'harden the app before launch: secrets, CORS, cookies and HTTPS', recipe: 20, mode: 'plan' },
  { task: 'write database migration scripts that add a status column to orders', recipe: 38, mode: 'plan' },
  { task: 'port the CLI helper scripts from Python to Go', recipe: 26, mode: 'plan', shape: 'plan-then-steps' },
  { task: 'review the architecture of the backend', recipe: 23, mode: 'plan', shape: 'plan-then-steps' },
  { task: 'the login page crashes in production', recipe: 4, mode: 'plan' },
  { task: "analyse the production logs of last night's outage", recipe: 27, mode: 'plan' },
  // The flags win over the words.
  { task: 'rename a variable', o: { risk: 'high' }, recipe: null, mode: 'plan', shape: 'recipe' },
  { task: 'prototype a new CLI flag in my side project', o: { minutes: 60 }, mode: 'plan', then: 'auto-accept', shape: 'plan-then-steps' },
];

test("advise picks the recipe and mode a careful engineer would (the source's choosing rules)", () => {
  assert.ok(TABLE.length >= 30);
  const wrong: string[] = [];
  for (const row of TABLE) {
    const a = advise(row.task, row.o);
    const got = {
      recipe: a.recipes[0]?.number ?? null,
      template: a.templates[0]?.name ?? null,
      mode: a.mode,
      then: a.thenMode,
      shape: a.shape,
    };
    const want = {
      recipe: row.recipe === undefined ? got.recipe : row.recipe,
      template: row.template === undefined ? got.template : row.template,
      mode: row.mode,
      then: row.then ?? got.then,
      shape: row.shape ?? got.shape,
    };
    if (JSON.stringify(got) !== JSON.stringify(want))
      wrong.push(
        `${row.task}\n    want ${JSON.stringify(want)}\n    got  ${JSON.stringify(got)} (recipes ${a.recipes.map((r) => r.number).join(', ')})`,
      );
    assert.equal(a.humanReview, a.risk.value === 'high', row.task);
  }
  assert.deepEqual(wrong, []);
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
