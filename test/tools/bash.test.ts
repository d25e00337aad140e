import assert from 'node:assert/strict';
import { mkdir, readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { bashTool } from '../../src/tools/bash.ts';
import { makeCtx, sleep, tempDir } from './helpers.ts';
import { waitGone } from '../fakes/processes.ts';

test('Bash returns stdout, then stderr, then a non-zero exit code', async () => {
  const dir = await tempDir();
  const r = await bashTool.execute({ command: 'echo out; echo err >&2; exit 3' }, makeCtx(dir));
  assert.equal(r.output, 'out\nerr\nExit code 3');
  assert.equal(r.isError, true);
  assert.deepEqual(r.response, { stdout: 'out', stderr: 'err', interrupted: false, isImage: false, noOutputExpected: false });
  const ok = await bashTool.execute({ command: 'true' }, makeCtx(dir));
  assert.equal(ok.isError, false);
  assert.match(ok.output, /no output/);
});

test('Bash keeps the working directory between calls', async () => {
  const dir = await realpath(await tempDir());
  await mkdir(join(dir, 'sub dir'));
  const ctx = makeCtx(dir);
  await bashTool.execute({ command: 'cd "sub dir"' }, ctx);
  assert.equal(ctx.shell.cwd, join(dir, 'sub dir'));
  const r = await bashTool.execute({ command: 'pwd' }, ctx);
  assert.equal(r.output, join(dir, 'sub dir'));
  // A failing command after a cd still moves, and keeps its exit code.
  const failed = await bashTool.execute({ command: 'cd .. && false' }, ctx);
  assert.match(failed.output, /Exit code 1/);
  assert.equal(ctx.shell.cwd, dir);
});

test('Bash falls back to the project directory when the shell directory was removed', async () => {
  const dir = await realpath(await tempDir());
  await mkdir(join(dir, 'gone'));
  const ctx = makeCtx(dir);
  await bashTool.execute({ command: 'cd gone' }, ctx);
  await rm(join(dir, 'gone'), { recursive: true });
  const r = await bashTool.execute({ command: 'pwd' }, ctx);
  assert.match(r.output, new RegExp(`^${dir}\\n.*no longer exists`));
  assert.equal(ctx.shell.cwd, dir);
});

test('Bash gets stdin from /dev/null and the settings env', async () => {
  const dir = await tempDir();
  const r = await bashTool.execute({ command: 'cat; echo "v=$MY_SETTING"' }, makeCtx(dir, { env: { MY_SETTING: 'from-settings' } }));
  assert.equal(r.output, 'v=from-settings');
});

test('Bash timeout kills the whole process group', async () => {
  const dir = await tempDir();
  const started = Date.now();
  const r = await bashTool.execute(
    { command: `sleep 100 & echo $! > ${dir}/bg.pid; echo started; sleep 100; wait`, timeout: 500 },
    makeCtx(dir),
  );
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 2500, `took ${elapsed} ms`);
  assert.equal(r.isError, true);
  assert.match(r.output, /^started\nCommand timed out after 0\.5s/);
  assert.equal((r.response as { interrupted: boolean }).interrupted, true);
  const bg = Number(await readFile(join(dir, 'bg.pid'), 'utf8'));
  assert.ok(bg > 0);
  assert.ok(await waitGone(bg, 3000), `background sleep ${bg} survived`);
});

test('Bash abort via the signal kills the whole process group', async () => {
  const dir = await tempDir();
  const ac = new AbortController();
  const pending = bashTool.execute(
    { command: `echo $$ > ${dir}/sh.pid; sleep 100 & echo $! > ${dir}/bg.pid; wait` },
    makeCtx(dir, { signal: ac.signal }),
  );
  let bg = 0;
  for (let i = 0; i < 100 && !bg; i++) {
    await sleep(20);
    bg = Number(await readFile(join(dir, 'bg.pid'), 'utf8').catch(() => '0')) || 0;
  }
  const shell = Number(await readFile(join(dir, 'sh.pid'), 'utf8'));
  ac.abort();
  const r = await pending;
  assert.equal(r.isError, true);
  assert.match(r.output, /interrupted/);
  assert.ok(await waitGone(bg, 3000), `background sleep ${bg} survived`);
  assert.ok(await waitGone(shell, 3000), `shell ${shell} survived`);
});

// How fast is measured in bench/, not asserted here (a busy machine is slow, not wrong).
test('Bash caps 100 MB of output: head and tail kept, the middle elided with a note', async () => {
  const dir = await tempDir();
  const r = await bashTool.execute({ command: 'echo FIRST; yes | head -c 100000000; echo; echo LAST' }, makeCtx(dir));
  assert.ok(r.output.length <= 31_000, `output is ${r.output.length} chars`);
  assert.ok(/^FIRST\ny\ny\n/.test(r.output), 'head kept');
  assert.ok(/y\n\nLAST$/.test(r.output), `tail kept: ${JSON.stringify(r.output.slice(-40))}`);
  const m = /… \[(\d+) lines \((\d+) bytes\) of output omitted\] …/.exec(r.output);
  assert.ok(m, 'elision note');
  assert.ok(Number(m[1]) > 49_000_000 && Number(m[2]) > 99_000_000);
});

test('Bash shares the output cap between stdout and stderr', async () => {
  const dir = await tempDir();
  const r = await bashTool.execute({ command: 'seq 1 100000; seq 1 100000 >&2' }, makeCtx(dir));
  assert.ok(r.output.length <= 31_000);
  const resp = r.response as { stdout: string; stderr: string };
  assert.match(resp.stdout, /^1\n2\n/);
  assert.match(resp.stdout, /100000$/);
  assert.match(resp.stderr, /^1\n2\n/);
  assert.match(resp.stderr, /omitted/);
});

test('Bash returns promptly when a background job keeps the pipes open', async () => {
  const dir = await tempDir();
  const started = Date.now();
  const r = await bashTool.execute({ command: `sleep 5 & echo $! > ${dir}/bg.pid; echo done` }, makeCtx(dir));
  assert.ok(Date.now() - started < 2000);
  assert.equal(r.output, 'done');
  process.kill(Number(await readFile(join(dir, 'bg.pid'), 'utf8')), 'SIGKILL');
});

test('Bash reports a syntax error in the command itself, not in its wrapper', async () => {
  const dir = await tempDir();
  const r = await bashTool.execute({ command: 'if true; then' }, makeCtx(dir));
  assert.equal(r.isError, true);
  assert.match(r.output, /syntax error/);
  assert.doesNotMatch(r.output, /3>&-|__assistant/);
  assert.match(r.output, /Exit code 2$/);
});
