import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSetup } from '../../src/agent/setup.ts';
import { initShellParser } from '../../src/permissions/shell/parser.ts';
import { makeProject } from '../fakes/project.ts';
import { checkCases, decideIn, exists, read, world, type DamageCase, type World } from './damage.ts';

/**
 * Bypass families about files (SPEC §11.7, §11.8, §11.16): reads past a Read deny, writes past an
 * Edit deny, abbreviated options, the protected paths, Plan Mode's reads. Each case really does its
 * damage when bash runs it (damage.ts), and is refused or asked about.
 */

before(async () => {
  await initShellParser();
});

const leaked = (w: World) => read(w, 'leak').includes('SECRET');

test('family 5: every way of reading a denied file is refused', () => {
  const cmds = [
    'dd if=.env of=leak',
    'dd if=.env > leak',
    'pr .env > leak',
    'shuf .env > leak',
    'column .env > leak',
    'ptx .env > leak',
    'look S .env > leak',
    'zstd -c .env > leak.zst && zstd -dc leak.zst > leak',
    'sdiff .env /dev/null > leak',
    'diff3 .env /dev/null /dev/null > leak',
    'link .env h && cat h > leak',
    'ln .env h; cat h > leak',
    'cp -l .env h && cat h > leak',
    'ln -s .env h && cat h > leak',
    'tac .env > leak',
    'nl .env > leak',
    'base32 .env | base32 -d > leak',
    'paste .env > leak',
    'fold .env > leak',
    'xxd .env | xxd -r > leak',
    'od -An -c .env | tr -d " " > leak',
    'tail -c +1 .env > leak',
    'uniq .env leak',
    'sort -o leak .env',
    'split -n 1 .env leak && mv leakaa leak',
    'tar -cf - .env | tar -xOf - > leak',
    'cp --reflink=auto .env leak',
    'install -m 644 .env leak',
    'curl -s file://$PWD/.env > leak',
    'git show :.env > leak',
    'cat .en? > leak',
    'cat {.env,x} > leak 2>/dev/null',
    'while read l; do echo $l; done < .env > leak',
  ];
  const cases: DamageCase[] = cmds.map((cmd) => ({
    cmd,
    allow: ['Bash'],
    deny: ['Read(.env)'],
    done: leaked,
    want: ['deny'],
    git: cmd.startsWith('git'),
    needs: cmd.startsWith('curl') ? ['curl'] : undefined,
  }));
  // Names known only at run time, for readers not on the old list: asks (Plan Mode and Bypass: refused).
  for (const p of ['pr', 'shuf', 'column', 'ptx', 'tac', 'nl', 'fold']) {
    cases.push({ cmd: `F=.env; ${p} "$F" > leak`, allow: ['Bash'], deny: ['Read(.env)'], done: leaked, want: ['ask'] });
    cases.push({ cmd: `F=.env; ${p} "$F" > leak`, mode: 'bypass', deny: ['Read(.env)'], done: leaked, want: ['deny'] });
  }
  // Added directories (--add-dir) are covered by the rules as the project is.
  cases.push({
    cmd: 'cat other/.env > leak',
    add: ['other'],
    files: { 'other/.env': 'SECRET' },
    allow: ['Bash'],
    deny: ['Read(.env)'],
    done: leaked,
    want: ['deny'],
  });
  cases.push({
    cmd: 'cat other/secrets/k > leak',
    add: ['other'],
    files: { 'other/secrets/k': 'SECRET' },
    allow: ['Bash'],
    deny: ['Read(secrets/**)'],
    done: leaked,
    want: ['deny'],
  });
  const r = checkCases(cases, { files: { '.env': 'SECRET\n' } });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 35, `damage shown for ${r.shown} commands`);
});

test('family 5: the Read tool is refused in an added directory too', () => {
  const w = world({ add: ['other'], files: { 'other/.env': 'SECRET' } });
  assert.equal(
    decideIn(w, { cmd: '', deny: ['Read(.env)'], add: ['other'] }, 'Read', { file_path: join(w.dir, 'other/.env') }).behavior,
    'deny',
  );
});

