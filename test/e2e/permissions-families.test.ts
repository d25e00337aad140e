import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { toolCallsRun } from './tool-calls.ts';

/**
 * The worst case of each bypass family, through the built CLI (headless, fake model): the call is
 * refused, the refusal is in `permission_denials`, and the damage does not happen. The damage
 * itself is shown with real bash in test/permissions/bypass-*.test.ts.
 */

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const settings = (o: object) => JSON.stringify(o);

const calls = (dir: string, home: string, args: string[], tools: Array<[string, Record<string, unknown>]>) =>
  toolCallsRun(model, dir, home, args, tools);

test('families 1-3 and 7 (Normal mode, Bash allowed, a program denied): hidden code is refused and does not run', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': settings({ permissions: { allow: ['Bash'], deny: ['Bash(rm:*)'] } }),
    v: 'x',
    'a.txt': 'hi\n',
  });
  const { results, result } = await calls(
    dir,
    home,
    [],
    [
      ['Bash', { command: "echo 'a[$(touch F1)]' >/dev/null; [[ $_ -eq 0 ]]" }],
      ['Bash', { command: 'chrt -o 0 rm v' }],
      ['Bash', { command: "su -c 'rm v' root" }],
      ['Bash', { command: "sed '1e touch F3' a.txt" }],
      ['Bash', { command: 'python3 -c \'import os; os.system("touch F3b")\'' }],
      ['Bash', { command: "tar -cf /dev/null --checkpoint=1 --checkpoint-act=exec='touch F7' a.txt" }],
    ],
  );
  assert.equal(result.permission_denials.length, 6, results.join('\n'));
  for (const f of ['F1', 'F3', 'F3b', 'F7']) assert.ok(!existsSync(join(dir, f)), f);
  assert.ok(existsSync(join(dir, 'v')));
  assert.match(results[0], /evaluates \$_ as arithmetic/);
  assert.match(results[1], /Bash\(rm:\*\)/);
  assert.match(results[3], /sed script runs commands/);
  assert.match(results[4], /runs code given on the command line/);
});

test('families 4-6 and 8 (Bypass with deny rules): hidden parts, leaks, edits and guards are refused', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': settings({
      permissions: { deny: ['Bash(rm:*)', 'Read(.env)', 'Edit(secrets/**)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'bash .assistant/hooks/guard.sh' }] }] },
    }),
    '.assistant/hooks/guard.sh': 'exit 0\n',
    v: 'x',
    '.env': 'KEY=SECRET\n',
    'secrets/a': 'orig\n',
  });
  mkdirSync(join(dir, '.git/hooks'), { recursive: true });
  writeFileSync(join(dir, '.git/config'), '');
  const before = readFileSync(join(dir, '.assistant/settings.json'), 'utf8');
  const { results, result } = await calls(
    dir,
    home,
    ['--permission-mode', 'bypass'],
    [
      ['Bash', { command: "eval 'rm v'" }],
      ['Bash', { command: 'F=.env; cat "$F"' }],
      ['Bash', { command: 'dd if=.env' }],
      ['Bash', { command: 'mv secrets s2 && echo pwned > s2/a && mv s2 secrets' }],
      ['Bash', { command: 'ln -s .assistant s && echo \'{"permissions":{"defaultMode":"bypass"}}\' > s/settings.local.json' }],
      ['Bash', { command: 'echo "exit 0 # off" > .assistant/hooks/guard.sh' }],
      ['Bash', { command: 'echo touch PWNED >> ~/.bashrc' }],
      ['Write', { file_path: '.git/hooks/pre-commit', content: 'touch PWNED\n' }],
      ['Edit', { file_path: '.assistant/settings.json', old_string: '{', new_string: '{"x":1,' }],
    ],
  );
  assert.equal(result.permission_denials.length, 9, results.join('\n'));
  assert.ok(existsSync(join(dir, 'v')));
  for (const x of results) assert.doesNotMatch(x, /KEY=SECRET/);
  assert.equal(readFileSync(join(dir, 'secrets/a'), 'utf8'), 'orig\n');
  assert.ok(!existsSync(join(dir, '.assistant/settings.local.json')));
  assert.equal(readFileSync(join(dir, '.assistant/hooks/guard.sh'), 'utf8'), 'exit 0\n');
  assert.ok(!existsSync(join(home, '.bashrc')));
  assert.ok(!existsSync(join(dir, '.git/hooks/pre-commit')));
  assert.equal(readFileSync(join(dir, '.assistant/settings.json'), 'utf8'), before);
  assert.match(results[5], /hook script/);
  assert.match(results[6], /shell start-up file/);
  assert.match(results[7], /git hooks/);
});

test("family 8: a cloned project's settings cannot make Bypass the default (a warning, Normal mode)", async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': settings({ permissions: { defaultMode: 'bypass' } }), v: 'x' });
  const { result, stderr } = await calls(dir, home, [], [['Bash', { command: 'rm v' }]]);
  assert.match(stderr, /defaultMode.*bypass.*ignored/);
  assert.equal(result.permission_denials.length, 1);
  assert.ok(existsSync(join(dir, 'v')));
});

test('family 9 (Plan Mode): reads outside the project and variables that make git write are refused', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'hi\n' });
  writeFileSync(join(home, 'secret'), 'HOME-SECRET\n');
  const { results, result } = await calls(
    dir,
    home,
    ['--permission-mode', 'plan'],
    [
      ['Bash', { command: 'cat ~/secret' }],
      ['Bash', { command: 'GIT_TRACE=$PWD/trace git status' }],
      ['Bash', { command: 'cat a.txt' }],
    ],
  );
  assert.equal(result.permission_denials.length, 2, results.join('\n'));
  assert.doesNotMatch(results.join('\n'), /HOME-SECRET/);
  assert.ok(!existsSync(join(dir, 'trace')));
  assert.match(results[2], /hi/);
});
