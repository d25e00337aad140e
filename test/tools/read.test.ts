import assert from 'node:assert/strict';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTool } from '../../src/tools/read.ts';
import { makeCtx, tempDir } from './helpers.ts';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';

test('Read numbers lines like cat -n and records the file as read', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'a.txt'), 'alpha\nbeta\n\tgamma\n');
  const ctx = makeCtx(dir);
  const r = await readTool.execute({ file_path: 'a.txt' }, ctx);
  assert.equal(r.isError, undefined);
  assert.equal(r.output, '     1\talpha\n     2\tbeta\n     3\t\tgamma');
  const snap = ctx.fileState.get(join(dir, 'a.txt'));
  assert.ok(snap);
  assert.equal(snap.content, 'alpha\nbeta\n\tgamma\n');
  assert.deepEqual(r.response, {
    type: 'text',
    // Claude Code's shape: the final newline kept, the empty line after it counted.
    file: { filePath: join(dir, 'a.txt'), content: 'alpha\nbeta\n\tgamma\n', numLines: 4, startLine: 1, totalLines: 4 },
  });
});

test('Read pages long files and says how to read on', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'long.txt'), lines(2500));
  const ctx = makeCtx(dir);
  const first = await readTool.execute({ file_path: join(dir, 'long.txt') }, ctx);
  const rows = first.output.split('\n');
  assert.equal(rows[0], '     1\tline 1');
  assert.equal(rows[1999], '  2000\tline 2000');
  assert.match(first.output, /file has 2500 lines; showing 1-2000\. Read again with offset=2001 to continue\./);
  const second = await readTool.execute({ file_path: 'long.txt', offset: 2001 }, ctx);
  assert.match(second.output, /^  2001\tline 2001\n/);
  assert.match(second.output, /  2500\tline 2500$/);
  assert.doesNotMatch(second.output, /Read again/);
  const mid = await readTool.execute({ file_path: 'long.txt', offset: 10, limit: 3 }, ctx);
  assert.equal(mid.output.split('\n\n')[0], '    10\tline 10\n    11\tline 11\n    12\tline 12');
  assert.match(mid.output, /showing 10-12\. Read again with offset=13/);
  // offset 0 (models send it meaning "from the start") reads from line 1, as in Claude Code.
  const zero = await readTool.execute(readTool.schema.parse({ file_path: 'long.txt', offset: 0, limit: 2 }), ctx);
  assert.equal(zero.output.split('\n\n')[0], '     1\tline 1\n     2\tline 2');
  assert.throws(() => readTool.schema.parse({ file_path: 'x', offset: -1 }));
});

test('Read accepts offset and limit sent as strings (through the schema)', () => {
  const parsed = readTool.schema.parse({ file_path: 'x', offset: '5', limit: '10', junk: true });
  assert.deepEqual(parsed, { file_path: 'x', offset: 5, limit: 10 });
});

test('Read cuts lines longer than 2000 characters', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'wide.txt'), 'x'.repeat(5000) + '\nshort\n');
  const r = await readTool.execute({ file_path: 'wide.txt' }, makeCtx(dir));
  const [first, second] = r.output.split('\n');
  assert.equal(first, `     1\t${'x'.repeat(2000)} … [line truncated]`);
  assert.equal(second, '     2\tshort');
});

test('Read refuses binary files, by content and by extension', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'data.txt'), Buffer.from([104, 105, 0, 1, 2, 3]));
  await writeFile(join(dir, 'pic.png'), 'not really a png');
  const ctx = makeCtx(dir);
  const a = await readTool.execute({ file_path: 'data.txt' }, ctx);
  assert.equal(a.isError, true);
  assert.match(a.output, /binary/);
  const b = await readTool.execute({ file_path: 'pic.png' }, ctx);
  assert.equal(b.isError, true);
  assert.match(b.output, /image/);
  assert.equal(ctx.fileState.size, 0);
});

