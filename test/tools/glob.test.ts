import assert from 'node:assert/strict';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { globTool } from '../../src/tools/glob.ts';
import { makeCtx, tempDir } from './helpers.ts';

async function project(): Promise<string> {
  const dir = await tempDir('glob-');
  await mkdir(join(dir, 'src/deep'), { recursive: true });
  await mkdir(join(dir, 'dist'));
  await writeFile(join(dir, '.gitignore'), 'dist/\n*.log\n');
  const files = ['top.ts', 'src/old.ts', 'src/mid.ts', 'src/deep/new.ts', 'src/style.css', 'dist/bundle.ts', 'src/debug.log'];
  const t = Date.now() / 1000;
  for (const [i, f] of files.entries()) {
    await writeFile(join(dir, f), `// ${f}\n`);
    await utimes(join(dir, f), t - 1000 + i * 10, t - 1000 + i * 10);
  }
  return dir;
}

test("Glob matches paths, newest first, skipping .gitignore'd files", async () => {
  const dir = await project();
  const r = await globTool.execute({ pattern: '**/*.ts' }, makeCtx(dir));
  assert.equal(r.output, 'src/deep/new.ts\nsrc/mid.ts\nsrc/old.ts\ntop.ts');
  const resp = r.response as { filenames: string[]; numFiles: number; truncated: boolean; durationMs: number };
  assert.deepEqual(resp.filenames, ['src/deep/new.ts', 'src/mid.ts', 'src/old.ts', 'top.ts']);
  assert.equal(resp.numFiles, 4);
  assert.equal(resp.truncated, false);
  assert.equal(typeof resp.durationMs, 'number');
  // A newer mtime moves a file to the front.
  await utimes(join(dir, 'top.ts'), new Date(), new Date(Date.now() + 60_000));
  const again = await globTool.execute({ pattern: '**/*.ts' }, makeCtx(dir));
  assert.equal(again.output.split('\n')[0], 'top.ts');
  const logs = await globTool.execute({ pattern: '**/*.log' }, makeCtx(dir));
  assert.equal(logs.output, 'No files found');
});

test('Glob: * stays in one directory; a literal prefix and path narrow the search', async () => {
  const dir = await project();
  const ctx = makeCtx(dir);
  assert.equal((await globTool.execute({ pattern: '*.ts' }, ctx)).output, 'top.ts');
  assert.equal((await globTool.execute({ pattern: 'src/*.ts' }, ctx)).output, 'src/mid.ts\nsrc/old.ts');
  assert.equal((await globTool.execute({ pattern: '*.{ts,css}', path: 'src' }, ctx)).output, 'src/style.css\nsrc/mid.ts\nsrc/old.ts');
  assert.equal((await globTool.execute({ pattern: `${dir}/src/deep/*.ts` }, makeCtx('/'))).output, `${dir}/src/deep/new.ts`.slice(1));
  assert.equal((await globTool.execute({ pattern: 'src/mid.ts' }, ctx)).output, 'src/mid.ts');
});

test('Glob caps results at 100 with a note', async () => {
  const dir = await tempDir('glob-many-');
  for (let i = 0; i < 130; i++) await writeFile(join(dir, `f${String(i).padStart(3, '0')}.txt`), '');
  const r = await globTool.execute({ pattern: '*.txt' }, makeCtx(dir));
  assert.equal(r.output.split('\n\n')[0].split('\n').length, 100);
  assert.match(r.output, /Results are truncated: showing the 100 most recently modified of 130 files/);
  assert.equal((r.response as { truncated: boolean }).truncated, true);
});

test('Glob refuses a missing directory or a file as path', async () => {
  const dir = await project();
  const missing = await globTool.execute({ pattern: '*', path: 'nope' }, makeCtx(dir));
  assert.equal(missing.isError, true);
  assert.match(missing.output, /does not exist/);
  const file = await globTool.execute({ pattern: '*', path: 'top.ts' }, makeCtx(dir));
  assert.equal(file.isError, true);
  assert.match(file.output, /is a file/);
});
