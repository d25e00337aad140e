import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksForVerification, detectTestCommand, runVerifyCommand } from '../../src/agent/verify.ts';
import { makeProject } from '../fakes/project.ts';

test('asksForVerification: prompts that ask for tests or verification, and ones that do not', () => {
  for (const p of [
    'Fix the bug, then run the tests',
    'rename it and rerun the test suite',
    'make sure all tests pass',
    'Refactor parse(); verify that nothing broke',
    'execute the unit tests after the change',
  ]) {
    assert.equal(asksForVerification(p), true, p);
  }
  for (const p of ['Explain this function', 'write tests for parse()', 'what does the test helper do?', 'Rename the variable']) {
    assert.equal(asksForVerification(p), false, p);
  }
});

test('detectTestCommand: npm test only when the project has a real test script', () => {
  assert.equal(detectTestCommand(makeProject({ 'package.json': '{"scripts":{"test":"node --test"}}' }).dir), 'npm test');
  assert.equal(
    detectTestCommand(makeProject({ 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' }).dir),
    undefined,
  );
  assert.equal(detectTestCommand(makeProject({ 'package.json': 'not json' }).dir), undefined);
  assert.equal(detectTestCommand(makeProject({}).dir), undefined);
  assert.equal(detectTestCommand(makeProject({ Makefile: 'build:\n\tcc a.c\ntest:\n\t./run\n' }).dir), 'make test');
  assert.equal(detectTestCommand(makeProject({ 'go.mod': 'module x\n' }).dir), 'go test ./...');
  assert.equal(detectTestCommand(makeProject({ 'pyproject.toml': '[tool.pytest.ini_options]\n' }).dir), 'pytest');
});

test('detectTestCommand: a command the prompt names comes first', () => {
  const { dir } = makeProject({ 'package.json': '{"scripts":{"test":"node --test"}}' });
  assert.equal(detectTestCommand(dir, 'Fix it, then run `npm run test:unit` and fix failures'), 'npm run test:unit');
  assert.equal(detectTestCommand(dir, 'fix the parser and run pytest afterwards'), 'pytest');
  assert.equal(detectTestCommand(dir, 'fix it and run cargo test'), 'cargo test');
  assert.equal(
    detectTestCommand(dir, 'rename `foo` to `bar`, then run the tests'),
    'npm test',
    'a backticked name that is not a test command is ignored',
  );
});

test('runVerifyCommand: exit code, output of both streams, and an abort stops it', async () => {
  const { dir } = makeProject({});
  const ok = await runVerifyCommand('echo out; echo err >&2', dir, process.env, new AbortController().signal);
  assert.equal(ok.passed, true);
  assert.match(ok.output, /out/);
  assert.match(ok.output, /err/);
  const bad = await runVerifyCommand('exit 3', dir, process.env, new AbortController().signal);
  assert.deepEqual([bad.passed, bad.exitCode], [false, 3]);
  const c = new AbortController();
  setTimeout(() => c.abort(), 100);
  const stopped = await runVerifyCommand('sleep 30', dir, process.env, c.signal);
  assert.equal(stopped.passed, false);
  assert.ok(stopped.durationMs < 10_000);
});
