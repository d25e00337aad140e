import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];

test('Bash(git:*) from the command line does not cover a compound command; each refusal is listed', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'x\n' });
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'git status && touch pwned' }).tool('Bash', { command: 'git --version' }),
    reply().text('done'),
  );
  const r = await runCli(['-p', 'go', '--output-format', 'json', '--allowed-tools', 'Bash(git:*),Read', ...MODEL], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  const res = JSON.parse(r.stdout);
  assert.equal(res.permission_denials.length, 1);
  assert.equal(res.permission_denials[0].tool_input.command, 'git status && touch pwned');
  assert.ok(!existsSync(join(dir, 'pwned')));
  const results = lastToolResults(model.requests[1]);
  assert.match(results[0].content, /touch pwned.*not allowed by any rule/);
  assert.match(results[0].content, /--allowed-tools "Bash\(touch:\*\)/);
  assert.match(results[1].content, /git version/);
});

test('deny rules in settings beat allow rules and bypass mode, whatever the disguise', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm:*)', 'Read(.env)'], allow: ['Bash(*)'] } }),
    '.env': 'SECRET=1\n',
    'keep.txt': 'keep\n',
  });
  model.reset();
  model.script(
    reply()
      .tool('Bash', { command: 'timeout 5 /bin/rm keep.txt' })
      .tool('Bash', { command: 'cat .env' })
      .tool('Read', { file_path: '.env' }),
    reply().text('refused'),
  );
  const r = await runCli(['-p', 'go', '--output-format', 'json', '--permission-mode', 'bypass', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(dir, 'keep.txt')));
  const results = lastToolResults(model.requests[1]);
  assert.equal(results.length, 3);
  assert.match(results[0].content, /denied by the rule "Bash\(rm:\*\)"/);
  assert.match(results[1].content, /\.env.*"Read\(\.env\)"/);
  assert.match(results[2].content, /denied by the rule "Read\(\.env\)"/);
  assert.ok(!results.some((x) => x.content.includes('SECRET=1')));
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 3);
});

test('a malformed rule is bad configuration: exit 2 naming it', async () => {
  const { dir, home } = makeProject();
  const r = await runCli(['-p', 'go', '--allowed-tools', 'Bash(git:*', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Bash\(git:\*.*is not a rule/);
});

test('every kind of bypass under --allowed-tools "Bash(git:*)" changes nothing on disk', async () => {
  const { dir, home } = makeProject({ 'keep.txt': 'keep\n' });
  const bypasses = [
    'git status && touch m1',
    'git status || touch m2',
    'git status; touch m3',
    'git status | tee m4',
    'git status & touch m5',
    'git status\ntouch m6',
    'git log $(touch m7)',
    'git log `touch m8`',
    'git diff <(touch m9)',
    'bash -c "git status; touch m10"',
    'eval "git status; touch m11"',
    'timeout 5 touch m12',
    'FOO=1 touch m13',
    '{ git status; touch m14; }',
    '(git status; touch m15)',
    'sh <<EOF\ntouch m16\nEOF',
    'git status > m17',
    'env touch m18',
    'nohup touch m19',
    'git log --output=m20',
    'git -c core.pager="touch m21" log',
    'xargs touch <<< m22',
    'git status && rm -fr keep.txt',
  ];
  model.reset();
  let r1 = reply();
  for (const command of bypasses) r1 = r1.tool('Bash', { command });
  model.script(r1, reply().text('done'));
  const r = await runCli(['-p', 'go', '--output-format', 'json', '--allowed-tools', 'Bash(git:*)', ...MODEL], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  const { readdirSync } = await import('node:fs');
  assert.deepEqual(readdirSync(dir).sort(), ['keep.txt'].sort(), 'no marker file was created and keep.txt is intact');
  const denials = JSON.parse(r.stdout).permission_denials;
  assert.ok(denials.length >= bypasses.length - 1, `refused ${denials.length} of ${bypasses.length}`);
});

test("a PreToolUse hook's additionalContext reaches the model with the result", async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'LS',
            hooks: [
              {
                type: 'command',
                command: 'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"CTX-FROM-HOOK"}}\'',
              },
            ],
          },
        ],
      },
    }),
  });
  model.reset();
  model.script(reply().tool('LS', { path: '.' }), reply().text('ok'));
  const r = await runCli(['-p', 'list', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.match(lastToolResults(model.requests[1])[0].content, /PreToolUse:LS hook context:\nCTX-FROM-HOOK/);
});
