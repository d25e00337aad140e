import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { expandImports } from '../../src/context/imports.ts';
import { loadMemory, memoryDirs, memorySection } from '../../src/context/memory.ts';
import { makeProject } from '../fakes/project.ts';

function put(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

test('order: user, then repository root down to cwd, ASSISTANT.local.md after ASSISTANT.md in each directory', () => {
  const { dir, home } = makeProject({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'ASSISTANT.md': 'root rules',
    'ASSISTANT.local.md': 'root private',
    'pkg/ASSISTANT.md': 'pkg rules',
    'pkg/app/ASSISTANT.md': 'app rules',
    'pkg/app/ASSISTANT.local.md': 'app private',
    'other/ASSISTANT.md': 'not on the way',
  });
  put(home, { '.assistant/ASSISTANT.md': 'user prefs' });
  const cwd = join(dir, 'pkg', 'app');
  const r = loadMemory({ cwd, home });
  assert.deepEqual(
    r.files.map((f) => [f.path, f.scope, f.content]),
    [
      [join(home, '.assistant/ASSISTANT.md'), 'user', 'user prefs'],
      [join(dir, 'ASSISTANT.md'), 'project', 'root rules'],
      [join(dir, 'ASSISTANT.local.md'), 'local', 'root private'],
      [join(dir, 'pkg/ASSISTANT.md'), 'project', 'pkg rules'],
      [join(cwd, 'ASSISTANT.md'), 'project', 'app rules'],
      [join(cwd, 'ASSISTANT.local.md'), 'local', 'app private'],
    ],
  );
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.notices, []);

  const section = memorySection(r.files);
  const at = (s: string) => section.indexOf(s);
  assert.ok(
    at('user prefs') < at('root rules') &&
      at('root rules') < at('root private') &&
      at('pkg rules') < at('app rules') &&
      at('app rules') < at('app private'),
  );
  assert.match(section, new RegExp(`## ${join(dir, 'pkg/ASSISTANT.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(project instructions`));
  assert.equal(memorySection([]), '');
});

test('without a repository only the working directory is read', () => {
  const { dir, home } = makeProject({ 'ASSISTANT.md': 'parent', 'sub/ASSISTANT.md': 'here' });
  const cwd = join(dir, 'sub');
  assert.deepEqual(memoryDirs(cwd), [cwd]);
  assert.deepEqual(
    loadMemory({ cwd, home }).files.map((f) => f.content),
    ['here'],
  );
  assert.deepEqual(loadMemory({ cwd: dir, home }).files, [{ path: join(dir, 'ASSISTANT.md'), scope: 'project', content: 'parent' }]);
});

test('imports: relative to the importing file, ~/…, absolute, recursive, with trailing punctuation', () => {
  const { dir, home } = makeProject({
    'docs/style.md': 'Style: @nested/deep.md\n',
    'docs/nested/deep.md': 'deep text\n',
    'abs.md': 'absolute text',
  });
  writeFileSync(join(dir, 'ASSISTANT.md'), `# Rules\n@docs/style.md\nPersonal: @~/.assistant/prefs.md. Abs: @${join(dir, 'abs.md')}\n`);
  put(home, { '.assistant/prefs.md': 'tabs please\n' });
  const r = loadMemory({ cwd: dir, home });
  assert.deepEqual(r.warnings, []);
  assert.equal(r.files[0].content, '# Rules\nStyle: deep text\nPersonal: tabs please. Abs: absolute text\n');
});

test('imports nest at most 5 deep', () => {
  const files: Record<string, string> = { 'ASSISTANT.md': 'top @l1.md' };
  for (let i = 1; i <= 7; i++) files[`l${i}.md`] = `level${i} @l${i + 1}.md`;
  const { dir, home } = makeProject(files);
  const r = loadMemory({ cwd: dir, home });
  assert.equal(r.files[0].content, 'top level1 level2 level3 level4 level5 @l6.md');
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /l5\.md: @l6\.md: imports nest more than 5 deep/);
});

test('an import cycle is reported and not inlined twice', () => {
  const { dir, home } = makeProject({ 'ASSISTANT.md': 'top @a.md', 'a.md': 'A @b.md', 'b.md': 'B @a.md and @ASSISTANT.md' });
  const r = loadMemory({ cwd: dir, home });
  assert.equal(r.files[0].content, 'top A B @a.md and @ASSISTANT.md');
  assert.equal(r.warnings.length, 2);
  assert.ok(
    r.warnings.every((w) => /import cycle/.test(w)),
    r.warnings.join('\n'),
  );
});

test('no imports inside code blocks or code spans; e-mail addresses and @words are not imports', () => {
  const text = [
    'Mail me at dev@example.com, ping @team. Use @types/node.',
    '```sh',
    'cat @docs/x.md',
    '```',
    'Inline `@docs/x.md` stays, ``also @docs/x.md`` stays.',
    '~~~',
    '@docs/x.md',
    '~~~',
    'But @docs/x.md is imported.',
  ].join('\n');
  const { dir, home } = makeProject({ 'ASSISTANT.md': text, 'docs/x.md': 'X' });
  const r = loadMemory({ cwd: dir, home });
  assert.deepEqual(r.warnings, []);
  assert.equal(r.files[0].content, text.replace('But @docs/x.md', 'But X'));
});