test('family 6: every way of writing a file an Edit deny rule covers is refused', () => {
  const changed = (w: World) => read(w, 'secrets/a') !== 'orig\n';
  const gone = (w: World) => !exists(w, 'secrets/a');
  const made = (rel: string) => (w: World) => exists(w, rel);
  const cases: DamageCase[] = [
    { cmd: 'sed -i s/orig/pwned/ secrets/a', done: changed },
    { cmd: 'sed --in-place=.bak s/orig/pwned/ secrets/a', done: changed },
    { cmd: 'perl -pi -e s/orig/pwned/ secrets/a', done: changed },
    { cmd: 'echo pwned | tee secrets/a', done: changed },
    { cmd: 'echo pwned | tee -a secrets/a', done: changed },
    { cmd: 'echo pwned | dd of=secrets/a', done: changed },
    { cmd: 'truncate -s 0 secrets/a', done: changed },
    { cmd: 'shred -n 1 secrets/a', done: changed },
    { cmd: 'rm secrets/a', done: gone },
    { cmd: 'rm -rf secrets', done: gone },
    { cmd: 'find secrets -delete', done: gone },
    { cmd: 'find . -name a -delete', done: gone, want: ['ask'] },
    { cmd: 'gzip secrets/a', done: gone },
    { cmd: 'mv secrets s2 && echo pwned > s2/a && mv s2 secrets', done: changed },
    { cmd: 'mv secrets/a x', done: gone },
    { cmd: 'ln -s secrets s2 && echo pwned > s2/a', done: changed },
    { cmd: 'ln -s secrets s2; echo pwned > s2/b', done: made('secrets/b') },
    { cmd: 'ln secrets/a h && echo pwned >> h', done: changed },
    { cmd: 'link secrets/a h; echo pwned >> h', done: changed },
    { cmd: 'cp x secrets', done: made('secrets/x') },
    { cmd: 'cp -t secrets x', done: made('secrets/x') },
    { cmd: 'touch secrets/new', done: made('secrets/new') },
    { cmd: 'mkdir secrets/new', done: made('secrets/new') },
    { cmd: 'chmod 000 secrets/a', done: (w) => (statSync(join(w.dir, 'secrets/a')).mode & 0o777) === 0 },
    { cmd: 'dos2unix -q secrets/a', files: { 'secrets/a': 'orig\r\n' }, done: (w) => !read(w, 'secrets/a').includes('\r') },
    { cmd: 'sort -o secrets/a x', done: changed },
    { cmd: 'sort --out=secrets/a x', done: changed },
    { cmd: 'uniq x secrets/a', done: changed },
    { cmd: 'git checkout -- secrets/a', done: changed, git: true, prepare: (w) => writeFileSync(join(w.dir, 'secrets/a'), 'orig\n') },
    { cmd: 'tar -cf t.tar x && tar -xf t.tar -C secrets', done: made('secrets/x') },
    { cmd: 'awk \'{print > "secrets/a"}\' x', done: changed },
    { cmd: "sed -n 'w secrets/a' x", done: changed },
    { cmd: 'find x -fprint secrets/a', done: changed },
    { cmd: 'python3 -c \'import sys; open(sys.argv[1], "w").write("pwned")\' secrets/a', done: changed, want: ['ask'] },
    { cmd: 'F=secrets/a; rm "$F"', done: gone, want: ['ask'] },
    { cmd: 'echo secrets/a | xargs rm', done: gone, want: ['ask'] },
    {
      cmd: 'node fix.js secrets/a',
      files: { 'fix.js': 'require("fs").writeFileSync(process.argv[2], "pwned")' },
      done: changed,
      want: ['ask'],
    },
  ];
  const setup = (c: DamageCase): DamageCase => ({
    allow: ['Bash'],
    deny: ['Edit(secrets/**)'],
    want: ['deny'],
    ...c,
    files: { 'secrets/a': 'orig\n', x: 'pwned\n', ...c.files },
  });
  // `git checkout -- secrets/a` restores what was committed.
  const all = cases.map(setup).map((c) => (c.git ? { ...c, files: { ...c.files, 'secrets/a': 'committed\n' } } : c));
  const r = checkCases(all);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 30, `damage shown for ${r.shown} commands`);
  // In Bypass the same (a deny rule still refuses); what may write a covered file is refused there too.
  const bypass = checkCases(
    all.map((c) => ({ ...c, mode: 'bypass' as const, allow: [], want: ['deny' as const] })),
    {},
    { decisionsOnly: true },
  );
  assert.deepEqual(bypass.failures, []);
});

