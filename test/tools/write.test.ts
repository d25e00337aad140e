import assert from 'node:assert/strict';
import { chmod, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTool } from '../../src/tools/read.ts';
import { writeTool } from '../../src/tools/write.ts';
import { makeCtx, tempDir } from './helpers.ts';

test('Write creates a new file and its parent directories', async () => {
  const dir = await tempDir();
  const changes: Array<[string, string | null]> = [];
  const ctx = makeCtx(dir, { beforeChange: (p, prev) => changes.push([p, prev === null ? null : Buffer.from(prev).toString('utf8')]) });
  const r = await writeTool.execute({ file_path: 'deep/er/new.txt', content: 'hello\nworld\n' }, ctx);
  assert.equal(r.isError, undefined);
  const abs = join(dir, 'deep/er/new.txt');
  assert.equal(await readFile(abs, 'utf8'), 'hello\nworld\n');
  assert.match(r.output, /created/);
  assert.deepEqual(changes, [[abs, null]]);
  assert.equal((r.response as { type: string }).type, 'create');
  assert.equal(ctx.fileState.get(abs)?.content, 'hello\nworld\n');
});

test('Write refuses to replace a file that was not read in this session', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'keep.txt'), 'precious');
  const r = await writeTool.execute({ file_path: 'keep.txt', content: 'oops' }, makeCtx(dir));
  assert.equal(r.isError, true);
  assert.equal(r.output, 'File has not been read yet. Read it first before writing to it.');
  assert.equal(await readFile(join(dir, 'keep.txt'), 'utf8'), 'precious');
});

test('Write replaces a read file atomically, keeps its mode, leaves no temp files, reports a diff', async () => {
  const dir = await tempDir();
  const abs = join(dir, 'run.sh');
  await writeFile(abs, '#!/bin/sh\necho old\n');
  await chmod(abs, 0o751);
  const changes: Array<string | null> = [];
  const ctx = makeCtx(dir, { beforeChange: (_p, prev) => changes.push(prev === null ? null : Buffer.from(prev).toString('utf8')) });
  await readTool.execute({ file_path: abs }, ctx);
  const r = await writeTool.execute({ file_path: abs, content: '#!/bin/sh\necho new\n' }, ctx);
  assert.equal(r.isError, undefined, r.output);
  assert.equal(await readFile(abs, 'utf8'), '#!/bin/sh\necho new\n');
  assert.equal((await stat(abs)).mode & 0o777, 0o751);
  assert.deepEqual(await readdir(dir), ['run.sh']);
  assert.deepEqual(changes, ['#!/bin/sh\necho old\n']);
  const resp = r.response as { type: string; structuredPatch: Array<{ lines: string[] }> };
  assert.equal(resp.type, 'update');
  assert.deepEqual(
    resp.structuredPatch[0].lines.filter((l) => /^[+-]/.test(l)),
    ['-echo old', '+echo new'],
  );
  assert.match(r.display ?? '', /\+echo new/);
  // Written by us: a second write needs no new Read.
  const again = await writeTool.execute({ file_path: abs, content: 'third\n' }, ctx);
  assert.equal(again.isError, undefined, again.output);
});

test('Write refuses a file changed on disk since it was read', async () => {
  const dir = await tempDir();
  const abs = join(dir, 'f.txt');
  await writeFile(abs, 'v1\n');
  const ctx = makeCtx(dir);
  await readTool.execute({ file_path: abs }, ctx);
  await writeFile(abs, 'v2 from the user\n');
  await utimes(abs, new Date(), new Date(Date.now() + 5000));
  const r = await writeTool.execute({ file_path: abs, content: 'v3\n' }, ctx);
  assert.equal(r.isError, true);
  assert.match(r.output, /modified since it was last read/);
  assert.equal(await readFile(abs, 'utf8'), 'v2 from the user\n');
});

test('Write refuses a directory path', async () => {
  const dir = await tempDir();
  const r = await writeTool.execute({ file_path: dir, content: 'x' }, makeCtx(dir));
  assert.equal(r.isError, true);
  assert.match(r.output, /is a directory/);
});
