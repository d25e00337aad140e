import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replaceFileSync, writeFileAtomic } from '../../src/fs/atomic-write.ts';
import { editTool } from '../../src/tools/edit.ts';
import { readTool } from '../../src/tools/read.ts';
import { writeTool } from '../../src/tools/write.ts';
import { makeCtx } from '../tools/helpers.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'atomic-'));

test('writeFileAtomic keeps the owner of the file it replaces (when the process may set it)', {
  skip: process.getuid?.() !== 0 && 'needs root to chown',
}, async () => {
  const d = dir();
  const f = join(d, 'theirs.txt');
  writeFileSync(f, 'old\n');
  chownSync(f, 1234, 2345);
  await writeFileAtomic(f, 'new\n');
  assert.equal(readFileSync(f, 'utf8'), 'new\n');
  assert.deepEqual([statSync(f).uid, statSync(f).gid], [1234, 2345]);
});

test('writeFileAtomic through a symlink whose target does not exist yet creates the target; the link stays a link', async () => {
  const d = dir();
  symlinkSync('sub/target.txt', join(d, 'link.txt'));
  await writeFileAtomic(join(d, 'link.txt'), 'made\n');
  assert.ok(lstatSync(join(d, 'link.txt')).isSymbolicLink(), 'still a symlink');
  assert.equal(readlinkSync(join(d, 'link.txt')), 'sub/target.txt');
  assert.equal(readFileSync(join(d, 'sub/target.txt'), 'utf8'), 'made\n');
  // A chain of links, the last one dangling.
  symlinkSync('link.txt', join(d, 'outer.txt'));
  writeFileSync(join(d, 'sub/target.txt'), '');
  await writeFileAtomic(join(d, 'outer.txt'), 'again\n');
  assert.ok(lstatSync(join(d, 'outer.txt')).isSymbolicLink());
  assert.equal(readFileSync(join(d, 'sub/target.txt'), 'utf8'), 'again\n');
});

test('Write and Edit refuse a pipe or device at once (no hang, nothing replaced)', async () => {
  const d = dir();
  const fifo = join(d, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const ctx = makeCtx(d);
  const timeout = (p: Promise<{ output: string; isError?: boolean }>) =>
    Promise.race([p, new Promise<{ output: string; isError?: boolean }>((r) => setTimeout(() => r({ output: 'HUNG' }), 2000))]);
  for (const r of [
    await timeout(writeTool.execute({ file_path: fifo, content: 'x' }, ctx)),
    await timeout(editTool.execute({ file_path: fifo, old_string: 'a', new_string: 'b' }, ctx)),
  ]) {
    assert.equal(r.isError, true, r.output);
    assert.match(r.output, /not a regular file/);
  }
  assert.ok(lstatSync(fifo).isFIFO(), 'the pipe is still a pipe');
  await assert.rejects(writeFileAtomic(fifo, 'x'), /not a regular file/);
  assert.ok(lstatSync(fifo).isFIFO());
  assert.deepEqual(readdirSync(d), ['pipe'], 'no temp file is left');
});

test('Edit through the tools keeps owner and a dangling-then-created link target', async () => {
  const d = dir();
  writeFileSync(join(d, 'real.txt'), 'alpha\n');
  symlinkSync('real.txt', join(d, 'l.txt'));
  const ctx = makeCtx(d);
  await readTool.execute({ file_path: 'l.txt' }, ctx);
  const r = await editTool.execute({ file_path: 'l.txt', old_string: 'alpha', new_string: 'beta' }, ctx);
  assert.equal(r.isError, undefined, r.output);
  assert.ok(lstatSync(join(d, 'l.txt')).isSymbolicLink());
  assert.equal(readFileSync(join(d, 'real.txt'), 'utf8'), 'beta\n');
});

/** Runs writeFileAtomic as an unprivileged user (nobody when the tests run as root): each case's outcome. */
async function asUser(cases: Array<[string, string]>): Promise<string[]> {
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const mod = fileURLToPath(new URL('../../src/fs/atomic-write.ts', import.meta.url));
  const code = `import { writeFileAtomic } from ${JSON.stringify(mod)};
const out = [];
for (const [f, c] of ${JSON.stringify(cases)}) out.push(await writeFileAtomic(f, c).then(() => 'ok', (e) => 'error: ' + e.message));
console.log(JSON.stringify(out));`;
  const root = process.getuid?.() === 0;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    ...(root ? { uid: 65534, gid: 65534 } : {}),
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('as a user without root: a read-only file is refused (not replaced); a writable file in a read-only folder is written in place', async () => {
  const { chmodSync } = await import('node:fs');
  const d = dir();
  const ro = join(d, 'ro.txt');
  const locked = join(d, 'locked');
  const inLocked = join(locked, 'rw.txt');
  writeFileSync(ro, 'protected\n');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(locked);
  writeFileSync(inLocked, 'old\n');
  if (process.getuid?.() === 0) for (const p of [d, ro, locked, inLocked]) chownSync(p, 65534, 65534);
  chmodSync(ro, 0o444);
  chmodSync(inLocked, 0o644);
  chmodSync(locked, 0o555);
  const [a, b] = await asUser([
    [ro, 'overwritten\n'],
    [inLocked, 'new\n'],
  ]);
  chmodSync(locked, 0o755);
  assert.match(a, /^error: .*ro\.txt.*(read-only|permission)/i);
  assert.equal(readFileSync(ro, 'utf8'), 'protected\n');
  assert.equal((statSync(ro).mode & 0o777).toString(8), '444');
  assert.equal(b, 'ok');
  assert.equal(readFileSync(inLocked, 'utf8'), 'new\n');
  assert.deepEqual(readdirSync(locked), ['rw.txt']);
  assert.deepEqual(readdirSync(d).sort(), ['locked', 'ro.txt']);
});

test('replaceFileSync replaces a small file whole: mode kept, a symlink followed, no temp file left', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replace-sync-'));
  const real = join(dir, 'real.json');
  writeFileSync(real, '{"old":true}\n');
  chmodSync(real, 0o600);
  const link = join(dir, 'link.json');
  symlinkSync(real, link);
  replaceFileSync(link, '{"new":true}\n');
  assert.equal(readFileSync(real, 'utf8'), '{"new":true}\n');
  assert.ok(lstatSync(link).isSymbolicLink(), 'the link stays a link');
  assert.equal(statSync(real).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir).sort(), ['link.json', 'real.json']);
  replaceFileSync(join(dir, 'fresh.txt'), 'x');
  assert.equal(readFileSync(join(dir, 'fresh.txt'), 'utf8'), 'x');
});
