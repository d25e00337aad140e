import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksForVerification, namedVerifyCommand } from '../../src/recipes/verification.ts';

// [prompt, asks for verification, the command it names]
const CASES: Array<[string, boolean, string | undefined]> = [
  ['Fix the parser and run the tests with `npx ava`', true, 'npx ava'],
  ['Fix the parser, then run npx ava', true, 'npx ava'],
  ['fix it, then run jest', true, 'jest'],
  ['Fix it and make sure the suite still passes', true, undefined],
  ['Fix it, then run `npm run test:unit` and fix failures', true, 'npm run test:unit'],
  ['fix the parser and run pytest afterwards', true, 'pytest'],
  ['fix it and run pytest -x tests/unit and report', true, 'pytest -x tests/unit'],
  ['fix it and run cargo test', true, 'cargo test'],
  ['refactor it, then run go test ./... once', true, 'go test ./...'],
  ['Update the handler; then run npm test.', true, 'npm test'],
  ['Add the flag and verify with `./scripts/check.sh`', true, './scripts/check.sh'],
  ['rename `foo` to `bar`, then run the tests', true, undefined],
  ['Fix the bug, then run the tests', true, undefined],
  ['rename it and rerun the test suite', true, undefined],
  ['make sure all tests pass', true, undefined],
  ['Refactor parse(); verify that nothing broke', true, undefined],
  ['execute the unit tests after the change', true, undefined],
  ['Change the config and keep the build green', true, undefined],
  ['Run `pnpm exec vitest run` after each batch', true, 'pnpm exec vitest run'],
  ['Explain this function', false, undefined],
  ['write tests for parse()', false, undefined],
  ['what does the test helper do?', false, undefined],
  ['Rename the variable', false, undefined],
  ['Fix the typo; do not run the tests, they take an hour', false, undefined],
  ['Add a Run button to @src/Toolbar.tsx', false, undefined],
  ['Update the docs without running `npm test`', false, undefined],
  ['Why does `jestConfig` have two roots?', false, undefined],
];

test('one detector: whether a prompt asks for verification, and the command it names', () => {
  for (const [prompt, asks, command] of CASES) {
    assert.equal(asksForVerification(prompt), asks, `asks: ${prompt}`);
    assert.equal(namedVerifyCommand(prompt), command, `command: ${prompt}`);
  }
});
