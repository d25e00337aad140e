import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, userTexts, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli, startCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

// The check logs each run, then passes only when src/value.js says 3.
const PROJECT = {
  'src/value.js': 'export const value = 1;\n',
  'check.sh':
    'echo run >> runs.log\nif grep -q "value = 3" src/value.js; then echo "ok: value is 3"; else echo "FAIL: expected value 3, got $(cat src/value.js)"; exit 1; fi\n',
};
const ARGS = ['--model', 'anthropic:claude-sonnet-4-5', '--permission-mode', 'bypass', '--verify', 'bash check.sh'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const edit = (from: number, to: number) =>
  reply().tool('Edit', { file_path: 'src/value.js', old_string: `value = ${from}`, new_string: `value = ${to}` });
const read = () => reply().tool('Read', { file_path: 'src/value.js' });
const runs = (dir: string) => readFileSync(join(dir, 'runs.log'), 'utf8').trim().split('\n').length;
const all = (dir: string) => {
  try {
    return runs(dir);
  } catch {
    return 0;
  }
};

test('verification passes the first time: one run, exit 0', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(reply().tool('Read', { file_path: 'src/value.js' }), edit(1, 3), reply('Set the value to 3.'));
  const r = await runCli(['-p', 'set the value to 3', ...ARGS], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Set the value to 3.\n');
  assert.equal(runs(dir), 1);
  assert.match(r.stderr, /verifying: bash check\.sh/);
  assert.match(r.stderr, /verification passed: bash check\.sh/);
  assert.equal(model.requests.length, 3);
});

test('no file changed: nothing to verify', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(reply().tool('Read', { file_path: 'src/value.js' }), reply('The value is 1.'));
  const r = await runCli(['-p', 'what is the value?', ...ARGS], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(all(dir), 0);
});

test('fixed on the second attempt: the failure goes back to the model, verified again', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(read(), edit(1, 2), reply('Done.'), edit(2, 3), reply('Fixed: the value is 3 now.'));
  const r = await runCli(['-p', 'set the value to 3', ...ARGS, '--output-format', 'stream-json', '--verbose'], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(runs(dir), 2);
  const feedback = userTexts(model.requests[3]).join('\n');
  assert.match(feedback, /Verification failed: `bash check\.sh` exited with code 1/);
  assert.match(feedback, /FAIL: expected value 3, got export const value = 2;/);
  assert.match(feedback, /fix attempt 1 of at most 2/);
  const events = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const v = events.filter((e) => e.subtype === 'verification' && e.phase === 'end');
  assert.deepEqual(
    v.map((e) => [e.attempt, e.passed, e.exit_code]),
    [
      [0, false, 1],
      [1, true, 0],
    ],
  );
  const result = events.at(-1);
  assert.equal(result.type, 'result');
  assert.equal(result.is_error, false);
  assert.equal(result.result, 'Fixed: the value is 3 now.');
});

test('still failing after two fix attempts: three runs, exit 1, says what fails', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(read(), edit(1, 2), reply('Done.'), edit(2, 4), reply('Fixed.'), edit(4, 5), reply('Fixed again.'));
  const r = await runCli(['-p', 'set the value to 3', ...ARGS], { cwd: dir, home, env: env() });
  assert.equal(r.code, 1);
  assert.equal(runs(dir), 3);
  assert.equal(model.requests.length, 7, 'no third fix attempt');
  assert.match(userTexts(model.requests[5]).join('\n'), /fix attempt 2 of at most 2/);
  assert.equal(r.stdout, 'Fixed again.\n');
  assert.match(r.stderr, /Verification failed after 2 fix attempts: `bash check\.sh` exited with code 1/);
  assert.match(r.stderr, /FAIL: expected value 3, got export const value = 5;/);
});

test('json result of a failed verification is an error with the reason', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(read(), edit(1, 2), reply('a'), reply('b'), reply('c'));
  const r = await runCli(['-p', 'set the value to 3', ...ARGS, '--output-format', 'json'], { cwd: dir, home, env: env() });
  assert.equal(r.code, 1);
  const result = JSON.parse(r.stdout);
  assert.equal(result.is_error, true);
  assert.equal(result.subtype, 'error_verification');
  assert.match(result.result, /Verification failed after 2 fix attempts/);
  assert.equal(runs(dir), 3, 'each fix attempt is verified again, even when it changed nothing');
});

test('settings "verify" works like --verify; a prompt asking for tests uses npm test, or the command it names', async () => {
  const { dir, home } = makeProject({ ...PROJECT, '.assistant/settings.json': '{"verify": "bash check.sh"}' });
  model.reset();
  model.script(read(), edit(1, 3), reply('ok'));
  const r = await runCli(['-p', 'set the value to 3', '--model', 'anthropic:claude-sonnet-4-5', '--permission-mode', 'bypass'], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(runs(dir), 1);

  const p = makeProject({ ...PROJECT, 'package.json': '{"name":"x","scripts":{"test":"bash check.sh"}}' });
  model.reset();
  model.script(read(), edit(1, 3), reply('ok'));
  const r2 = await runCli(
    ['-p', 'set the value to 3, then run the tests', '--model', 'anthropic:claude-sonnet-4-5', '--permission-mode', 'bypass'],
    { cwd: p.dir, home: p.home, env: env() },
  );
  assert.equal(r2.code, 0, r2.stderr);
  assert.match(r2.stderr, /verifying: npm test/);
  assert.equal(runs(p.dir), 1);

  // The command the prompt names wins over the project's own (whose script would fail here).
  const q = makeProject({ ...PROJECT, 'package.json': '{"name":"x","scripts":{"test":"exit 7"}}' });
  model.reset();
  model.script(read(), edit(1, 3), reply('ok'));
  const r3 = await runCli(
    [
      '-p',
      'set the value to 3, then run the tests with `bash check.sh`',
      '--model',
      'anthropic:claude-sonnet-4-5',
      '--permission-mode',
      'bypass',
    ],
    { cwd: q.dir, home: q.home, env: env() },
  );
  assert.equal(r3.code, 0, r3.stderr);
  assert.match(r3.stderr, /verifying: bash check\.sh/);
  assert.equal(runs(q.dir), 1);
});

test('a change made through Bash is verified; plan.md in Plan Mode is not', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(reply().tool('Bash', { command: "sed -i 's/value = 1/value = 3/' src/value.js" }), reply('Changed with sed.'));
  const r = await runCli(['-p', 'set the value to 3', ...ARGS], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(runs(dir), 1);

  const p = makeProject(PROJECT);
  model.reset();
  model.script(reply().tool('Write', { file_path: 'plan.md', content: '# Plan\n' }), reply('Planned.'));
  const plan = await runCli(
    ['-p', 'plan it', ...ARGS.filter((a) => a !== 'bypass' && a !== '--permission-mode'), '--permission-mode', 'plan'],
    { cwd: p.dir, home: p.home, env: env() },
  );
  assert.equal(plan.code, 0, plan.stderr);
  assert.equal(all(p.dir), 0, 'nothing to verify in Plan Mode');
});

test('Ctrl-C during verification ends the run as interrupted, not as a success', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(read(), edit(1, 3), reply('All done, tests pass.'));
  const child = startCli(
    ['-p', 'set the value to 3', '--model', 'anthropic:claude-sonnet-4-5', '--permission-mode', 'bypass', '--verify', 'sleep 20; exit 1'],
    { cwd: dir, home, env: env() },
  );
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
    if (!sent && /verifying:/.test(stderr)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  assert.equal(code, 130, `code ${code}: ${stderr}`);
  assert.equal(stdout, '');
  assert.match(stderr, /Interrupted/);
});
