import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LINT_RULES, lintPrompt } from '../../src/recipes/lint.ts';
import { library } from '../../src/recipes/load.ts';
import { PITFALLS, rulesText, WRITING_RULES } from '../../src/recipes/rules.ts';

test('the 18 rules are published, each checked by lint or saying why it needs judgement', () => {
  assert.deepEqual(
    WRITING_RULES.map((r) => r.number),
    Array.from({ length: 18 }, (_, i) => i + 1),
  );
  const ids = new Set(LINT_RULES.map((c) => c.id));
  for (const r of WRITING_RULES) {
    for (const c of r.checks) assert.ok(ids.has(c), `rule ${r.number}: no check ${c}`);
    if (r.checks.length === 0) assert.ok(r.judgement, `rule ${r.number} has no check and no judgement note`);
  }
  // Every check serves the rules that name it, and only those.
  for (const c of LINT_RULES) {
    assert.deepEqual(
      c.rules,
      WRITING_RULES.filter((r) => r.checks.includes(c.id)).map((r) => r.number),
      c.id,
    );
  }
  assert.equal(WRITING_RULES.filter((r) => r.checks.length).length, 17);
  assert.match(rulesText(), /^ 1\. State the concrete problem[\s\S]*^18\. Self-check[\s\S]*needs judgement: a catalogue/m);
});

test("every pitfall of the source's table has the check that finds it", () => {
  assert.deepEqual(
    PITFALLS.map((p) => p.pitfall),
    [
      'Too much asked at once',
      'No constraints',
      'Only saying the result is bad',
      'Large pasted code',
      'Tests ignored',
      'No role',
      'Format unclear',
      'No negative constraints',
    ],
  );
  for (const p of PITFALLS) assert.equal(LINT_RULES.find((c) => c.id === p.check)?.pitfall, p.pitfall, p.check);
});

test('the rules recipe notes cite exist', () => {
  for (const r of library().recipes) {
    for (const m of `${r.why ?? ''} ${r.note}`.matchAll(/\brules? (\d+)(?: and (\d+))?/g)) {
      for (const n of [m[1], m[2]].filter(Boolean).map(Number)) assert.ok(n >= 1 && n <= 18, `${r.file} cites rule ${n}`);
    }
  }
});

// [prompt, the check that must fire]: one example for each check added with the remaining rules.
const FIRES: Array<[string, string]> = [
  ['Migrate the whole app from Express to Fastify; keep the routes unchanged and run npm test.', 'no-plan-first'],
  ['Add a retry to @src/http.ts and run npm test.', 'no-constraints'],
  ['Fix the null check in src/auth.ts line 40 (it throws TypeError) and run npm test.', 'bare-path'],
  ['Review @src/auth.ts for injection; do not change any code; report a Markdown table.', 'no-tools-named'],
  ['1. Add the model in @src/m.ts\n2. Add the route in @src/r.ts\n3. Add its tests and run npm test', 'no-confirmation'],
  ['Fix the rounding in @src/a.ts:10 (expected 10.50) and run npm test, then commit it.', 'commit-format'],
  ['Write the changelog entry for 2.1 in our format.', 'format-without-example'],
  ['Add a logout button to the header and run the tests.', 'no-anchor'],
  ['The checkout sometimes fails with a 500 in @src/pay.ts; find out why.', 'no-step-by-step'],
  ['Should I use Redis or Memcached for sessions?', 'comparison'],
];

test('each new check fires on its example, and is quiet once the rule is kept', () => {
  for (const [prompt, id] of FIRES)
    assert.ok(
      lintPrompt(prompt).some((f) => f.id === id),
      `${id}: ${prompt}\n${JSON.stringify(lintPrompt(prompt))}`,
    );
  const kept: Array<[string, string]> = [
    [
      'Write plan.md first for migrating the whole app from Express to Fastify; keep the routes unchanged. Wait for my confirmation.',
      'no-plan-first',
    ],
    ['Add a retry to @src/http.ts following the conventions of @src/db.ts, and run npm test.', 'no-constraints'],
    ['Fix the null check in @src/auth.ts line 40 (it throws TypeError) and run npm test.', 'bare-path'],
    ['Review @src/auth.ts for injection using only Read and Grep; do not change any code; report a Markdown table.', 'no-tools-named'],
    [
      '1. Add the model in @src/m.ts\n2. Add the route in @src/r.ts\n3. Add its tests and run npm test\nStop after step 1 for my confirmation.',
      'no-confirmation',
    ],
    ['Fix the rounding in @src/a.ts:10 (expected 10.50), run npm test, then commit it as "fix(invoice): round to cents".', 'commit-format'],
    ['Write the changelog entry for 2.1 in our format, for example:\n## 2.1 (2026-01-02)\n- fix: …', 'format-without-example'],
    ['Add a logout button to @src/Header.tsx and run the tests.', 'no-anchor'],
    ['The checkout sometimes fails with a 500 in @src/pay.ts; reason step by step to find out why.', 'no-step-by-step'],
    [
      'Should I use Redis or Memcached for sessions? Compare latency, memory and ops cost, and recommend one in a Markdown table.',
      'comparison',
    ],
  ];
  for (const [prompt, id] of kept) assert.ok(!lintPrompt(prompt).some((f) => f.id === id), `${id} still fires: ${prompt}`);
  // ASSISTANT.md states the conventions: no "no constraints" hint.
  assert.ok(!lintPrompt('Add a retry to @src/http.ts and run npm test.', { conventionFile: true }).some((f) => f.id === 'no-constraints'));
});
