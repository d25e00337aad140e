import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initShellParser } from '../../src/permissions/shell/parser.ts';
import { sessionGuards } from '../../src/permissions/protected.ts';
import { validateInput } from '../../src/tools/registry.ts';
import { resolvePath } from '../../src/fs/paths.ts';
import { writeTool } from '../../src/tools/write.ts';
import { readTool } from '../../src/tools/read.ts';
import { normalToolPath } from '../../src/tools/zod-helpers.ts';
import { checkCases, decideIn, exists, read, world, type DamageCase, type World } from './damage.ts';

/**
 * The third round of bypass classes (docs/permissions.md; docs/decisions.md "Bypass classes, round 3"): each case really does its
 * damage when bash runs it (damage.ts) and is refused or asked about; the ordinary commands of
 * the class still run.
 */

before(async () => {
  await initShellParser();
});

const has = (rel: string, text: string) => (w: World) => read(w, rel).includes(text);
const HOOK = has('.git/hooks/pre-commit', 'touch X');
const said = (text: string) => (_w: World, out: string) => out.includes(text);

test('class 1: a part the analyser cannot see that spells a protected path asks, in Bypass too', () => {
  const cmds = [
    'eval "cp pre-commit .git/hooks/pre-commit"',
    "bash <<< 'cp pre-commit .git/hooks/pre-commit'",
    "echo 'cp pre-commit .git/hooks/pre-commit' | bash",
    'bash -c "$(echo cp pre-commit .git/hooks/pre-commit)"',
    "eval $'cp pre-commit \\x2egit/hooks/pre-commit'",
    'GIT_WORK_TREE=.git/hooks git checkout HEAD -- pre-commit',
  ];
  const cases: DamageCase[] = cmds.flatMap((cmd) =>
    (['bypass', 'auto-accept', 'normal'] as const).map((mode) => ({
      cmd,
      mode,
      git: true,
      files: { 'pre-commit': '#!/bin/sh\ntouch X\n' },
      done: HOOK,
      want: ['ask' as const],
      needs: ['bash', 'git'],
    })),
  );
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cmds.length, `damage shown for ${r.shown} commands`);
  // The question is firm: a hook's "allow" cannot skip it.
  const w = world({ git: true });
  const d = decideIn(w, { cmd: cmds[0], mode: 'bypass' });
  assert.equal(d.firm, true);
  assert.match(d.reason, /git hooks/);
});

test('class 2: file tools decide on the path the tool writes (blanks trimmed, any case)', () => {
  const w = world({ git: true });
  for (const file_path of [
    ' .git/hooks/pre-commit',
    '.git/hooks/pre-commit\n',
    '\t~/.bashrc',
    '.GIT/hooks/pre-commit',
    '.assistant/Settings.local.json',
    '~/.BASHRC',
  ]) {
    for (const mode of ['auto-accept', 'bypass'] as const) {
      const d = decideIn(w, { cmd: '', mode }, 'Write', { file_path, content: 'touch X' });
      assert.equal(d.behavior, 'ask', `${mode} ${JSON.stringify(file_path)}: ${d.reason}`);
    }
  }
  // The damage: the Write tool (and so a PreToolUse hook, which sees the validated input) uses the trimmed path.
  const v = validateInput(writeTool, { file_path: ' .git/hooks/pre-commit', content: 'x' });
  assert.ok('input' in v);
  assert.equal(v.input.file_path, '.git/hooks/pre-commit');
  assert.equal(resolvePath(' .git/hooks/pre-commit', w.dir), join(w.dir, '.git/hooks/pre-commit'));
  // Ordinary writes still go through.
  assert.equal(decideIn(w, { cmd: '', mode: 'auto-accept' }, 'Write', { file_path: ' src/a.ts', content: '' }).behavior, 'allow');
});

