import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { knownKinds } from '../../src/tools/kinds.ts';
import { decide } from '../../src/permissions/decide.ts';
import { fsLookup } from '../../src/permissions/look.ts';
import { expandBraces } from '../../src/permissions/braces.ts';
import type { PermissionMode } from '../../src/permissions/modes.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { initShellParser, splitCommand } from '../../src/permissions/shell/parser.ts';
import { makeProject } from '../fakes/project.ts';

/** Audit 4, F4–F6 on a real disk: symlinks, and globs expanded as the shell would. */

before(async () => {
  await initShellParser();
});

function setup() {
  const { dir, home } = makeProject({ 'secret/f': 'orig\n', '.env': 'KEY=SECRET\n', 'src/a.ts': '1\n', 'a.ts': '2\n' });
  const { dir: outside } = makeProject({ id_rsa: 'PRIVATE\n' });
  symlinkSync(`${dir}/secret`, `${dir}/link`);
  symlinkSync(`${dir}/secret/f`, `${dir}/linkfile`);
  symlinkSync(`${dir}/.env`, `${dir}/envlink`);
  symlinkSync(`${outside}/id_rsa`, `${dir}/notes`);
  symlinkSync(outside, `${dir}/src/out`);
  mkdirSync(`${dir}/sub`);
  writeFileSync(`${dir}/sub/x`, '');
  const rules = buildRules([{ kind: 'deny', rules: ['Edit(secret/**)', 'Read(.env)'], source: 'settings' }]).rules;
  const none = buildRules([]).rules;
  const ctx = (mode: PermissionMode, r = rules) => ({
    mode,
    projectRoot: dir,
    additionalDirs: [],
    home,
    rules: r,
    kinds: knownKinds,
    look: fsLookup,
  });
  const bash = (command: string, mode: PermissionMode, r = rules) =>
    decide('Bash', { command }, { ...ctx(mode, r), shell: splitCommand(command) });
  return { dir, outside, ctx, bash, none };
}

test('Write, Edit and Read through a symlink meet the rules of where it leads', () => {
  const { ctx } = setup();
  assert.equal(decide('Write', { file_path: 'link/d' }, ctx('bypass')).behavior, 'deny');
  assert.equal(decide('Edit', { file_path: 'linkfile' }, ctx('bypass')).behavior, 'deny');
  assert.match(decide('Read', { file_path: 'envlink' }, ctx('bypass')).reason, /a link to .*\.env.*Read\(\.env\)/);
  assert.equal(decide('Read', { file_path: 'notes' }, ctx('normal')).behavior, 'ask', 'a link to a file outside the project is outside');
  assert.equal(decide('Write', { file_path: 'src/out/x' }, ctx('auto-accept')).behavior, 'ask');
  assert.equal(decide('Write', { file_path: 'src/b.ts' }, ctx('auto-accept')).behavior, 'allow');
  assert.equal(decide('Read', { file_path: 'src/a.ts' }, ctx('normal')).behavior, 'allow');
});

test('Bash arguments and redirections through a symlink meet the rules of where it leads', () => {
  const { bash, none } = setup();
  assert.equal(bash('cat envlink', 'bypass').behavior, 'deny');
  assert.equal(bash('echo x > linkfile', 'bypass').behavior, 'deny');
  assert.equal(bash('echo x > link/new', 'bypass').behavior, 'deny');
  assert.equal(bash('cat sub/../envlink', 'bypass').behavior, 'deny');
  assert.equal(bash('cat notes', 'normal', none).behavior, 'ask', 'read-only, but it reads outside the project');
  assert.equal(bash('cat src/out/id_rsa', 'normal', none).behavior, 'ask');
  assert.equal(bash('cat src/*', 'normal', none).behavior, 'ask', 'src/* expands to a link that leads outside');
  assert.equal(bash('cat src/*.ts', 'normal', none).behavior, 'allow');
  assert.equal(bash('cat src/o*/../id_rsa', 'normal', none).behavior, 'ask', '`..` after a glob that matches a link leads outside');
  assert.equal(bash('cat src/a.ts', 'normal', none).behavior, 'allow');
});

