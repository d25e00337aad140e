import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { toolCallsRun } from './tool-calls.ts';

/**
 * Round 3 of the bypass classes (docs/permissions.md), the worst of each through the built CLI
 * (headless, fake model): refused, listed in `permission_denials`, and the damage does not
 * happen. The damage itself is shown with real bash in test/permissions/bypass-round3.test.ts.
 */

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const onPath = (p: string) => (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, p)));

const calls = (dir: string, home: string, args: string[], tools: Array<[string, Record<string, unknown>]>) =>
  toolCallsRun(model, dir, home, args, tools);

test('Bypass: hidden parts, git, patterns, padded paths and /proc/self cannot plant a git hook or a start-up file', async () => {
  const { dir, home } = makeProject({ 'pre-commit': '#!/bin/sh\ntouch PWNED\n', 'src/a.ts': '' });
  const git = (...a: string[]) => spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...a], { cwd: dir });
  git('init', '-q', '.');
  git('add', '-A');
  git('commit', '-qm', 'init');
  writeFileSync(join(dir, '.git/hooks/pre-commit'), 'orig\n');
  const { results, result } = await calls(
    dir,
    home,
    ['--permission-mode', 'bypass'],
    [
      ['Bash', { command: 'eval "cp pre-commit .git/hooks/pre-commit"' }],
      ['Bash', { command: 'git checkout-index -f --prefix=.git/hooks/ pre-commit' }],
      ['Bash', { command: 'cp pre-commit .git/hoo?s/pre-commit' }],
      ['Bash', { command: 'cd src && cp ../pre-commit /proc/self/cwd/../.git/hooks/pre-commit' }],
      ['Write', { file_path: ' .git/hooks/pre-commit', content: 'touch PWNED\n' }],
      ['Write', { file_path: '~/.bash_aliases', content: 'alias ls="touch PWNED"\n' }],
      ['Bash', { command: 'git status --short' }],
    ],
  );
  assert.equal(result.permission_denials.length, 6, results.join('\n---\n'));
  assert.equal(readFileSync(join(dir, '.git/hooks/pre-commit'), 'utf8'), 'orig\n');
  assert.ok(!existsSync(join(home, '.bash_aliases')));
  assert.match(results[0], /git hooks/);
  assert.match(results[5], /shell start-up file/);
  // Ordinary git still runs.
  assert.doesNotMatch(results[6], /denied|refused/i);
});

test("Normal and Auto-Accept: reads through links, variables that run code, and a guard hook's folder", async () => {
  const kube =
    'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: touch, args: [PWNED], interactiveMode: Never}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n';
  const { dir, home } = makeProject({
    '.assistant/settings.json': JSON.stringify({
      permissions: { allow: ['Bash(kubectl get:*)'] },
      hooks: { PreToolUse: [{ matcher: 'Write|Edit|Bash', hooks: [{ type: 'command', command: 'cd .assistant/hooks && ./guard.sh' }] }] },
    }),
    '.assistant/hooks/guard.sh': '#!/bin/sh\nexit 0\n',
    '.assistant/hooks/rules.txt': 'rm -rf\n',
    k: kube,
    'src/a.ts': 'foo\n',
  });
  spawnSync('chmod', ['+x', join(dir, '.assistant/hooks/guard.sh')]);
  writeFileSync(join(home, 'id_rsa'), 'PRIVATE KEY\n');
  symlinkSync(home, join(dir, 'lnk'));
  const { results, result } = await calls(
    dir,
    home,
    ['--permission-mode', 'auto-accept'],
    [
      ['Bash', { command: 'grep -R PRIVATE .' }],
      ['Bash', { command: 'KUBECONFIG=k kubectl get pods' }],
      ['Write', { file_path: '.assistant/hooks/rules.txt', content: 'nothing\n' }],
      ['Bash', { command: 'grep -rn foo src' }],
      ['Write', { file_path: 'src/b.ts', content: 'ok\n' }],
    ],
  );
  assert.equal(result.permission_denials.length, 3, results.join('\n---\n'));
  assert.doesNotMatch(results.join('\n'), /PRIVATE KEY/);
  if (onPath('kubectl')) assert.ok(!existsSync(join(dir, 'PWNED')));
  assert.equal(readFileSync(join(dir, '.assistant/hooks/rules.txt'), 'utf8'), 'rm -rf\n');
  assert.match(results[2], /hook/);
  assert.match(results[3], /src\/a\.ts:1:foo/);
  assert.equal(readFileSync(join(dir, 'src/b.ts'), 'utf8'), 'ok\n');
});

test('a guard hook sees the path the tool opens: `.env/.` and `src/../.env` are `.env` to it', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Read|Write|Edit', hooks: [{ type: 'command', command: 'bash .assistant/hooks/no-env.sh' }] }] },
    }),
    // A guard written the usual way: the path's last part, as the hook is given it.
    '.assistant/hooks/no-env.sh':
      'f=$(jq -r .tool_input.file_path); case "$(basename "$f")" in .env) echo "no secrets" >&2; exit 2;; esac; exit 0\n',
    '.env': 'KEY=SECRET\n',
    'src/a.ts': 'x\n',
  });
  const { results } = await calls(
    dir,
    home,
    ['--permission-mode', 'bypass'],
    [
      ['Read', { file_path: '.env/.' }],
      ['Read', { file_path: 'src/../.env' }],
      ['Read', { file_path: ' .env ' }],
      ['Read', { file_path: 'src/./a.ts' }],
    ],
  );
  assert.doesNotMatch(results.join('\n'), /KEY=SECRET/, results.join('\n---\n'));
  for (const r of results.slice(0, 3)) assert.match(r, /no secrets/);
  assert.match(results[3], /x/);
});

test('Plan Mode: brace patterns and files named like options cannot turn a read-only command into a write', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'hi\n', '-delete': '' });
  const { results, result } = await calls(
    dir,
    home,
    ['--permission-mode', 'plan'],
    [
      ['Bash', { command: 'find . {-delete,-name,a.txt}' }],
      ['Bash', { command: 'git log {--output=OUT,-1}' }],
      ['Bash', { command: 'find *' }],
      ['Bash', { command: 'cat a.{txt,md}' }],
    ],
  );
  assert.equal(result.permission_denials.length, 3, results.join('\n---\n'));
  assert.ok(existsSync(join(dir, 'a.txt')));
  assert.match(results[2], /starts with -/);
  assert.ok(!existsSync(join(dir, 'OUT')));
  assert.match(results[3], /hi/);
});