test("class 3: git writing the repository's files into another directory asks when that holds a protected path", () => {
  const files = { 'pre-commit': '#!/bin/sh\ntouch X\n', 'config.fish': 'echo pwned\n' };
  const cases: DamageCase[] = [
    { cmd: 'git checkout-index --prefix=.git/hooks/ pre-commit', done: HOOK },
    { cmd: 'git checkout-index -a -f --prefix=.git/hooks/', done: HOOK },
    { cmd: 'git --work-tree=.git/hooks checkout HEAD -- pre-commit', done: HOOK },
    { cmd: 'git --work-tree .git/hooks checkout HEAD -- pre-commit', done: HOOK },
    { cmd: 'git -C .git/hooks --work-tree=. checkout HEAD -- pre-commit', done: HOOK },
    { cmd: 'git clone -q . ~/.config/fish', done: has('~/.config/fish/config.fish', 'pwned') },
    { cmd: 'git worktree add -q ~/.config/fish', done: has('~/.config/fish/config.fish', 'pwned') },
  ];
  const r = checkCases(
    cases.flatMap((c) =>
      (['bypass', 'normal'] as const).map((mode) => ({
        ...c,
        mode,
        git: true,
        files,
        allow: mode === 'normal' ? ['Bash(git:*)'] : [],
        want: ['ask' as const],
      })),
    ),
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 6, `damage shown for ${r.shown} commands`);
  const ok = checkCases(
    ['git checkout main', 'git read-tree -u --prefix=vendor/x HEAD', 'git clone https://example.com/x.git', 'git worktree add ../w'].map(
      (cmd) => ({ cmd, mode: 'bypass' as const, done: () => false, want: ['allow' as const] }),
    ),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 4: patterns and names known at run time that lead into a protected directory ask', () => {
  const prepare = (w: World) => {
    mkdirSync(join(w.dir, '.git/hooks'), { recursive: true });
    writeFileSync(join(w.dir, '.git/hooks/pre-commit'), '#!/bin/sh\n');
  };
  const cases: DamageCase[] = [
    { cmd: 'cp x .git/hoo?s/pre-commit', done: HOOK },
    { cmd: 'cp x .git/*/pre-commit', done: HOOK },
    { cmd: 'cp x .git/hooks/pre-comm?t', done: HOOK },
    { cmd: 'h=hooks; cp x ".git/$h/pre-commit"', done: HOOK },
    { cmd: 'f=.bashrc; cp x ~/"$f"', done: has('~/.bashrc', 'touch X') },
  ];
  const r = checkCases(
    cases.map((c) => ({ ...c, mode: 'bypass' as const, prepare, files: { x: '#!/bin/sh\ntouch X\n' }, want: ['ask' as const] })),
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cases.length, `damage shown for ${r.shown} commands`);
  const ok = checkCases(
    ['cp x src/*/y', 'cp x build/$f', 'echo x > "out/$(date +%s).log"', 'cp x ./$f'].map((cmd) => ({
      cmd,
      mode: 'bypass' as const,
      done: () => false,
      want: ['allow' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 5: a read-only command reading through links in a tree, or names in a file, reads only what the Read tool may', () => {
  const prepare = (w: World) => {
    symlinkSync(w.home, join(w.dir, 'lnk'));
    writeFileSync(join(w.dir, 'list'), `${join(w.home, '.ssh/id_rsa')}\0`);
  };
  const files = { '~/.ssh/id_rsa': 'PRIVATE KEY\n', 'src/a.ts': 'foo\n' };
  const cmds: Array<[string, DamageCase['done']]> = [
    ['grep -R PRIVATE .', said('PRIVATE KEY')],
    ['grep -rR PRIVATE', said('PRIVATE KEY')],
    ['grep --dereference-recursive PRIVATE .', said('PRIVATE KEY')],
    ['find -L . -name id_rsa', said('id_rsa')],
    ['find . -follow -name id_rsa', said('id_rsa')],
    ['ls -LRa', said('id_rsa')],
    ['du -aL', said('id_rsa')],
    ['wc -c --files0-from=list', said('id_rsa')],
    ['du --files0-from=list', said('id_rsa')],
  ];
  const cases: DamageCase[] = cmds.flatMap(([cmd, done]) =>
    (['normal', 'plan', 'auto-accept'] as const).map((mode) => ({
      cmd,
      mode,
      done,
      files,
      prepare,
      want: ['ask' as const],
      needs: [cmd.split(' ')[0]],
    })),
  );
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cmds.length - 1, `damage shown for ${r.shown} commands`);
  // A Read deny rule: names read from a file may be the denied one.
  const deny = checkCases([
    {
      cmd: 'wc -c --files0-from=l2',
      files: { '.env': 'SECRET', l2: '.env\0' },
      deny: ['Read(.env)'],
      done: said('.env'),
      want: ['ask', 'deny'],
    },
  ]);
  assert.deepEqual(deny.failures, []);
  // Without a link out, or without following, they still run.
  const ok = checkCases(
    ['grep -Rn foo src', 'grep -rn foo .', 'find -L src -name a.ts', 'ls -la', 'wc -l src/a.ts'].flatMap((cmd) =>
      (['normal', 'plan'] as const).map((mode) => ({ cmd, mode, files, prepare, done: () => false, want: ['allow' as const] })),
    ),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 6: variables that make a program run code, by name and by kind (PAGER, EDITOR, _COMMAND, config files)', () => {
  const kube =
    'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: touch, args: [X], interactiveMode: Never}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n';
  const X = (w: World) => exists(w, 'X');
  const files = { k: kube, ac: '[profile default]\ncredential_process = touch X\n' };
  const cmds = [
    'KUBECONFIG=k timeout 20 kubectl get pods',
    'env KUBECONFIG=k timeout 20 kubectl get pods',
    'AWS_CONFIG_FILE=ac timeout 30 aws s3 ls',
  ];
  const allow = [
    'Bash(kubectl get:*)',
    'Bash(aws s3 ls)',
    'Bash(timeout:*)',
    'Bash(gh pr view)',
    'Bash(go build)',
    'Bash(cargo build)',
    'Bash(java -version)',
  ];
  const cases: DamageCase[] = cmds.flatMap((cmd) => [
    { cmd, allow, done: X, files, want: ['ask' as const], needs: [cmd.includes('kubectl') ? 'kubectl' : 'aws'] },
    {
      cmd,
      mode: 'bypass' as const,
      deny: ['Bash(touch:*)'],
      done: X,
      files,
      want: ['deny' as const],
      needs: [cmd.includes('kubectl') ? 'kubectl' : 'aws'],
    },
  ]);
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  // Decisions only: the programs are not on every machine.
  const more = [
    'GH_PAGER="touch X" gh pr view',
    'GOFLAGS=-toolexec=./x go build',
    'RUSTC_WRAPPER=./x cargo build',
    'JAVA_TOOL_OPTIONS=-javaagent:x.jar java -version',
    'SUDO_ASKPASS=./x gh pr view',
    'FZF_DEFAULT_COMMAND=x gh pr view',
  ];
  const d = checkCases(
    more.map((cmd) => ({ cmd, allow, done: () => false, want: ['ask' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(d.failures, []);
  const ok = checkCases(
    ['NODE_ENV=test timeout 5 kubectl get pods', 'CI=1 RUST_LOG=debug cargo build', 'FORCE_COLOR=1 gh pr view'].map((cmd) => ({
      cmd,
      allow,
      done: () => false,
      want: ['allow' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 7: more start-up files and PATH directories of the home are protected', () => {
  const w = world({});
  for (const rel of [
    '~/.bash_aliases',
    '~/.vimrc',
    '~/.config/nvim/init.lua',
    '~/.npmrc',
    '~/.kube/config',
    '~/.aws/config',
    '~/.cargo/config.toml',
    '~/.local/bin/git',
    '~/bin/npm',
    '~/.ssh/authorized_keys2',
    '~/.ssh/environment',
    '~/.pam_environment',
    '~/.tmux.conf',
    '~/.gdbinit',
  ]) {
    const d = decideIn(w, { cmd: '', mode: 'bypass' }, 'Write', { file_path: rel, content: 'x' });
    assert.equal(d.behavior, 'ask', `${rel}: ${d.reason}`);
  }
  const r = checkCases(
    [
      { cmd: 'echo "alias ls=\'touch X\'" >> ~/.bash_aliases', done: has('~/.bash_aliases', 'touch X') },
      { cmd: 'mkdir -p ~/.local/bin && printf "#!/bin/sh\\ntouch X\\n" > ~/.local/bin/git', done: has('~/.local/bin/git', 'touch X') },
    ].map((c) => ({ ...c, mode: 'bypass' as const, want: ['ask' as const] })),
  );
  assert.deepEqual(r.failures, []);
  assert.equal(r.shown, 2);
});

test("class 8: /proc/self/cwd and /proc/self/root are the command's own directories", () => {
  const r = checkCases(
    [
      { cmd: 'cd src && cp ../x /proc/self/cwd/../.git/hooks/pre-commit', mode: 'bypass', done: HOOK, want: ['ask'] },
      { cmd: 'cd src && cat /proc/self/cwd/../.env', deny: ['Read(.env)'], allow: ['Bash'], done: said('SECRET'), want: ['deny'] },
      { cmd: 'cd src && cat /proc/self/cwd/../.env', deny: ['Read(.env)'], mode: 'bypass', done: said('SECRET'), want: ['deny'] },
      { cmd: 'cp x /proc/self/root$HOME/.bashrc', mode: 'bypass', done: has('~/.bashrc', 'touch X'), want: ['ask'] },
    ],
    { git: true, files: { 'src/a.ts': '', x: '#!/bin/sh\ntouch X\n', '.env': 'SECRET\n' }, needs: ['bash'] },
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 3, `damage shown for ${r.shown} commands`);
});

test("class 9: a guard hook's folder and the scripts of its sh -c string are protected", () => {
  const files = {
    '.assistant/hooks/guard.sh': 'grep -qf "$(dirname "$0")/rules.txt" && exit 2\nexit 0\n',
    '.assistant/hooks/rules.txt': 'rm -rf\n',
    'hooks/check.py': 'exit(2)\n',
  };
  const cases: DamageCase[] = [
    {
      cmd: 'echo nothing > .assistant/hooks/rules.txt',
      hooks: ['cd .assistant/hooks && ./guard.sh'],
      done: has('.assistant/hooks/rules.txt', 'nothing'),
    },
    {
      cmd: 'echo "exit 0" > .assistant/hooks/guard.sh',
      hooks: ['cd "$CLAUDE_PROJECT_DIR/.assistant/hooks" && ./guard.sh'],
      done: (w) => read(w, '.assistant/hooks/guard.sh') === 'exit 0\n',
    },
    {
      cmd: 'echo "exit(0)" > hooks/check.py',
      hooks: ['bash -c "cd $CLAUDE_PROJECT_DIR && python3 hooks/check.py"'],
      done: has('hooks/check.py', 'exit(0)'),
    },
    { cmd: 'echo "exit(0)" > hooks/check.py', hooks: ['python3 -m hooks.check'], done: has('hooks/check.py', 'exit(0)') },
    {
      cmd: 'echo nothing > .assistant/hooks/rules.txt',
      hooks: ['bash .assistant/hooks/guard.sh'],
      done: has('.assistant/hooks/rules.txt', 'nothing'),
    },
  ];
  const r = checkCases(
    cases.flatMap((c) => (['bypass', 'auto-accept'] as const).map((mode) => ({ ...c, mode, allow: ['Bash'], want: ['ask' as const] }))),
    { files },
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 3, `damage shown for ${r.shown} commands`);
  // The Write tool too.
  const w = world({ files });
  const guarded = sessionGuards(w.dir, w.home, [{ command: 'cd .assistant/hooks && ./guard.sh' }]);
  assert.ok(
    guarded.some((g) => g.dir && g.path === join(w.dir, '.assistant/hooks')),
    JSON.stringify(guarded),
  );
});

test("class 10: the project files a hook framework's git hook runs are protected", () => {
  const installed =
    '#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nINSTALL_PYTHON=/usr/bin/python3\nexec pre-commit hook-impl "$@"\n';
  const prepare = (w: World) => writeFileSync(join(w.dir, '.git/hooks/pre-commit'), installed);
  const r = checkCases(
    [
      'echo "repos: [{repo: local, hooks: [{id: x, name: x, entry: touch X, language: system}]}]" > .pre-commit-config.yaml',
      'printf "pre-commit:\\n  commands:\\n    x:\\n      run: touch X\\n" > lefthook.yml',
    ].flatMap((cmd) =>
      (['bypass', 'auto-accept'] as const).map((mode) => ({
        cmd,
        mode,
        git: true,
        allow: ['Bash'],
        prepare: cmd.includes('lefthook')
          ? (w: World) => writeFileSync(join(w.dir, '.git/hooks/pre-commit'), '#!/bin/sh\nlefthook run pre-commit\n')
          : prepare,
        done: (w: World) => read(w, cmd.includes('lefthook') ? 'lefthook.yml' : '.pre-commit-config.yaml').includes('touch X'),
        want: ['ask' as const],
      })),
    ),
  );
  assert.deepEqual(r.failures, []);
  // Without such a hook the file is an ordinary one.
  const plain = world({ git: true });
  assert.equal(
    decideIn(plain, { cmd: '', mode: 'auto-accept' }, 'Write', { file_path: '.pre-commit-config.yaml', content: '' }).behavior,
    'allow',
  );
});

test('class 11: an archive or patch written by the same command, or renamed into a protected path, asks', () => {
  const files = { 'pre-commit': '#!/bin/sh\ntouch X\n' };
  const cases: DamageCase[] = [
    { cmd: "tar -cf t.tar --transform='s,^,.git/hooks/,' pre-commit && tar -xf t.tar", done: HOOK },
    { cmd: "tar -cf t.tar pre-commit && tar -xf t.tar --transform='s,^,.git/hooks/,'", done: HOOK },
    { cmd: "tar -cf t.tar pre-commit && tar -xf t.tar --xform 's,^,.git/hooks/,'", done: HOOK },
    { cmd: "printf -- '--- /dev/null\\n+++ .git/hooks/pre-commit\\n@@ -0,0 +1 @@\\n+touch X\\n' > p.diff; patch -p0 < p.diff", done: HOOK },
    { cmd: "patch -p0 <<'EOF'\n--- /dev/null\n+++ .git/hooks/pre-commit\n@@ -0,0 +1 @@\n+touch X\nEOF", done: HOOK, needs: ['patch'] },
    { cmd: "cd .git && tar -cf ../t.tar --transform='s,^,hooks/,' -C .. pre-commit && tar -xf ../t.tar", done: HOOK, needs: ['tar'] },
  ];
  const r = checkCases(
    cases.flatMap((c) =>
      (['bypass', 'normal'] as const).map((mode) => ({
        ...c,
        mode,
        git: true,
        files,
        allow: mode === 'normal' ? ['Bash(tar:*)', 'Bash(patch:*)', 'Bash(printf:*)', 'Bash(cd:*)'] : [],
        want: ['ask' as const],
      })),
    ),
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 5, `damage shown for ${r.shown} commands`);
  const ok = checkCases(
    ['tar xzf archive.tgz', 'unzip a.zip', 'patch -p1 < fix.diff'].map((cmd) => ({
      cmd,
      mode: 'bypass' as const,
      done: () => false,
      want: ['allow' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 12: an archive or patch on disk is read for the names it will write', () => {
  const stage = (w: World) => {
    mkdirSync(join(w.dir, 'st/.git/hooks'), { recursive: true });
    writeFileSync(join(w.dir, 'st/.git/hooks/pre-commit'), '#!/bin/sh\ntouch X\n');
  };
  const tar = (flags: string, name: string) => (w: World) => {
    stage(w);
    execFileSync('tar', [flags, join(w.dir, name), '-C', join(w.dir, 'st'), '.git/hooks/pre-commit']);
    execFileSync('rm', ['-rf', join(w.dir, 'st')]);
  };
  const zip = (w: World) => {
    stage(w);
    execFileSync('zip', ['-q', join(w.dir, 'z.zip'), '.git/hooks/pre-commit'], { cwd: join(w.dir, 'st') });
    execFileSync('rm', ['-rf', join(w.dir, 'st')]);
  };
  const diff = '--- /dev/null\n+++ .git/hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch X\n';
  const settingsDiff =
    'diff --git a/.assistant/settings.local.json b/.assistant/settings.local.json\nnew file mode 100644\n--- /dev/null\n+++ b/.assistant/settings.local.json\n@@ -0,0 +1 @@\n+{"permissions":{"defaultMode":"bypass"}}\n';
  const cases: DamageCase[] = [
    { cmd: 'tar -xf t.tar', prepare: tar('-cf', 't.tar'), done: HOOK },
    { cmd: 'tar xzf t.tgz', prepare: tar('-czf', 't.tgz'), done: HOOK },
    { cmd: 'tar -x -f t.tar', prepare: tar('-cf', 't.tar'), done: HOOK },
    { cmd: 'unzip -q z.zip', prepare: zip, done: HOOK, needs: ['unzip', 'zip'] },
    { cmd: 'patch -p0 < p.diff', files: { 'p.diff': diff }, done: HOOK },
    { cmd: 'patch -p0 -i p.diff', files: { 'p.diff': diff }, done: HOOK },
    { cmd: 'git apply s.diff', files: { 's.diff': settingsDiff }, done: has('.assistant/settings.local.json', 'bypass') },
  ];
  const r = checkCases(
    cases.flatMap((c) =>
      (['bypass', 'normal'] as const).map((mode) => ({
        ...c,
        mode,
        git: true,
        allow: mode === 'normal' ? ['Bash(tar:*)', 'Bash(unzip:*)', 'Bash(patch:*)', 'Bash(git:*)'] : [],
        want: ['ask' as const],
      })),
    ),
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 6, `damage shown for ${r.shown} commands`);
  // An archive of ordinary files still unpacks.
  const ok = checkCases(
    [
      {
        cmd: 'tar -xf ok.tar',
        mode: 'bypass',
        prepare: (w: World) => {
          writeFileSync(join(w.dir, 'a.txt'), 'x');
          execFileSync('tar', ['-cf', 'ok.tar', 'a.txt'], { cwd: w.dir });
        },
        done: () => false,
        want: ['allow'],
      },
    ],
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test("class 2b: a file tool's path reaches hooks and the decision spelled as the tool opens it", () => {
  const cases: Array<[string, string]> = [
    ['.env/.', '.env'],
    ['src/../.env', '.env'],
    ['./.env', '.env'],
    ['.//.env', '.env'],
    ['.env/', '.env'],
    [' .env ', '.env'],
    ['/p/x/../.git/hooks/pre-commit', '/p/.git/hooks/pre-commit'],
    ['~/x/../.bashrc', '~/.bashrc'],
    ['~/../etc/passwd', '~/../etc/passwd'],
    ['src/a.ts', 'src/a.ts'],
    ['.', '.'],
    ['../x', '../x'],
    ['/', '/'],
  ];
  for (const [given, want] of cases) assert.equal(normalToolPath(given), want, given);
  // What the tool opens is what the normalised path names (the damage: a hook matching `.env` missed `.env/.`).
  const w = world({ files: { '.env': 'SECRET' } });
  for (const [given] of cases.slice(0, 6)) {
    const v = validateInput(readTool, { file_path: given });
    assert.ok('input' in v);
    assert.equal(v.input.file_path, '.env');
    assert.equal(resolvePath(given, w.dir), join(w.dir, '.env'));
  }
});

test('class 13: options that run code given on the command line (make --eval, go -toolexec) and subcommands that run their arguments', () => {
  const X = (w: World) => exists(w, 'X');
  const r = checkCases(
    [
      { cmd: "make --eval='$(shell touch X)' -f /dev/null", done: X, files: {} },
      { cmd: "make -E '$(shell touch X)' -f /dev/null", done: X },
    ].flatMap((c) => [
      { ...c, allow: ['Bash(make:*)'], want: ['ask' as const] },
      { ...c, mode: 'bypass' as const, deny: ['Bash(touch:*)'], want: ['deny' as const] },
    ]),
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 2, `damage shown for ${r.shown} commands`);
  const more = [
    "go test -exec 'touch X' ./...",
    "go build -toolexec 'touch X'",
    'go vet -vettool=./x',
    'npm exec touch X',
    'npm x -- touch X',
    'pnpm dlx touch X',
    'yarn dlx touch X',
    'bun x touch X',
  ];
  const d = checkCases(
    more.map((cmd) => ({ cmd, mode: 'bypass' as const, deny: ['Bash(touch:*)'], done: () => false, want: ['deny' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(d.failures, []);
  const ok = checkCases(
    ['make test', 'go test ./...', 'npm exec tsc', 'npx tsc --noEmit'].map((cmd) => ({
      cmd,
      allow: ['Bash(make:*)', 'Bash(go:*)', 'Bash(npm:*)', 'Bash(npx:*)'],
      done: () => false,
      want: ['allow' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 14: brace patterns are expanded before options are read (Plan Mode cannot write through them)', () => {
  const gone = (w: World) => !exists(w, 'a.txt');
  const X = (w: World) => exists(w, 'X');
  const cases: DamageCase[] = [
    { cmd: 'find . {-delete,-name,a.txt}', done: gone },
    { cmd: 'find {.,-delete}', done: gone, needs: ['find'] },
    { cmd: 'find . -{delete,name} a.txt', done: gone },
    { cmd: 'find . -name a.txt {-fprint,X}', done: X },
    { cmd: 'git log {--output=X,-1}', done: X, git: true },
    { cmd: 'git log --outp{ut,}=X -1', done: X, git: true },
    { cmd: 'sort {-o,X} a.txt', done: X },
  ];
  const r = checkCases(
    cases.flatMap((c) =>
      (['plan', 'normal'] as const).map((mode) => ({ ...c, mode, want: mode === 'plan' ? ['deny' as const] : ['ask' as const] })),
    ),
    { files: { 'a.txt': 'hi\n' } },
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 7, `damage shown for ${r.shown} commands`);
  const ok = checkCases(
    ['ls src/{a,b}.ts', 'wc -l {a,b}.txt', 'echo {1..3}', 'cat a.{txt,md}'].map((cmd) => ({
      cmd,
      mode: 'plan' as const,
      done: () => false,
      want: ['allow' as const],
    })),
    { files: { 'a.txt': '', 'b.txt': '' } },
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 15: a glob that expands to a file named like an option (`-delete`) is not read-only', () => {
  // The damage: bash hands the name to find as an option, and `find -delete` empties the folder.
  const gone = (w: World) => !exists(w, '.a.txt');
  const r = checkCases(
    [{ cmd: 'find *', files: { '-delete': '' }, done: gone }].flatMap((c) =>
      (['plan', 'normal'] as const).map((mode) => ({ ...c, mode, want: ['ask' as const] })),
    ),
    { files: { '.a.txt': 'x\n' } },
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 1, `damage shown for ${r.shown} commands`);
  const d = checkCases(
    ['grep -n x *', 'cat *', 'wc -l *'].map((cmd) => ({
      cmd,
      files: { '-f/dev/null': '', '--files0-from=x': '' },
      mode: 'plan' as const,
      done: () => false,
      want: ['ask' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(d.failures, []);
  const ok = checkCases(
    ['cat ./*', 'ls', 'wc -l *'].map((cmd) => ({ cmd, mode: 'plan' as const, done: () => false, want: ['allow' as const] })),
    { files: { 'a.txt': '' } },
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 16: writers whose target is spelled another way (cp --parents, git bundle, npm config set)', () => {
  const cases: DamageCase[] = [
    { cmd: 'cp --parents hooks/pre-commit .git', done: HOOK, git: true },
    { cmd: 'cd h && cp --parents .git/hooks/pre-commit ..', done: HOOK, git: true, needs: ['cp'] },
    { cmd: 'git bundle create ~/.bashrc HEAD', done: (w) => read(w, '~/.bashrc').length > 0, git: true },
    { cmd: 'npm config set script-shell ./evil.sh', done: has('~/.npmrc', 'evil'), needs: ['npm'] },
    { cmd: 'npm set script-shell ./evil.sh', done: has('~/.npmrc', 'evil'), needs: ['npm'] },
  ];
  const files = { 'hooks/pre-commit': '#!/bin/sh\ntouch X\n', 'h/.git/hooks/pre-commit': '#!/bin/sh\ntouch X\n' };
  const r = checkCases(cases.map((c) => ({ ...c, mode: 'bypass' as const, files, want: ['ask' as const] })));
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 4, `damage shown for ${r.shown} commands`);
  const d = checkCases(
    ['rsync -a --mkpath pre-commit .git/hooks/', 'yarn config set yarnPath ./evil.js', 'pnpm config set script-shell x'].map((cmd) => ({
      cmd,
      mode: 'bypass' as const,
      done: () => false,
      want: ['ask' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(d.failures, []);
  const ok = checkCases(
    ['cp --parents src/a.ts build', 'npm config get registry', 'npm config list', 'git bundle create repo.bundle HEAD'].map((cmd) => ({
      cmd,
      mode: 'bypass' as const,
      done: () => false,
      want: ['allow' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 17: tree -R writes 00Tree.html in every directory, so it is not read-only', () => {
  const d = checkCases(
    ['tree -R -H . -L 1', 'tree -aR -H .'].map((cmd) => ({ cmd, mode: 'plan' as const, done: () => false, want: ['deny' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(d.failures, []);
  const ok = checkCases(
    ['tree -L 2', 'tree -a src'].map((cmd) => ({ cmd, mode: 'plan' as const, done: () => false, want: ['allow' as const] })),
    { files: { 'src/a.ts': '' } },
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});