test('a missing import is a warning and stays as text; a binary one too', () => {
  const { dir, home } = makeProject({ 'ASSISTANT.md': 'See @docs/gone.md and @blob.dat', 'blob.dat': 'a\0b' });
  const r = loadMemory({ cwd: dir, home });
  assert.equal(r.files[0].content, 'See @docs/gone.md and @blob.dat');
  assert.equal(r.warnings.length, 2);
  assert.match(r.warnings[0], /ASSISTANT\.md: @docs\/gone\.md: no such file to import/);
  assert.match(r.warnings[1], /@blob\.dat: cannot import .*binary/);
});

test('project files import only from the project and ~/.assistant/; the user file from anywhere', () => {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-outside-')));
  writeFileSync(join(outside, 'secret.md'), 'SECRET');
  const { dir, home } = makeProject({ '.git/HEAD': 'x', 'ASSISTANT.md': `@${join(outside, 'secret.md')}` });
  put(home, { '.assistant/ASSISTANT.md': `@${join(outside, 'secret.md')}` });
  const r = loadMemory({ cwd: dir, home });
  assert.equal(r.files[0].content, 'SECRET');
  assert.equal(r.files[1].content, `@${join(outside, 'secret.md')}`);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /outside the project, so it is not imported/);
});

test('expandImports on its own: depth option and imported list', () => {
  const { dir, home } = makeProject({ 'a.md': 'A @b.md', 'b.md': 'B @c.md', 'c.md': 'C' });
  const r = expandImports('x @a.md', join(dir, 'top.md'), { home, maxDepth: 2 });
  assert.equal(r.text, 'x A B @c.md');
  assert.deepEqual(r.imported, [join(dir, 'a.md'), join(dir, 'b.md')]);
  assert.equal(r.warnings.length, 1);
});

test('fallback: AGENTS.md (preferred) or CLAUDE.md when there is no ASSISTANT.md, with a notice', () => {
  const { dir, home } = makeProject({
    '.git/HEAD': 'x',
    'AGENTS.md': 'agents root',
    'CLAUDE.md': 'claude root',
    'sub/CLAUDE.md': 'claude sub @AGENTS.md',
    'sub/AGENTS.md': 'agents sub',
    'deeper/CLAUDE.md': 'claude deeper',
    'deeper/ASSISTANT.local.md': 'mine',
  });
  const r = loadMemory({ cwd: join(dir, 'deeper'), home });
  assert.deepEqual(
    r.files.map((f) => [f.path, f.content]),
    [
      [join(dir, 'AGENTS.md'), 'agents root'],
      [join(dir, 'deeper/CLAUDE.md'), 'claude deeper'],
      [join(dir, 'deeper/ASSISTANT.local.md'), 'mine'],
    ],
  );
  assert.equal(r.notices.length, 2);
  assert.match(r.notices[0], /No ASSISTANT\.md found; using .*AGENTS\.md instead.*rename it/i);
  // CLAUDE.md may import AGENTS.md, the usual arrangement.
  const sub = loadMemory({ cwd: join(dir, 'sub'), home });
  assert.deepEqual(
    sub.files.map((f) => f.content),
    ['agents root', 'agents sub'],
  );
});

test('one ASSISTANT.md anywhere on the way turns the fallback off', () => {
  const { dir, home } = makeProject({ '.git/HEAD': 'x', 'AGENTS.md': 'agents', 'sub/ASSISTANT.md': 'ours' });
  const r = loadMemory({ cwd: join(dir, 'sub'), home });
  assert.deepEqual(
    r.files.map((f) => f.content),
    ['ours'],
  );
  assert.deepEqual(r.notices, []);
});

test('size cap: the file crossing the limit is cut with a visible note, later ones left out, one warning', () => {
  const line = 'x'.repeat(99) + '\n';
  const { dir, home } = makeProject({ '.git/HEAD': 'x', 'ASSISTANT.md': line.repeat(300), 'ASSISTANT.local.md': line.repeat(150) });
  put(home, { '.assistant/ASSISTANT.md': 'short' });
  const r = loadMemory({ cwd: dir, home });
  assert.equal(r.files[0].content, 'short');
  assert.equal(r.files[1].content, line.repeat(300));
  assert.ok(r.files[2].content.startsWith(line.repeat(99)));
  assert.match(
    r.files[2].content,
    /\[… \d+ characters of .*ASSISTANT\.local\.md left out: the ASSISTANT\.md files are over the limit of 40000 characters in all\]$/,
  );
  const body = r.files.reduce((n, f) => n + f.content.replace(/\n\n\[…[^\]]*\]$/, '').length, 0);
  assert.ok(body <= 40_000, String(body));
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /45005 characters, over the limit of 40000/);

  const small = loadMemory({ cwd: dir, home, maxBytes: 3 });
  assert.equal(small.files[0].content.slice(0, 4), 'sho\n');
  assert.match(small.files[1].content, /^\[… 30000 characters of/);
});

test('a memory path that is not a file is a warning, never a throw', () => {
  const { dir, home } = makeProject({ 'ASSISTANT.md': 'ok' });
  mkdirSync(join(dir, 'ASSISTANT.local.md'));
  const r = loadMemory({ cwd: dir, home });
  assert.deepEqual(
    r.files.map((f) => f.content),
    ['ok'],
  );
  assert.match(r.warnings[0], /ASSISTANT\.local\.md is not a regular file/);
});
