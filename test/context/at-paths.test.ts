import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type AttachContext, attachmentText, type Expansion, expandAtPaths } from '../../src/context/at-paths.ts';
import { scanAtTokens } from '../../src/context/at-tokens.ts';
import { editTool } from '../../src/tools/edit.ts';
import { isInside } from '../../src/fs/paths.ts';
import { makeProject } from '../fakes/project.ts';

const lines = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n') + '\n';

function ctxFor(dir: string, home: string, over: Partial<AttachContext> = {}): AttachContext {
  return { cwd: dir, home, fileState: new Map(), canRead: (p) => (isInside(dir, p) ? 'allow' : 'ask'), ...over };
}

function ok(e: Expansion) {
  if (!e.ok) assert.fail(`expected ok, got errors: ${e.errors.join('; ')}`);
  return e;
}

/** The references in a prompt, as written: each token's plain reading. */
const findAtPaths = (prompt: string) =>
  scanAtTokens(prompt).map(({ fallback: { ref, path, start, end } }) => (start === undefined ? { ref, path } : { ref, path, start, end }));

test('findAtPaths: the forms, without touching the disk', () => {
  const prompt =
    'Fix @src/a.ts, see @src/a.ts:40-80 and @b.md:7. Dir @src/ and @"my notes/file one.md" ' +
    "and @'x y.txt':3-4, @~/notes.md, @/etc/hosts. Mail a@b.com, `@code.ts`, a bare @ and @team.";
  assert.deepEqual(findAtPaths(prompt), [
    { ref: '@src/a.ts', path: 'src/a.ts' },
    { ref: '@src/a.ts:40-80', path: 'src/a.ts', start: 40, end: 80 },
    { ref: '@b.md:7', path: 'b.md', start: 7, end: 7 },
    { ref: '@src/', path: 'src/' },
    { ref: '@"my notes/file one.md"', path: 'my notes/file one.md' },
    { ref: "@'x y.txt':3-4", path: 'x y.txt', start: 3, end: 4 },
    { ref: '@~/notes.md', path: '~/notes.md' },
    { ref: '@/etc/hosts', path: '/etc/hosts' },
    { ref: '@team', path: 'team' },
  ]);
  assert.deepEqual(findAtPaths('```\n@a.ts\n```\n(@b.ts)'), [{ ref: '@b.ts', path: 'b.ts' }]);
});