test('Read refuses a directory and points to LS', async () => {
  const dir = await tempDir();
  const r = await readTool.execute({ file_path: dir }, makeCtx(dir));
  assert.equal(r.isError, true);
  assert.match(r.output, /is a directory.*LS/);
});

test('Read of a missing file suggests similar names', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'config.json'), '{}');
  const r = await readTool.execute({ file_path: 'config.jsn' }, makeCtx(dir));
  assert.equal(r.isError, true);
  assert.match(r.output, /does not exist/);
  assert.match(r.output, /Did you mean config\.json\?/);
  const r2 = await readTool.execute({ file_path: 'nowhere/x.txt' }, makeCtx(dir));
  assert.match(r2.output, /directory .*nowhere does not exist/);
});

test('Read says when a file is empty and when offset is past the end', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'empty.txt'), '');
  await writeFile(join(dir, 'short.txt'), 'a\nb\n');
  const ctx = makeCtx(dir);
  const r = await readTool.execute({ file_path: 'empty.txt' }, ctx);
  assert.match(r.output, /is empty/);
  assert.ok(ctx.fileState.has(join(dir, 'empty.txt')));
  const past = await readTool.execute({ file_path: 'short.txt', offset: 10 }, ctx);
  assert.equal(past.isError, true);
  assert.match(past.output, /only 2 lines/);
});

test('Read strips CR from CRLF lines and counts an unterminated last line', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'crlf.txt'), 'one\r\ntwo\r\nthree');
  const r = await readTool.execute({ file_path: 'crlf.txt' }, makeCtx(dir));
  assert.equal(r.output, '     1\tone\n     2\ttwo\n     3\tthree');
});

test('Read streams a 50 MB file: first page and note, quickly, without keeping its content', async () => {
  const dir = await tempDir();
  const path = join(dir, 'big.log');
  const fh = await open(path, 'w');
  const block = lines(10_000, 'record'); // ~150 KB
  let written = 0;
  let blocks = 0;
  while (written < 50 * 1024 * 1024) {
    await fh.write(block);
    written += Buffer.byteLength(block);
    blocks++;
  }
  await fh.close();
  const ctx = makeCtx(dir);
  const started = performance.now();
  const r = await readTool.execute({ file_path: 'big.log' }, ctx);
  const ms = performance.now() - started;
  const rows = r.output.split('\n');
  assert.equal(rows[0], '     1\trecord 1');
  assert.equal(rows[1999], '  2000\trecord 2000');
  assert.match(r.output, new RegExp(`file has ${blocks * 10_000} lines; showing 1-2000\\. Read again with offset=2001`));
  assert.ok(ms < 3000, `took ${ms} ms`);
  const snap = ctx.fileState.get(path);
  assert.ok(snap, 'a page of a big file still counts as read');
  assert.equal(snap.content, undefined);
  // A page from the middle of the big file.
  const mid = await readTool.execute({ file_path: 'big.log', offset: 15_001, limit: 2 }, ctx);
  assert.equal(mid.output.split('\n\n')[0], ' 15001\trecord 5001\n 15002\trecord 5002');
});

test('Read stops a page early rather than return a huge output', async () => {
  const dir = await tempDir();
  await mkdir(join(dir, 'sub'));
  await writeFile(join(dir, 'sub', 'wide.txt'), Array.from({ length: 200 }, () => 'y'.repeat(1500)).join('\n'));
  const r = await readTool.execute({ file_path: 'sub/wide.txt' }, makeCtx(dir));
  assert.ok(r.output.length < 110_000);
  assert.match(r.output, /file has 200 lines; showing 1-\d+ \(this page stopped at 100000 characters\)\. Read again with offset=\d+/);
});

test('Read of a big file whose only line is 3 MB long shows it cut', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'min.js'), 'z'.repeat(3 * 1024 * 1024));
  const r = await readTool.execute({ file_path: 'min.js' }, makeCtx(dir));
  assert.equal(r.output, `     1\t${'z'.repeat(2000)} … [line truncated]`);
  assert.deepEqual((r.response as { file: { totalLines: number } }).file.totalLines, 1);
});
