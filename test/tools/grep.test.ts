import assert from 'node:assert/strict';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { grepTool } from '../../src/tools/grep.ts';
import { makeCtx, tempDir } from './helpers.ts';

/** src/a.ts (oldest) … src/c.ts (newest), a gitignored build/ and a hidden .config file; no git repository. */
async function project(): Promise<string> {
  const dir = await tempDir('grep-');
  await mkdir(join(dir, 'src'));
  await mkdir(join(dir, 'build'));
  await writeFile(join(dir, '.gitignore'), 'build/\n');
  await writeFile(join(dir, 'src/a.ts'), 'export const Alpha = 1;\n// TODO: alpha\n');
  await writeFile(join(dir, 'src/b.js'), 'const beta = 2; // TODO beta\nconst todo = "lower";\n');
  await writeFile(join(dir, 'src/c.ts'), 'line one\nline two\nTODO: gamma\nline four\nline five\n');
  await writeFile(join(dir, 'build/out.ts'), '// TODO: generated\n');
  await writeFile(join(dir, '.config'), 'TODO hidden\n');
  const t = Date.now() / 1000;
  await utimes(join(dir, 'src/a.ts'), t - 300, t - 300);
  await utimes(join(dir, 'src/b.js'), t - 200, t - 200);
  await utimes(join(dir, 'src/c.ts'), t - 100, t - 100);
  await utimes(join(dir, '.config'), t - 400, t - 400);
  return dir;
}

test("Grep lists matching files, newest first, relative to cwd, skipping .gitignore'd files", async () => {
  const dir = await project();
  const r = await grepTool.execute({ pattern: 'TODO' }, makeCtx(dir));
  assert.equal(r.isError, undefined, r.output);
  assert.equal(r.output, 'Found 4 files\nsrc/c.ts\nsrc/b.js\nsrc/a.ts\n.config');
  assert.deepEqual(r.response, { mode: 'files_with_matches', filenames: ['src/c.ts', 'src/b.js', 'src/a.ts', '.config'], numFiles: 4 });
});

test('Grep content mode shows path:line:text, with -i and context', async () => {
  const dir = await project();
  const ctx = makeCtx(dir);
  const r = await grepTool.execute({ pattern: 'gamma', output_mode: 'content' }, ctx);
  assert.equal(r.output, 'src/c.ts:3:TODO: gamma');
  assert.deepEqual(r.response, { mode: 'content', numFiles: 0, filenames: [], content: 'src/c.ts:3:TODO: gamma', numLines: 1 });
  const ctxLines = await grepTool.execute({ pattern: 'gamma', output_mode: 'content', '-C': 1 }, ctx);
  assert.equal(ctxLines.output, 'src/c.ts-2-line two\nsrc/c.ts:3:TODO: gamma\nsrc/c.ts-4-line four');
  const after = await grepTool.execute({ pattern: 'gamma', output_mode: 'content', '-A': 2, '-n': false }, ctx);
  assert.equal(after.output, 'src/c.ts:TODO: gamma\nsrc/c.ts-line four\nsrc/c.ts-line five');
  const sensitive = await grepTool.execute({ pattern: 'todo', output_mode: 'content', path: 'src/b.js' }, ctx);
  assert.equal(sensitive.output, 'src/b.js:2:const todo = "lower";');
  const insensitive = await grepTool.execute({ pattern: 'todo', output_mode: 'content', path: 'src/b.js', '-i': true }, ctx);
  assert.equal(insensitive.output, 'src/b.js:1:const beta = 2; // TODO beta\nsrc/b.js:2:const todo = "lower";');
});

test('Grep count mode counts matches per file', async () => {
  const dir = await project();
  const r = await grepTool.execute({ pattern: 'line', output_mode: 'count', path: 'src' }, makeCtx(dir));
  assert.equal(r.output, 'src/c.ts:4\n\nFound 4 total matches across 1 file.');
  assert.equal((r.response as { numMatches: number }).numMatches, 4);
});

test('Grep glob and type filters', async () => {
  const dir = await project();
  const ctx = makeCtx(dir);
  const ts = await grepTool.execute({ pattern: 'TODO', glob: '*.ts' }, ctx);
  assert.equal(ts.output, 'Found 2 files\nsrc/c.ts\nsrc/a.ts');
  const both = await grepTool.execute({ pattern: 'TODO', glob: '*.{ts,js}' }, ctx);
  assert.equal((both.response as { numFiles: number }).numFiles, 3);
  const js = await grepTool.execute({ pattern: 'TODO', type: 'js' }, ctx);
  assert.equal(js.output, 'Found 1 file\nsrc/b.js');
});

test('Grep multiline lets a pattern span lines', async () => {
  const dir = await project();
  const ctx = makeCtx(dir);
  const single = await grepTool.execute({ pattern: 'one.line two', output_mode: 'content' }, ctx);
  assert.equal(single.output, 'No matches found');
  const multi = await grepTool.execute({ pattern: 'one.line two', output_mode: 'content', multiline: true }, ctx);
  assert.equal(multi.output, 'src/c.ts:1:line one\nsrc/c.ts:2:line two');
});