test('family 7: abbreviated long options are read as the program reads them', () => {
  const X = (w: World) => exists(w, 'X');
  const cases: DamageCase[] = [
    { cmd: "git ls-remote --upl='touch X; true' .", done: X, want: ['ask'], git: true },
    { cmd: "git ls-remote --upload='touch X; true' .", done: X, want: ['ask'], git: true },
    { cmd: "git grep --open='touch X' hi", done: X, want: ['ask'], git: true },
    { cmd: "git grep --open-files='touch X' hi", done: X, want: ['ask'], git: true },
    { cmd: "tar -cf /dev/null --checkpoint=1 --checkpoint-ac=exec='touch X' x", done: X, want: ['ask'] },
    {
      cmd: 'sed --in=.b s/orig/pwned/ secrets/a',
      done: (w) => read(w, 'secrets/a') !== 'orig\n',
      deny: ['Edit(secrets/**)'],
      want: ['deny'],
    },
    { cmd: 'sort --outp=secrets/a x', done: (w) => read(w, 'secrets/a') !== 'orig\n', deny: ['Edit(secrets/**)'], want: ['deny'] },
    { cmd: 'timeout --sig=KILL 5 rm x', done: (w) => !exists(w, 'x'), deny: ['Bash(rm:*)'], want: ['deny'] },
  ];
  const r = checkCases(
    cases.map((c) => ({ allow: ['Bash(git:*)', 'Bash(tar:*)', 'Bash(sed:*)', 'Bash(sort:*)', 'Bash(timeout:*)'], ...c })),
    { files: { 'secrets/a': 'orig\n', x: 'hi\n', 'hi.txt': 'hi\n' } },
  );
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 7, `damage shown for ${r.shown} commands`);
});

