import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { protectedFile } from '../../src/permissions/modes.ts';
import { gitGuards, guardedPaths, hookScripts, sessionGuards, strictlyProtected } from '../../src/permissions/protected.ts';
import { makeProject } from '../fakes/project.ts';

/** The protected paths of SPEC §11.16, as one list others (the sandbox) can use. */

test('hook commands name the scripts they run, with the project variables expanded', () => {
  const { dir, home } = makeProject({ 'guard.sh': '', 'hooks/check.py': '' });
  const cases: Array<[string, string[]]> = [
    ['"$CLAUDE_PROJECT_DIR"/.assistant/hooks/guard.sh', [join(dir, '.assistant/hooks/guard.sh')]],
    ['${ASSISTANT_PROJECT_DIR}/hooks/check.py --strict', [join(dir, 'hooks/check.py')]],
    ['python3 hooks/check.py', [join(dir, 'hooks/check.py')]],
    ['bash guard.sh', [join(dir, 'guard.sh')]],
    ['~/bin/audit.sh && jq .', [join(home, 'bin/audit.sh')]],
    ['jq -r .tool_name | grep -q Bash', []],
    ["sed -n 's/a/b/p' | grep -q 'rm -rf /'", [join(dir, 's/a/b/p')]],
    ['node "$HOME/hooks/x.mjs"', [join(home, 'hooks/x.mjs')]],
  ];
  for (const [command, want] of cases) assert.deepEqual(hookScripts(command, dir, home), want, command);
});

test("git's real hooks and config: a worktree's common directory and core.hooksPath", () => {
  const main = makeProject({ '.git/config': '[core]\n\thooksPath = .husky\n', '.git/worktrees/wt/commondir': '../..\n' });
  const wt = makeProject({ '.git': `gitdir: ${join(main.dir, '.git/worktrees/wt')}\n` });
  const paths = gitGuards(wt.dir).map((g) => `${g.path}${g.dir ? '/' : ''}`);
  assert.ok(paths.includes(join(main.dir, '.git/hooks/')), paths.join('\n'));
  assert.ok(paths.includes(join(main.dir, '.git/config')));
  assert.ok(paths.includes(`${join(wt.dir, '.husky')}/`), paths.join('\n'));
  assert.deepEqual(gitGuards(makeProject().dir), []);
});

test('the protected list: settings, hook scripts, .mcp.json, git hooks and config, start-up files', () => {
  const { dir, home } = makeProject({ '.git/config': '' });
  mkdirSync(join(dir, '.git/hooks'), { recursive: true });
  writeFileSync(join(dir, 'guard.sh'), '');
  const extra = sessionGuards(dir, home, [{ command: 'bash guard.sh' }], ['/etc/assistant.json']);
  const g = { projectRoot: dir, home, extra };
  for (const p of [
    '.assistant/settings.json',
    '.assistant/settings.local.json',
    '.mcp.json',
    '.git/config',
    '.git/hooks/pre-commit',
    'guard.sh',
  ]) {
    assert.ok(strictlyProtected(join(dir, p), g), p);
  }
  for (const p of [
    '.bashrc',
    '.zshrc',
    '.profile',
    '.config/fish/config.fish',
    '.assistant/settings.json',
    '.assistant/state.json',
    '.gitconfig',
    '.ssh/authorized_keys',
  ]) {
    assert.ok(strictlyProtected(join(home, p), g), `~/${p}`);
  }
  assert.ok(strictlyProtected('/etc/assistant.json', g));
  for (const p of ['src/a.ts', '.git/index', 'package.json', '.gitignore']) assert.equal(strictlyProtected(join(dir, p), g), undefined, p);
  // The rest of .git/ asks in every mode but Bypass; protectedFile keeps its shape for its callers.
  assert.match(protectedFile(join(dir, '.git/index'), dir, home) ?? '', /git repository/);
  assert.match(protectedFile(join(dir, 'guard.sh'), dir, home, extra) ?? '', /hook script/);
  assert.equal(protectedFile(join(dir, 'guard.sh'), dir, home), undefined);
  assert.ok(guardedPaths(g).every((x) => x.path.startsWith('/') && typeof x.dir === 'boolean' && x.why.length > 0));
});