test('a file is attached with numbered lines, counts as read, and Edit then accepts it', async () => {
  const { dir, home } = makeProject({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n' });
  const ctx = ctxFor(dir, home);
  const prompt = 'Rename b in @src/a.ts, please.';
  const r = ok(await expandAtPaths(prompt, ctx));
  assert.equal(r.prompt, prompt);
  const abs = join(dir, 'src/a.ts');
  assert.deepEqual(r.attachments, [
    {
      ref: '@src/a.ts',
      path: abs,
      kind: 'file',
      text: 'Contents of src/a.ts (lines 1-2 of 2):\n     1\tconst a = 1;\n     2\tconst b = 2;',
    },
  ]);
  assert.equal(attachmentText(r.attachments), r.attachments[0].text);
  const st = await stat(abs);
  assert.deepEqual(ctx.fileState.get(abs), { mtimeMs: st.mtimeMs, size: st.size, content: 'const a = 1;\nconst b = 2;\n' });

  const toolCtx = { cwd: dir, signal: new AbortController().signal, fileState: ctx.fileState, shell: { cwd: dir }, env: {} };
  const edit = await editTool.execute({ file_path: abs, old_string: 'const b = 2;', new_string: 'const c = 2;' }, toolCtx);
  assert.equal(edit.isError, undefined, edit.output);
  assert.equal(await readFile(abs, 'utf8'), 'const a = 1;\nconst c = 2;\n');
});

test('line ranges: @file:40-80 and @file:40; a range past the end is an error', async () => {
  const { dir, home } = makeProject({ 'big.txt': lines(100) });
  const ctx = ctxFor(dir, home);
  const r = ok(await expandAtPaths('@big.txt:40-42 and @big.txt:99-150 and @big.txt:7.', ctx));
  assert.deepEqual(
    r.attachments.map((a) => [a.kind, a.text]),
    [
      ['range', 'Contents of big.txt (lines 40-42 of 100):\n    40\tline 40\n    41\tline 41\n    42\tline 42'],
      ['range', 'Contents of big.txt (lines 99-100 of 100):\n    99\tline 99\n   100\tline 100'],
      ['range', 'Contents of big.txt (lines 7-7 of 100):\n     7\tline 7'],
    ],
  );
  assert.ok(ctx.fileState.has(join(dir, 'big.txt')));
  const bad = await expandAtPaths('@big.txt:200-210 @big.txt:9-3', ctx);
  assert.deepEqual(bad, {
    ok: false,
    errors: [
      '@big.txt:200-210: big.txt has only 100 lines, fewer than line 200',
      '@big.txt:9-3: not a valid line range (lines are numbered from 1; write @file:40-80 or @file:40)',
    ],
  });
});

test('a directory attaches its listing, like LS', async () => {
  const { dir, home } = makeProject({ 'src/a.ts': '', 'src/lib/b.ts': '', '.gitignore': 'src/skip.log\n', 'src/skip.log': '' });
  const ctx = ctxFor(dir, home);
  for (const ref of ['@src', '@src/']) {
    const r = ok(await expandAtPaths(`look at ${ref}`, ctx));
    assert.equal(r.attachments[0].kind, 'directory');
    assert.equal(r.attachments[0].text, `Listing of src/:\n- ${join(dir, 'src')}/\n  - lib/\n    - b.ts\n  - a.ts`);
  }
  assert.equal(ctx.fileState.size, 0, 'a listing reads no file');
});

test('quoted paths with spaces, ~/ paths and absolute paths', async () => {
  const { dir, home } = makeProject({ 'my notes/file one.md': 'hello\nworld\n' });
  writeFileSync(join(home, 'notes.md'), 'home note\n');
  const ctx = ctxFor(dir, home, { canRead: () => 'allow' });
  const r = ok(
    await expandAtPaths(`@"my notes/file one.md" @'my notes/file one.md':2 @~/notes.md @"${join(dir, 'my notes/file one.md')}"`, ctx),
  );
  assert.deepEqual(
    r.attachments.map((a) => [a.ref, a.kind, a.text.split('\n')[0]]),
    [
      ['@"my notes/file one.md"', 'file', 'Contents of my notes/file one.md (lines 1-2 of 2):'],
      ["@'my notes/file one.md':2", 'range', 'Contents of my notes/file one.md (lines 2-2 of 2):'],
      ['@~/notes.md', 'file', `Contents of ${join(home, 'notes.md')} (lines 1-1 of 1):`],
    ],
    'the absolute reference to an already attached file is attached once',
  );
});

test('not references: e-mail, code spans and blocks, a bare @, @word that does not exist', async () => {
  const { dir, home } = makeProject({ team: 'the team file\n' });
  const ctx = ctxFor(dir, home);
  const prompt = 'mail bob@example.com about `@missing.ts`, @ noon, @someone\n```\n@gone/x.ts\n```';
  const r = ok(await expandAtPaths(prompt, ctx));
  assert.deepEqual(r.attachments, []);
  // A stray backtick or an unclosed quote hides nothing after it.
  const stray = ok(await expandAtPaths('a ` here, @"unclosed and @team', ctx));
  assert.deepEqual(
    stray.attachments.map((a) => a.ref),
    ['@team'],
  );
  // A scoped npm package is not a path unless its first directory exists.
  const pkg = ok(await expandAtPaths('upgrade @types/node and @ai-sdk/openai-compatible', ctx));
  assert.deepEqual(pkg.attachments, []);
  // A word with no `/` or `.` is a reference when it exists.
  const t = ok(await expandAtPaths('ask @team', ctx));
  assert.deepEqual(
    t.attachments.map((a) => a.ref),
    ['@team'],
  );
});

test('trailing punctuation is not part of the path unless a file with it exists', async () => {
  const { dir, home } = makeProject({ 'a.ts': 'A\n', 'odd.': 'odd\n' });
  const ctx = ctxFor(dir, home);
  const r = ok(await expandAtPaths('(see @a.ts), then @a.ts: and @odd.', ctx));
  assert.deepEqual(
    r.attachments.map((a) => [a.ref, a.path]),
    [
      ['@a.ts', join(dir, 'a.ts')],
      ['@odd.', join(dir, 'odd.')],
    ],
  );
});

test('missing paths: every one reported, nothing attached, file state untouched', async () => {
  const { dir, home } = makeProject({ 'src/app.ts': 'x\n' });
  const ctx = ctxFor(dir, home);
  const r = await expandAtPaths('@src/app.ts @src/apps.ts and @docs/none.md, @"no such.md" @src/main', ctx);
  assert.deepEqual(r, {
    ok: false,
    errors: [
      '@src/apps.ts: no such file (did you mean @src/app.ts?)',
      '@docs/none.md: no such file',
      '@"no such.md": no such file',
      '@src/main: no such file',
    ],
  });
  assert.equal(ctx.fileState.size, 0);
});

test('outside the project: needs canRead allow; deny rules apply inside too', async () => {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-outside-')));
  writeFileSync(join(outside, 'x.md'), 'X\n');
  const { dir, home } = makeProject({ '.env': 'SECRET=1\n' });
  const seen: string[] = [];
  const rules = (p: string) => {
    seen.push(p);
    return p.endsWith('.env') ? ('deny' as const) : isInside(dir, p) ? ('allow' as const) : ('ask' as const);
  };
  const r = await expandAtPaths(`@${join(outside, 'x.md')} @.env`, ctxFor(dir, home, { canRead: rules }));
  assert.deepEqual(r, {
    ok: false,
    errors: [`@${join(outside, 'x.md')}: outside the project; allow it with --add-dir or a Read rule`, '@.env: denied by a Read rule'],
  });
  assert.ok(seen.includes(join(outside, 'x.md')));
  // A link inside the project to a file outside it is judged by both names.
  symlinkSync(join(outside, 'x.md'), join(dir, 'link.md'));
  assert.deepEqual(await expandAtPaths('@link.md', ctxFor(dir, home)), {
    ok: false,
    errors: ['@link.md: outside the project; allow it with --add-dir or a Read rule'],
  });
  const allowed = ok(await expandAtPaths(`@${join(outside, 'x.md')}`, ctxFor(dir, home, { canRead: () => 'allow' })));
  assert.equal(allowed.attachments[0].text, `Contents of ${join(outside, 'x.md')} (lines 1-1 of 1):\n     1\tX`);
});

test('binary files are refused; an image is attached as an image, unless the model takes none', async () => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const { dir, home } = makeProject({ 'data.bin2': 'ab\0cd', 'logo.png': 'not really', 'scan.tiff': 'x' });
  writeFileSync(join(dir, 'dot.png'), png);
  const r = await expandAtPaths('@data.bin2 @logo.png @scan.tiff', ctxFor(dir, home));
  assert.deepEqual(r, {
    ok: false,
    errors: [
      '@data.bin2: data.bin2 looks like a binary file (it contains NUL bytes); only text files can be attached',
      '@logo.png: logo.png is not a PNG, JPEG, GIF or WebP image (its bytes say otherwise)',
      '@scan.tiff: scan.tiff is an image (.tiff); only text files can be attached',
    ],
  });
  const img = ok(await expandAtPaths('look at @dot.png', ctxFor(dir, home)));
  assert.equal(img.attachments[0].kind, 'image');
  assert.deepEqual(img.attachments[0].image, { mediaType: 'image/png', data: png.toString('base64') });
  assert.match(img.attachments[0].text, /^Image dot\.png \(PNG, 1×1, 0 KB\) is attached to this message\.$/);
  const refused = await expandAtPaths('@dot.png', ctxFor(dir, home, { imagesRefused: 'the model m does not take images' }));
  assert.deepEqual(refused, { ok: false, errors: ['@dot.png: dot.png is an image, and the model m does not take images'] });
});

test('a large file is attached in part, with a note on reading the rest with Read', async () => {
  const { dir, home } = makeProject({ 'long.txt': lines(3000) });
  const ctx = ctxFor(dir, home);
  const r = ok(await expandAtPaths('@long.txt', ctx));
  const text = r.attachments[0].text;
  assert.match(text, /^Contents of long\.txt \(lines 1-2000 of 3000\):\n {5}1\tline 1\n/);
  assert.match(
    text,
    / 2000\tline 2000\n\n\(Attached in part: the attachment limit is 2000 lines\. long\.txt has 3000 lines; to read more, call the Read tool with file_path ".*long\.txt" and offset 2001\.\)$/,
  );
  assert.ok(!text.includes('line 2001'));
  assert.equal(ctx.fileState.get(join(dir, 'long.txt'))?.content, lines(3000), 'recorded like a Read of the first page');

  const bytes = ok(await expandAtPaths('@long.txt:10-20', ctxFor(dir, home, { maxBytes: 45 })));
  assert.equal(
    bytes.attachments[0].text.split('\n').slice(0, 4).join('\n'),
    'Contents of long.txt (lines 10-12 of 3000):\n    10\tline 10\n    11\tline 11\n    12\tline 12',
  );
  assert.match(bytes.attachments[0].text, /limit is 45 bytes.*offset 13\.\)$/);
});

test('a file over 1 MB is paged from disk like Read does', async () => {
  const { dir, home } = makeProject({ 'huge.log': lines(120_000, 'entry') });
  const ctx = ctxFor(dir, home);
  const r = ok(await expandAtPaths('@huge.log:100000-100001', ctx));
  assert.equal(r.attachments[0].text, 'Contents of huge.log (lines 100000-100001 of 120000):\n100000\tentry 100000\n100001\tentry 100001');
  const snap = ctx.fileState.get(join(dir, 'huge.log'));
  assert.ok(snap && snap.content === undefined && snap.size > 1024 * 1024);
});

test('an empty file and a duplicate reference', async () => {
  const { dir, home } = makeProject({ 'empty.txt': '', 'a.txt': 'a\n' });
  const r = ok(await expandAtPaths('@empty.txt @a.txt @a.txt', ctxFor(dir, home)));
  assert.deepEqual(
    r.attachments.map((a) => a.text),
    ['Contents of empty.txt: (the file is empty)', 'Contents of a.txt (lines 1-1 of 1):\n     1\ta'],
  );
  assert.equal(attachmentText(r.attachments), `${r.attachments[0].text}\n\n${r.attachments[1].text}`);
  assert.equal(attachmentText([]), '');
});