test('Grep reports no matches, a bad regex, a bad type and a missing path clearly', async () => {
  const dir = await project();
  const ctx = makeCtx(dir);
  const none = await grepTool.execute({ pattern: 'zzz-nothing' }, ctx);
  assert.equal(none.output, 'No matches found');
  assert.equal(none.isError, undefined);
  const bad = await grepTool.execute({ pattern: 'foo(' }, ctx);
  assert.equal(bad.isError, true);
  assert.match(bad.output, /ripgrep error: .*regex parse error.*escape literal/s);
  const badType = await grepTool.execute({ pattern: 'x', type: 'nosuchlang' }, ctx);
  assert.equal(badType.isError, true);
  assert.match(badType.output, /nosuchlang/);
  const missing = await grepTool.execute({ pattern: 'x', path: 'nope' }, ctx);
  assert.equal(missing.isError, true);
  assert.match(missing.output, /does not exist/);
});

test('Grep head_limit and the output cap', async () => {
  const dir = await tempDir('grep-big-');
  await writeFile(join(dir, 'many.txt'), Array.from({ length: 5000 }, (_, i) => `match ${i} ${'x'.repeat(40)}`).join('\n'));
  const ctx = makeCtx(dir);
  const limited = await grepTool.execute({ pattern: 'match', output_mode: 'content', head_limit: 3 }, ctx);
  assert.equal(
    limited.output.split('\n\n')[0],
    `many.txt:1:match 0 ${'x'.repeat(40)}\nmany.txt:2:match 1 ${'x'.repeat(40)}\nmany.txt:3:match 2 ${'x'.repeat(40)}`,
  );
  assert.match(limited.output, /4997 more not shown: head_limit=3/);
  const capped = await grepTool.execute({ pattern: 'match', output_mode: 'content' }, ctx);
  assert.ok(capped.output.length < 31_000, `${capped.output.length} chars`);
  assert.match(capped.output, /more not shown: output capped at 30000 characters/);
});

test('Grep stops when the signal is aborted', async () => {
  const dir = await project();
  const ac = new AbortController();
  ac.abort();
  const r = await grepTool.execute({ pattern: 'TODO' }, makeCtx(dir, { signal: ac.signal }));
  assert.equal(r.isError, true);
  assert.match(r.output, /interrupted/);
});

test('Grep with a pattern that starts with a dash', async () => {
  const dir = await tempDir('grep-dash-');
  await writeFile(join(dir, 'f.txt'), 'a --flag here\n');
  const r = await grepTool.execute({ pattern: '--flag', output_mode: 'content' }, makeCtx(dir));
  assert.equal(r.output, 'f.txt:1:a --flag here');
});

test('Grep head_limit in files mode keeps the newest files', async () => {
  const dir = await project();
  const r = await grepTool.execute({ pattern: 'TODO', head_limit: 2 }, makeCtx(dir));
  assert.equal(
    r.output,
    'Found 4 files\nsrc/c.ts\nsrc/b.js\n\n(Showing the first 2 files; 2 more not shown: head_limit=2. Narrow the search with path, glob or a more specific pattern.)',
  );
  assert.deepEqual(r.response, { mode: 'files_with_matches', filenames: ['src/c.ts', 'src/b.js'], numFiles: 2 });
  const one = await grepTool.execute({ pattern: 'TODO', head_limit: 1 }, makeCtx(dir));
  assert.match(one.output, /\(Showing the first file; 3 more not shown: head_limit=1\./);
});

test('Grep where no file is searched (a glob or type that matches none, an empty folder) finds no matches, not an error', async () => {
  const dir = await project();
  const ctx = makeCtx(dir);
  for (const input of [
    { pattern: 'TODO', glob: '*.py' },
    { pattern: 'TODO', type: 'py' },
    { pattern: 'TODO', glob: '*.py', output_mode: 'content' as const },
    { pattern: 'TODO', glob: '*.py', output_mode: 'count' as const },
  ]) {
    const r = await grepTool.execute(input, ctx);
    assert.equal(r.isError, undefined, `${JSON.stringify(input)}: ${r.output}`);
    assert.match(r.output, /^No matches found/, JSON.stringify(input));
  }
  const empty = await tempDir('grep-empty-');
  const r = await grepTool.execute({ pattern: 'x' }, makeCtx(empty));
  assert.equal(r.isError, undefined, r.output);
  assert.equal(r.output, 'No matches found');
});

test('count mode: the one-line display says "1 match in 1 file", singular where it is one (qa-spec2)', async () => {
  const dir = await project();
  const one = await grepTool.execute({ pattern: 'gamma', output_mode: 'count' }, makeCtx(dir));
  assert.equal(one.display, '1 match in 1 file');
  const many = await grepTool.execute({ pattern: 'TODO', output_mode: 'count' }, makeCtx(dir));
  assert.match(many.display ?? '', /^\d+ matches in \d+ files$/);
});
