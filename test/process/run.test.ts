import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DRAIN_MS, runGroup, type RunOptions } from '../../src/process/run.ts';
import { isGone, waitGone } from '../fakes/processes.ts';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-run-group-')));
const never = new AbortController().signal;

function run(command: RunOptions['command'], over: Partial<RunOptions> = {}) {
  return runGroup({ command, cwd: dir, timeoutMs: 10_000, signal: never, maxBytes: 64 * 1024, ...over });
}

async function waitFile(path: string): Promise<number> {
  for (let i = 0; i < 400 && !(existsSync(path) && readFileSync(path, 'utf8').endsWith('\n')); i++) await sleep(25);
  return Number(readFileSync(path, 'utf8'));
}

/** A shell that starts a shell that starts `sleep 30`: the grandchild's pid goes to `pidFile`. */
const grandchild = (pidFile: string) => `bash -c 'sleep 30 & echo $! > ${pidFile}; wait' & wait`;

test('exit code, both streams apart, cwd and env as given', async () => {
  const r = await run('echo out; echo err >&2; pwd; echo "$RUN_GROUP_VAR"; exit 3', { env: { ...process.env, RUN_GROUP_VAR: 'v-7' } });
  assert.equal(r.code, 3);
  assert.equal(r.signal, null);
  assert.equal(r.stopped, undefined);
  assert.equal(r.stdout.render(1000), `out\n${dir}\nv-7\n`);
  assert.equal(r.stderr.render(1000), 'err\n');
  assert.ok(r.durationMs > 0);
});

test('an argv runs as it is, without a shell', async () => {
  const r = await run(['/bin/echo', 'a $HOME b']);
  assert.equal(r.code, 0);
  assert.equal(r.stdout.render(100), 'a $HOME b\n');
});

test('on timeout the whole group is killed, a grandchild included', async () => {
  const pidFile = join(dir, 'timeout.pid');
  const started = Date.now();
  const r = await run(grandchild(pidFile), { timeoutMs: 1000 });
  assert.equal(r.stopped, 'timeout');
  assert.equal(r.code, null);
  assert.ok(Date.now() - started < 6000, `took ${Date.now() - started} ms`);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(pid > 0);
  assert.ok(await waitGone(pid), `grandchild ${pid} survived the timeout`);
});

test('a group that ignores SIGTERM is killed with SIGKILL', async () => {
  const pidFile = join(dir, 'stubborn.pid');
  const r = await run(`trap '' TERM; sleep 30 & echo $! > ${pidFile}; while :; do sleep 0.1; done`, { timeoutMs: 1000 });
  assert.equal(r.stopped, 'timeout');
  assert.ok(await waitGone(Number(readFileSync(pidFile, 'utf8')), 6000));
});

test('an abort kills the whole group, a grandchild included; already aborted, nothing starts', async () => {
  const pidFile = join(dir, 'abort.pid');
  const ac = new AbortController();
  const p = run(grandchild(pidFile), { signal: ac.signal });
  const pid = await waitFile(pidFile);
  ac.abort();
  const r = await p;
  assert.equal(r.stopped, 'interrupt');
  assert.equal(r.code, null);
  assert.ok(await waitGone(pid), `grandchild ${pid} survived the abort`);

  const marker = join(dir, 'never-started');
  const pre = new AbortController();
  pre.abort();
  const r2 = await run(`touch ${marker}`, { signal: pre.signal });
  assert.equal(r2.stopped, 'interrupt');
  await sleep(200);
  assert.equal(existsSync(marker), false, 'an aborted run starts nothing');
});