test('family 8: protected paths ask in every mode, Auto-Accept and Bypass included, and the question says why', () => {
  const has = (rel: string, text: string) => (w: World) => read(w, rel).includes(text);
  const protectedCases: DamageCase[] = [
    {
      cmd: 'echo \'{"permissions":{"defaultMode":"bypass"}}\' > .assistant/settings.local.json',
      done: has('.assistant/settings.local.json', 'bypass'),
    },
    { cmd: 'ln -s .assistant s && echo pwned > s/settings.local.json', done: has('.assistant/settings.local.json', 'pwned') },
    { cmd: 'ln -s .git/hooks h; printf "#!/bin/sh\\ntouch X\\n" > h/pre-commit', done: has('.git/hooks/pre-commit', 'touch X'), git: true },
    { cmd: 'ln -s ~ hm && echo pwned >> hm/.bashrc', done: has('~/.bashrc', 'pwned') },
    { cmd: 'echo pwned >> ~/.bashrc', done: has('~/.bashrc', 'pwned') },
    { cmd: 'printf "alias ls=rm\\n" | tee -a ~/.zshrc', done: has('~/.zshrc', 'alias') },
    { cmd: 'cp x ~/.profile', done: has('~/.profile', 'pwned') },
    { cmd: 'echo "touch X" > .git/hooks/pre-commit', done: has('.git/hooks/pre-commit', 'touch X'), git: true },
    { cmd: 'git config core.hooksPath evil', done: has('.git/config', 'evil'), git: true },
    { cmd: 'git config alias.st "!touch X"', done: has('.git/config', 'touch X'), git: true },
    { cmd: 'echo \'{"mcpServers":{}}\' > .mcp.json', done: has('.mcp.json', 'mcpServers') },
    {
      cmd: 'echo "exit 0" > .assistant/hooks/guard.sh',
      done: has('.assistant/hooks/guard.sh', 'exit 0'),
      files: { '.assistant/hooks/guard.sh': 'exit 2\n' },
      hooks: ['bash .assistant/hooks/guard.sh'],
    },
    {
      cmd: 'sed -i s/2/0/ hooks/check.sh',
      done: has('hooks/check.sh', 'exit 0'),
      files: { 'hooks/check.sh': 'exit 2\n' },
      hooks: ['"$CLAUDE_PROJECT_DIR"/hooks/check.sh'],
    },
    {
      cmd: 'mv lnk x2 && echo pwned > x2/settings.local.json',
      links: { lnk: '.assistant' },
      done: has('.assistant/settings.local.json', 'pwned'),
    },
    {
      cmd: 'cp -a lnk y && echo pwned > y/settings.local.json',
      links: { lnk: '.assistant' },
      done: has('.assistant/settings.local.json', 'pwned'),
    },
    {
      cmd: 'tar -xf a.tar && echo pwned > l2/settings.local.json',
      done: has('.assistant/settings.local.json', 'pwned'),
      prepare: (w) => {
        symlinkSync('.assistant', join(w.dir, 'l2'));
        execFileSync('tar', ['-cf', 'a.tar', 'l2'], { cwd: w.dir });
        unlinkSync(join(w.dir, 'l2'));
      },
    },
    { cmd: 'F=~/.bashrc; echo pwned >> "$F"', done: has('~/.bashrc', 'pwned') },
    { cmd: 'echo pwned >> "$HOME/.bashrc"', done: has('~/.bashrc', 'pwned') },
    { cmd: "python3 -c \"open('.git/hooks/pre-commit', 'w').write('touch X')\"", done: has('.git/hooks/pre-commit', 'touch X'), git: true },
    { cmd: 'rm -rf .assistant', done: (w) => !exists(w, '.assistant/settings.json') },
    { cmd: 'mv .assistant/settings.json x.json', done: (w) => !exists(w, '.assistant/settings.json') },
    { cmd: 'unlink .assistant/settings.json', done: (w) => !exists(w, '.assistant/settings.json') },
    { cmd: 'git init -q --template=tpl .', done: has('.git/hooks/pre-commit', 'touch X'), files: { 'tpl/hooks/pre-commit': 'touch X\n' } },
    // Not run: it would change this machine's crontab.
    { cmd: 'echo "* * * * * touch X" | crontab -', done: () => false, needs: ['(not run)'] },
  ];
  const cases = protectedCases.flatMap((c) =>
    (['auto-accept', 'bypass', 'normal'] as const).map((mode) => ({
      allow: ['Bash'],
      ...c,
      mode,
      want: ['ask' as const],
      files: { '.assistant/settings.json': '{}\n', x: 'pwned\n', ...c.files },
    })),
  );
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= protectedCases.length - 1, `damage shown for ${r.shown} commands`); // all but crontab's
  // The Write and Edit tools, in Bypass too; the reason says what the file is.
  const w = world({});
  for (const [file, what] of [
    ['.assistant/settings.json', /assistant settings/],
    ['.mcp.json', /MCP servers/],
    ['.git/hooks/pre-commit', /git hooks/],
    ['.git/config', /git configuration/],
    [join(w.home, '.bashrc'), /shell start-up file/],
  ] as const) {
    for (const mode of ['auto-accept', 'bypass'] as const) {
      const d = decideIn(w, { cmd: '', mode }, 'Write', { file_path: file, content: 'x' });
      assert.equal(d.behavior, 'ask', `${mode} Write ${file}: ${d.reason}`);
      assert.ok(d.firm, file);
      assert.match(d.reason, what);
    }
  }
  // Plan Mode refuses them as any write.
  assert.equal(decideIn(w, { cmd: 'echo x > .mcp.json', mode: 'plan' }).behavior, 'deny');
});

