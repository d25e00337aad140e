/**
 * Our own cost per hook call, in one process and without a model: the same hook command started
 * bare (spawn `bash -c HOOK`, its JSON on stdin then end-of-file, stdout and stderr piped, until
 * 'close': what any runner pays) and through `HookEngine.fire` (matching, the hook's environment,
 * the JSON, the runner, the outcome, the report), interleaved call by call; medians, and the
 * median of the per-pair differences. With `--src DIR` (another checkout's root, e.g. an exported
 * older commit inside this repository so its imports resolve), that tree's engine runs in the same
 * rounds too: an A/B in one run.
 *
 *   node --import tsx bench/hook-runner.ts [--calls 200] [--src /tmp/base]
 *
 * The bare process runs from this same Node process, so fork time (which grows with resident
 * memory) is the same for both. The engine reports into a sink that keeps nothing.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const CALLS = Number(arg('--calls')) || 200;
const SRC = arg('--src');

const HOOK = 'echo "$ASSISTANT_HOOK_EVENT $ASSISTANT_TOOL_NAME" >> "$HOME/hooks.log"';
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bench-hook-runner-')));
const home = realpathSync(mkdtempSync(join(tmpdir(), 'bench-hook-home-')));
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
for (const k of Object.keys(env)) if (/^(ASSISTANT|CLAUDE)_/.test(k)) delete env[k];
process.env.HOME = home;

const input = (engine: { base(e: string, m: boolean): Record<string, unknown> }) => ({
  ...engine.base('PreToolUse', true),
  tool_name: 'Read',
  tool_input: { file_path: join(dir, 'src/greet.js') },
  tool_use_id: 'toolu_01',
});

type EngineModule = typeof import('../src/hooks/engine.ts');
async function engineFrom(root: string) {
  const m = (await import(pathToFileURL(join(root, 'src/hooks/engine.ts')).href)) as EngineModule;
  const hooks = [
    { event: 'PreToolUse' as const, matcher: undefined, command: HOOK, timeoutMs: 60_000, failClosed: false, source: 'bench' },
  ];
  const engine = new m.HookEngine(hooks, {
    projectDir: dir,
    sessionId: '0b7c6c1e-5a43-4f57-9d55-3f0f1b1e2a6d',
    transcriptPath: join(home, 't.jsonl'),
    env: {},
    permissionMode: () => 'bypassPermissions',
    emit: () => {},
  });
  const signal = new AbortController().signal;
  return async (): Promise<number> => {
    const t0 = performance.now();
    const fired = await engine.fire('PreToolUse', input(engine), signal, { name: 'Read', filePath: join(dir, 'src/greet.js') });
    const ms = performance.now() - t0;
    if (fired.length !== 1 || fired[0].run.exitCode !== 0) throw new Error(`the hook failed: ${JSON.stringify(fired[0]?.run)}`);
    return ms;
  };
}

/**
 * The hook process alone: what any runner must pay for it. `detached`: in a session of its own, as
 * the process-group kill needs (with the kernel's autogroup scheduling, each session is also a
 * scheduling group of its own: that costs the kernel something per call).
 */
function bare(detached = false): Promise<number> {
  const json = `${JSON.stringify({ session_id: '0b7c6c1e-5a43-4f57-9d55-3f0f1b1e2a6d', transcript_path: join(home, 't.jsonl'), cwd: dir, prompt_id: '4c1b2f8e-0d6a-4e3b-9a57-2e6d1f0c9b84', permission_mode: 'bypassPermissions', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: join(dir, 'src/greet.js') }, tool_use_id: 'toolu_01' })}\n`;
  const hookEnv = {
    ...env,
    ASSISTANT_PROJECT_DIR: dir,
    CLAUDE_PROJECT_DIR: dir,
    ASSISTANT_SESSION_ID: 's',
    ASSISTANT_HOOK_EVENT: 'PreToolUse',
    ASSISTANT_TOOL_NAME: 'Read',
    ASSISTANT_FILE_PATH: join(dir, 'src/greet.js'),
  };
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const child = spawn('/bin/bash', ['-c', HOOK], { cwd: dir, env: hookEnv, detached, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => {});
    child.stdin.end(json);
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', rej);
    child.on('close', (code) => (code === 0 ? res(performance.now() - t0) : rej(new Error(`bare hook exited ${code}`))));
  });
}

// The child's own span, from the call of spawn() to its 'close': what is left of a call is our JS.
let childMs = 0;
type Spawn = (this: ChildProcess, opts: unknown) => unknown;
const proto = ChildProcess.prototype as unknown as { spawn: Spawn };
const origSpawn = proto.spawn;
proto.spawn = function (this: ChildProcess, opts: unknown) {
  const t0 = performance.now();
  const r = origSpawn.call(this, opts);
  this.once('close', () => {
    childMs = performance.now() - t0;
  });
  return r;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const runners: Array<[string, () => Promise<number>]> = [
  ['bare bash -c', () => bare()],
  ['bare bash -c, own session (detached)', () => bare(true)],
  ['this tree', await engineFrom(resolve(import.meta.dirname, '..'))],
];
if (SRC) runners.push([`--src ${SRC}`, await engineFrom(resolve(SRC))]);
const samples = runners.map(() => [] as number[]);
const ours = runners.map(() => [] as number[]);
for (let i = 0; i < CALLS + 5; i++) {
  // Rotate the order each round, so neither always runs right after the other.
  for (let k = 0; k < runners.length; k++) {
    const j = (i + k) % runners.length;
    childMs = NaN;
    const ms = await runners[j][1]();
    if (i >= 5) {
      samples[j].push(ms);
      ours[j].push(ms - childMs);
    }
  }
}
const lines = readFileSync(join(home, 'hooks.log'), 'utf8').trimEnd().split('\n');
if (lines.length !== (CALLS + 5) * runners.length || lines.some((l) => l !== 'PreToolUse Read'))
  throw new Error(`the hooks did not log what they should (${lines.length} lines)`);

console.log(
  `${CALLS} calls each, interleaved; load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}\n`,
);
console.log(
  '| runner | median per call | beyond bare (median of pairs) | beyond bare in its own session (median of pairs) | outside spawn → close (median) |',
);
console.log('|---|---:|---:|---:|---:|');
const beyond = (j: number, k: number) => (j > k ? `${median(samples[j].map((x, i) => x - samples[k][i])).toFixed(2)} ms` : '—');
for (let j = 0; j < runners.length; j++) {
  console.log(
    `| ${runners[j][0]} | ${median(samples[j]).toFixed(2)} ms | ${beyond(j, 0)} | ${beyond(j, 1)} | ${median(ours[j]).toFixed(2)} ms |`,
  );
}