test('draining: done soon after exit when a background job holds the pipes, with what was written', async () => {
  const pidFile = join(dir, 'holder.pid');
  const started = Date.now();
  const r = await run(`sleep 20 & echo $! > ${pidFile}; echo finished; echo also >&2`);
  const bg = Number(readFileSync(pidFile, 'utf8'));
  try {
    assert.equal(r.code, 0);
    assert.equal(r.stdout.render(100), 'finished\n');
    assert.equal(r.stderr.render(100), 'also\n');
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    assert.ok(Date.now() - started >= DRAIN_MS, 'it waited for the pipes');
    assert.equal(await isGone(bg), false, 'a background job outlives a run that ended normally');
  } finally {
    try {
      process.kill(bg, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

test('output after exit is still drained when the pipes close', async () => {
  // The shell exits at once; its child writes later and then closes the pipe, within the drain time.
  const r = await run('(sleep 0.05; echo late) &');
  assert.equal(r.stdout.render(100), 'late\n');
});

test('a number of maxBytes keeps the head of each stream and counts the rest', async () => {
  const r = await run('head -c 1000000 /dev/zero | tr "\\0" a; head -c 300000 /dev/zero | tr "\\0" b >&2', { maxBytes: 10_000 });
  const out = r.stdout.headOnly();
  assert.equal(out.text, 'a'.repeat(10_000));
  assert.equal(out.dropped, 990_000);
  assert.equal(r.stdout.totalBytes, 1_000_000);
  assert.equal(r.stderr.headOnly().text, 'b'.repeat(10_000));
  assert.equal(r.stderr.headOnly().dropped, 290_000);
});

test('{ head, tail } keeps both ends of 20 MB', async () => {
  const r = await run('echo FIRST; yes | head -c 20000000; echo; echo LAST', { maxBytes: { head: 1000, tail: 1000 } });
  assert.equal(r.code, 0);
  assert.equal(r.stdout.totalBytes, 6 + 20_000_000 + 1 + 5);
  const text = r.stdout.render(2000);
  assert.match(text, /^FIRST\n/);
  assert.match(text, /LAST\n?$/);
  assert.match(text, /lines \(\d+ bytes\) of output omitted/);
});

test('mergeStderr puts both streams into one cap, in order', async () => {
  const r = await run('echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three', { mergeStderr: true });
  assert.equal(r.stdout, r.stderr);
  assert.equal(r.stdout.render(100), 'one\ntwo\nthree\n');
});

test('onOutput sees every piece as it arrives, a split UTF-8 character whole', async () => {
  const seen: Array<[string, string]> = [];
  // "é" is c3 a9: written as two separate reads.
  const r = await run(`printf '\\xc3'; sleep 0.1; printf '\\xa9\\n'; echo e >&2`, {
    onOutput: (text, stream) => seen.push([stream, text]),
  });
  assert.equal(r.code, 0);
  assert.equal(
    seen
      .filter(([s]) => s === 'stdout')
      .map(([, t]) => t)
      .join(''),
    'é\n',
  );
  assert.ok(!seen.some(([, t]) => t.includes('\ufffd')), 'no replacement character');
  assert.deepEqual(
    seen.filter(([s]) => s === 'stderr'),
    [['stderr', 'e\n']],
  );
});

test('stdin: the text then end-of-file; without it, /dev/null and no terminal', async () => {
  const r = await run('cat; echo "[$?]"', { stdin: '{"a":1}\n' });
  assert.equal(r.stdout.render(100), '{"a":1}\n[0]\n');
  const none = await run('if [ -t 0 ]; then echo tty; else cat; echo no-tty; fi');
  assert.equal(none.stdout.render(100), 'no-tty\n');
});

test('stdin: a child that ignores a large input or closes it early breaks nothing (EPIPE)', async () => {
  const big = 'x'.repeat(8 * 1024 * 1024);
  for (const command of ['exit 0', 'exec 0<&-; sleep 0.1; echo closed', 'head -c 10 >/dev/null; echo read-some']) {
    const r = await run(command, { stdin: big });
    assert.equal(r.spawnError, undefined, command);
    assert.equal(r.stopped, undefined, command);
    assert.equal(r.code, 0, command);
  }
});

test('fd3: what the child writes to descriptor 3 comes back', async () => {
  const r = await run('echo here >&3; echo out', { fd3: true });
  assert.equal(r.fd3, 'here\n');
  assert.equal(r.stdout.render(100), 'out\n');
});

test('a child that cannot start is a spawnError, not a throw', async () => {
  const r = await run('echo hi', { cwd: join(dir, 'does-not-exist') });
  assert.equal(r.code, null);
  assert.ok(r.spawnError instanceof Error);
  const missing = await run(['/no/such/program']);
  assert.ok(missing.spawnError);
  const refused = await run('echo a\0b');
  assert.ok(refused.spawnError, 'a NUL byte spawn() refuses at once is a spawnError too');
});

/** pid, process group and session of a child, from its own /proc/self/stat. */
async function ids(over: Partial<RunOptions> = {}) {
  const r = await run(['/bin/cat', '/proc/self/stat'], over);
  const f = r.stdout
    .render(1000)
    .replace(/^.*\) /s, '')
    .split(' '); // after "pid (comm) "
  return { pid: Number(r.stdout.render(1000).split(' ')[0]), pgrp: Number(f[2]), session: Number(f[3]) };
}

test('a child leads a session and process group of its own; with group: false it stays in ours, and a stop still ends it', async () => {
  const own = await ids();
  assert.equal(own.pgrp, own.pid);
  assert.equal(own.session, own.pid);
  const ours = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  const plain = await ids({ group: false });
  assert.equal(plain.pgrp, Number(ours[2]));
  assert.equal(plain.session, Number(ours[3]));
  const started = Date.now();
  const r = await run(['/bin/sleep', '30'], { group: false, timeoutMs: 300 });
  assert.equal(r.stopped, 'timeout');
  assert.equal(r.signal, 'SIGTERM');
  assert.ok(Date.now() - started < 3000);
});