test('family 8: a project settings file cannot make Bypass the default', () => {
  const opts = { addDir: [], allowedTools: [], disallowedTools: [] };
  for (const file of ['.assistant/settings.json', '.assistant/settings.local.json']) {
    const { dir, home } = makeProject({ [file]: '{"permissions":{"defaultMode":"bypass"}}' });
    const s = loadSetup(opts, dir, home);
    assert.equal(s.mode, 'normal', file);
    assert.ok(
      s.warnings.some((x) => x.includes(file) && /defaultMode.*ignored/.test(x)),
      s.warnings.join('\n'),
    );
  }
  const { dir, home } = makeProject({ '.assistant/settings.json': '{"permissions":{"defaultMode":"auto-accept"}}' });
  assert.equal(loadSetup(opts, dir, home).mode, 'auto-accept');
  // The user's own settings and the command line may.
  const mine = makeProject();
  mkdirSync(join(mine.home, '.assistant'), { recursive: true });
  writeFileSync(join(mine.home, '.assistant/settings.json'), '{"permissions":{"defaultMode":"bypass"}}');
  assert.equal(loadSetup(opts, mine.dir, mine.home).mode, 'bypass');
  assert.equal(loadSetup({ ...opts, permissionMode: 'bypass' }, dir, home).mode, 'bypass');
});

test('family 9: Plan Mode reads only what the Read tool may, and variables that make a reader write make it a write', () => {
  const printed = (text: string) => (_w: World, out: string) => out.includes(text);
  const cases: DamageCase[] = [
    { cmd: 'cat ~/secret', done: printed('SECRET'), want: ['ask'] },
    { cmd: 'head ~/secret', done: printed('SECRET'), want: ['ask'] },
    { cmd: 'grep -r SECRET ~', done: printed('SECRET'), want: ['ask'] },
    { cmd: 'cd ~ && cat secret', done: printed('SECRET'), want: ['ask', 'deny'] },
    { cmd: 'cat < ~/secret', done: printed('SECRET'), want: ['ask'] },
    { cmd: 'F=~/secret; cat "$F"', done: printed('SECRET'), want: ['ask'] },
    { cmd: 'ls ~ | head', done: printed('secret'), want: ['ask'] },
    { cmd: 'for f in ~/*; do cat "$f"; done', done: printed('SECRET'), want: ['ask'] },
    { cmd: 'GIT_TRACE=$PWD/trace git status', done: (w) => exists(w, 'trace'), want: ['deny'], git: true },
    { cmd: 'GIT_TRACE2_EVENT=$PWD/trace git log -1', done: (w) => exists(w, 'trace'), want: ['deny'], git: true },
    { cmd: 'env GIT_TRACE_SETUP=$PWD/trace git status', done: (w) => exists(w, 'trace'), want: ['deny'], git: true },
  ];
  const r = checkCases(cases.map((c) => ({ mode: 'plan', ...c, files: { '~/secret': 'SECRET\n', x: 'x\n' } })));
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 10, `damage shown for ${r.shown} commands`);
  // What stays allowed in Plan Mode: reading inside the project, a loop over its files.
  const w = world({ files: { 'a.ts': 'x\n', 'b.ts': 'y\n' } });
  for (const cmd of [
    'cat a.ts',
    'for f in *.ts; do wc -l "$f"; done',
    'LANG=C grep -rn x .',
    'git log --oneline -3',
    'ls -la',
    'echo $HOME',
  ]) {
    assert.equal(decideIn(w, { cmd, mode: 'plan' }).behavior, 'allow', cmd);
  }
  for (const cmd of [
    'LESSHISTFILE=h cat a.ts',
    'HISTFILE=h cat a.ts',
    'PAGER=x git log',
    'SSLKEYLOGFILE=k cat a.ts',
    'GIT_INDEX_FILE=i git status',
  ]) {
    assert.equal(decideIn(w, { cmd, mode: 'plan' }).behavior, 'deny', cmd);
  }
});