test('a glob is decided on what it expands to on disk', () => {
  const { bash } = setup();
  assert.equal(bash('cat *', 'bypass').behavior, 'deny', '* expands to envlink');
  assert.equal(bash('cat .e*', 'bypass').behavior, 'deny');
  assert.equal(bash('cat ?nvlink', 'bypass').behavior, 'deny');
  assert.equal(bash('cat *.ts', 'bypass').behavior, 'allow');
  assert.equal(bash('wc -l *.ts', 'normal').behavior, 'allow');
  assert.equal(bash('ls *.ts', 'normal').behavior, 'allow');
});

test('brace expansion', () => {
  assert.deepEqual(expandBraces('a{b,c}d'), ['abd', 'acd']);
  assert.deepEqual(expandBraces('{.env,x}'), ['.env', 'x']);
  assert.deepEqual(expandBraces('a{,../../etc/passwd}'), ['a', 'a../../etc/passwd']);
  assert.deepEqual(expandBraces('{a,b{1..3}}'), ['a', 'b1', 'b2', 'b3']);
  assert.deepEqual(expandBraces('{x}'), ['{x}']);
  assert.deepEqual(expandBraces('{}'), ['{}']);
  assert.deepEqual(expandBraces('{c..a}'), ['c', 'b', 'a']);
  assert.equal(expandBraces('{1..9}{1..9}{1..9}'), undefined, 'too many words');
});

/** Review fixes (session 3): a glob with more matches than are expanded is decided on its pattern. */
test('a glob cut short at the expansion cap is checked against deny rules by pattern', async () => {
  const { GLOB_LIMIT, DECISION_BUDGET, fsLookup, lookStats } = await import('../../src/permissions/look.ts');
  const { dir, home } = makeProject({ 'a.ts': '1\n' });
  for (let i = 0; i <= GLOB_LIMIT + 100; i++) mkdirSync(`${dir}/big/${String(i).padStart(4, '0')}`, { recursive: true });
  const last = `${dir}/big/${String(GLOB_LIMIT + 100).padStart(4, '0')}`;
  writeFileSync(`${last}/.env`, 'KEY=1\n');
  writeFileSync(`${last}/key.pem`, 'PRIVATE\n');
  const run = (command: string, deny: string[], mode: PermissionMode = 'bypass', look = fsLookup) =>
    decide(
      'Bash',
      { command },
      {
        mode,
        projectRoot: dir,
        additionalDirs: [],
        home,
        rules: buildRules([{ kind: 'deny', rules: deny, source: 't' }]).rules,
        shell: splitCommand(command),
        look,
      },
    );
  assert.equal(run('cat big/*/.env', ['Read(**/.env)']).behavior, 'deny');
  assert.equal(run('cat big/*/.e*', ['Read(**/.env)']).behavior, 'deny');
  assert.equal(run('cat big/*/*.pem', ['Read(*.pem)']).behavior, 'deny');
  assert.equal(run('cat big/*/*.pem', ['Read(big/**/*.pem)']).behavior, 'deny');
  assert.equal(run('cat big/*/*.ts', ['Read(**/.env)']).behavior, 'allow'); // the pattern cannot name .env
  // No read-only approval for what was not looked at.
  assert.equal(run('ls big/*/x', [], 'normal').behavior, 'ask');

  // Work is bounded: one directory read for `big/*/.env`; a decision's globs stop at its budget.
  lookStats.readdirs = 0;
  run('ls big/*/.env', [], 'normal');
  assert.equal(lookStats.readdirs, 1);
  let returned = 0;
  const counting = {
    ...fsLookup,
    glob: (p: string, dot: boolean, limit?: number) => {
      const r = fsLookup.glob(p, dot, limit);
      returned += r.paths.length;
      return r;
    },
  };
  const d = run('ls big/* big/*/ big/?* big/[0-9]* big/*[0-9] big/0* big/1*', [], 'normal', counting);
  assert.ok(returned <= DECISION_BUDGET, `${returned} paths expanded`);
  assert.equal(d.behavior, 'ask');
});
