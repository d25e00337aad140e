import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintPrompt } from '../../src/recipes/lint.ts';
import { library } from '../../src/recipes/load.ts';
import { fillSlots } from '../../src/recipes/slots.ts';

const GOOD = [
  'Fix the TypeError "cannot read properties of undefined (reading \'id\')" thrown at @src/cart.ts line 42 when the cart is empty. Then run npm test; if it fails, fix and re-run, at most 2 fix attempts.',
  'Explain what @src/parser.ts does, step by step.',
  'Act as a senior security engineer. Review @src/auth/ for injection and token handling; report a Markdown table of file, line, severity and fix. Do not change any code.',
  'Refactor @src/report.ts to split buildReport into three functions; keep the public signatures unchanged and add no dependencies. Run npm test afterwards.',
  'Add a --json flag to @src/cli.ts that prints the result as JSON, then run the tests.',
  'Rename getUser to fetchUser in @src/api.ts and its callers; run npm test and the type check after.',
  'Write plan.md first: the steps to migrate @src/db.ts from callbacks to promises, one batch at a time, keeping every exported function unchanged. Wait for my confirmation.',
  'The total in @src/invoice.ts:88 is wrong: expected 10.50 but got 10.5000001 for two items. It should round to cents; fix it and run the invoice tests.',
  'List the TODO comments in @src/ as a Markdown table with file, line and text.',
  'Review @src/auth.ts for SQL injection; do not change code; list each issue with its line and a fix.',
  'Add an installation section to README.md.',
  'Fix the typo in the error message of @src/cli.ts.',
  'In @src/cart.ts line 42, total() returns NaN when the cart is empty. Fix it so it returns 0, then run npm test.',
  "Fix the off-by-one bug in @src/pager.ts line 30: page 2 shows the last item of page 1. Run the tests after the change. Don't touch other files.",
  'Fix the bug where users get logged out after 5 minutes in @src/session.ts; the token should last 1 hour. Do not change the cookie format. Run npm test.',
  'Add JSDoc comments to @src/api.ts describing the parameters, return value and the errors each function throws. Do not change any code.',
  'Write tests for @src/parser.ts that cover the cases where parse() throws. Run npm test. Do not change the parser.',
  // Verification in the words of the user (the detector agent/verify.ts uses too).
  'In @src/invoice.ts:88 total() returns 10.5000001 instead of 10.50; round it to cents, then run jest.',
  'In @src/invoice.ts:88 total() returns 10.5000001 instead of 10.50; round it to cents and make sure the suite still passes.',
  'In @src/invoice.ts:88 total() returns 10.5000001 instead of 10.50; round it to cents and run the tests with `npx ava`.',
  'Act as a QA engineer. Review @src/checkout.ts and report a checklist:\n- inputs validated;\n- errors handled;\n- totals rounded;\n- no secrets logged;\nDo not change code.',
];

const BAD: Array<[string, string[]]> = [
  ['Fix the login bug.', ['vague-debugging', 'no-verification']],
  [
    'Why does this crash?\n```js\nfunction total(items) {\n  return items.reduce((a, b) => a + b.price, 0);\n}\n```',
    ['pasted-code', 'vague-debugging'],
  ],
  ["It's bad, try again.", ['vague-feedback']],
  ['Refactor the payment module and run the tests.', ['no-negative-constraint']],
  ['Summarize the architecture of this project.', ['no-output-format']],
  ['The app crashes, fix it', ['vague-debugging', 'no-verification']],
  ['Do everything: add auth, add tests, refactor db, update docs and deploy', ['too-many-tasks', 'no-negative-constraint']],
  [
    'Add a cache to @src/a.ts, rename the config keys, remove the old logger, update the docs and fix the flaky test, then run npm test.',
    ['too-many-tasks'],
  ],
  ['Update @src/a.ts, @src/b.ts, @src/c.ts and @src/d.ts to the new logger; run the tests.', ['too-many-tasks']],
  ['Add input validation to the signup endpoint in @src/routes/signup.ts.', ['no-verification']],
  ['const a = 1;\nlet b = a + 2;\nif (b > 2) {\n  console.log(b);\n}\nwhat is wrong here', ['pasted-code']],
  ['Fix this:\ndef add(a, b):\n    return a - b\n\nprint(add(1, 2))\nit prints -1 instead of 3; run pytest after.', ['pasted-code']],
  ['Add a logout button to @src/Header.tsx following the conventions in ASSISTANT.md.', ['no-verification']],
  ['Add a Run button to @src/Toolbar.tsx.', ['no-verification']],
  ['Review the PR diff for bugs.', ['no-output-format']],
  ['Round the total in @src/invoice.ts:88 to cents, run npm test and commit.', ['commit-format']],
  ['Which is better for our sessions, Redis or Memcached?', ['comparison']],
];

test('good prompts have no findings', () => {
  for (const p of GOOD)
    assert.deepEqual(
      lintPrompt(p)
        .filter((f) => f.level === 'finding')
        .map((f) => `${f.id}: ${f.detail}`),
      [],
      p,
    );
});

test('a review without a role or tools named gets hints, which do not fail the check', () => {
  const f = lintPrompt('Review @src/auth.ts for SQL injection; do not change code; list each issue with its line and a fix.');
  assert.deepEqual(
    f.map((x) => [x.id, x.level]),
    [
      ['no-tools-named', 'hint'],
      ['no-role', 'hint'],
    ],
  );
});

test('bad prompts get exactly the expected findings, each naming rule and remedy', () => {
  for (const [p, ids] of BAD) {
    const findings = lintPrompt(p).filter((f) => f.level === 'finding');
    assert.deepEqual(findings.map((f) => f.id).sort(), [...ids].sort(), p);
    for (const f of findings) {
      assert.match(f.rule, /^(Rule \d+|Say what)/);
      assert.ok(f.remedy.length > 10);
    }
  }
});

test("the library's own recipes pass the lint once filled", () => {
  const all: string[] = [];
  for (const r of library().recipes) {
    const filled = fillSlots(
      r.body,
      { set: Object.fromEntries(r.slots.map((s) => [s, `"${s}"`])), files: r.fileSlot ? ['src/a.ts'] : [] },
      'test',
    );
    assert.ok(filled.ok);
    const findings = lintPrompt(filled.text).filter((f) => f.level === 'finding' && f.id !== 'too-many-tasks');
    all.push(...findings.map((f) => `${r.file} ${f.id}: ${f.detail}`));
  }
  assert.deepEqual(all, []);
});
