import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runHookCommand } from '../../src/hooks/runner.ts';
import type { HookSpec } from '../../src/hooks/schema.ts';
import { waitGone } from '../fakes/processes.ts';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-hook-runner-')));

function spec(command: string, over: Partial<HookSpec> = {}): HookSpec {
  return { event: 'PreToolUse', matcher: undefined, command, timeoutMs: 10_000, failClosed: false, source: 'test', ...over };
}

const INPUT = { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo "hi"\n' } };
const never = new AbortController().signal;

function exec(
  command: string,
  over: Partial<HookSpec> = {},
  input: unknown = INPUT,
  opts: { env?: NodeJS.ProcessEnv; signal?: AbortSignal; cwd?: string } = {},
) {
  return runHookCommand(spec(command, over), input, opts.env ?? { ...process.env }, opts.cwd ?? dir, opts.signal ?? never);
}

test('the event is one JSON object on standard input, followed by end-of-file', async () => {
  const r = await exec('cat');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.timedOut, false);
  assert.deepEqual(JSON.parse(r.stdout), INPUT);
  // A hook that reads "until the user answers" ends instead of hanging.
  const waits = await exec('read -r first; if read -r second; then echo "got [$second]"; else echo "eof after one line"; fi');
  assert.equal(waits.exitCode, 0);
  assert.equal(waits.stdout.trim(), 'eof after one line');
  assert.deepEqual(JSON.parse((await exec('head -n 1')).stdout), INPUT, 'the JSON is on a single line');
});

test('exit code, stdout and stderr are reported separately; cwd and env are the given ones', async () => {
  const r = await exec('echo out; echo err >&2; pwd >&2; echo "$HOOK_TEST_VAR"; exit 3', {}, INPUT, {
    env: { ...process.env, HOOK_TEST_VAR: 'v-42' },
  });
  assert.equal(r.exitCode, 3);
  assert.equal(r.stdout, 'out\nv-42\n');
  assert.equal(r.stderr, `err\n${dir}\n`);
  assert.ok(r.durationMs >= 0);
});

test('hooks run without a terminal: standard input is not a tty', async () => {
  const r = await exec('if [ -t 0 ]; then echo tty; else echo no-tty; fi; if [ -t 1 ]; then echo tty; else echo no-tty; fi');
  assert.equal(r.stdout, 'no-tty\nno-tty\n');
});

test('a hook that never reads its (large) input and exits at once breaks nothing', async () => {
  const big = { ...INPUT, tool_input: { content: 'x'.repeat(4 * 1024 * 1024) } };
  for (const command of ['exit 0', 'true', 'echo done; exit 2']) {
    const r = await exec(command, {}, big);
    assert.equal(r.spawnError, undefined, command);
    assert.equal(r.timedOut, false, command);
    assert.equal(r.exitCode, command.includes('exit 2') ? 2 : 0, command);
  }
  const slow = await exec('sleep 0.2; echo late', {}, big);
  assert.equal(slow.exitCode, 0);
  assert.equal(slow.stdout, 'late\n');
});

test('a hook that closes standard input early breaks nothing', async () => {
  const big = { ...INPUT, tool_input: { content: 'y'.repeat(2 * 1024 * 1024) } };
  const closes = await exec('exec 0<&-; sleep 0.1; echo closed', {}, big);
  assert.equal(closes.exitCode, 0);
  assert.equal(closes.stdout, 'closed\n');
  const partial = await exec('head -c 20 >/dev/null; echo read-some', {}, big);
  assert.equal(partial.exitCode, 0);
  assert.equal(partial.stdout, 'read-some\n');
});

test('on timeout the whole process group is killed, background children included', async () => {
  const pidFile = join(dir, 'bg-timeout.pid');
  const started = Date.now();
  const r = await exec(`sleep 30 & echo $! > ${pidFile}; sleep 30`, { timeoutMs: 1000 });
  assert.equal(r.timedOut, true);
  assert.equal(r.exitCode, null);
  assert.ok(Date.now() - started < 5000, 'the run ends soon after its timeout');
  const bg = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(bg > 0);
  assert.ok(await waitGone(bg, 4000), `background child ${bg} is still running`);
});

test('a hook that ignores SIGTERM is killed anyway', async () => {
  const pidFile = join(dir, 'stubborn.pid');
  // The time-out leaves the shell time to start and write its child's pid on a busy machine.
  const r = await exec(`trap '' TERM; sleep 30 & echo $! > ${pidFile}; while :; do sleep 0.1; done`, { timeoutMs: 1000 });
  assert.equal(r.timedOut, true);
  assert.equal(r.exitCode, null);
  const bg = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(await waitGone(bg, 5000), `stubborn child ${bg} survived`);
});

test('a hook that exits while a background child holds its output open is done when it exits', async () => {
  const pidFile = join(dir, 'holder.pid');
  const started = Date.now();
  const r = await exec(`sleep 20 & echo $! > ${pidFile}; echo finished`);
  const bg = Number(readFileSync(pidFile, 'utf8'));
  try {
    assert.equal(r.exitCode, 0);
    assert.equal(r.timedOut, false);
    assert.match(r.stdout, /finished/);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  } finally {
    try {
      process.kill(bg, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

test('10 MB of output is capped and fast', async () => {
  const started = Date.now();
  const r = await exec('head -c 10485760 /dev/zero | tr "\\0" a; head -c 10485760 /dev/zero | tr "\\0" b >&2; exit 2');
  const took = Date.now() - started;
  assert.equal(r.exitCode, 2);
  assert.ok(r.stdout.length < 300 * 1024, `stdout kept ${r.stdout.length} chars`);
  assert.ok(r.stderr.length < 300 * 1024, `stderr kept ${r.stderr.length} chars`);
  assert.match(r.stdout, /^a{1000}/);
  assert.match(r.stdout, /more bytes of output dropped/);
  assert.match(r.stderr, /^b{1000}/);
  assert.ok(took < 8000, `took ${took} ms`);
});

test('an abort signal kills the hook group: interrupted, no exit code', async () => {
  const pidFile = join(dir, 'abort.pid');
  const ac = new AbortController();
  const p = exec(`sleep 30 & echo $! > ${pidFile}; sleep 30`, {}, INPUT, { signal: ac.signal });
  // Abort once the hook has started its child (a fixed pause was too short on a busy machine).
  for (let i = 0; i < 200 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n')); i++) await sleep(25);
  ac.abort();
  const r = await p;
  assert.equal(r.interrupted, true);
  assert.equal(r.timedOut, false);
  assert.equal(r.exitCode, null);
  assert.ok(await waitGone(Number(readFileSync(pidFile, 'utf8')), 4000));
  // Already aborted before it starts: ends at once.
  const pre = new AbortController();
  pre.abort();
  const started = Date.now();
  const r2 = await exec('sleep 30', {}, INPUT, { signal: pre.signal });
  assert.equal(r2.interrupted, true);
  assert.equal(r2.exitCode, null);
  assert.ok(Date.now() - started < 3000);
});

test('a hook that cannot start reports a spawn error instead of throwing', async () => {
  const r = await exec('echo hi', {}, INPUT, { cwd: join(dir, 'does-not-exist') });
  assert.equal(r.exitCode, null);
  assert.ok(r.spawnError, 'spawnError is set');
});

test('a command that is not found exits 127', async () => {
  const r = await exec('./no-such-hook.sh');
  assert.equal(r.exitCode, 127);
  assert.match(r.stderr, /No such file/);
});
