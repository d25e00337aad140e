import { spawn } from 'node:child_process';
import { killProcessGroup } from '../tools/process-group.ts';
import type { HookSpec } from './schema.ts';

/** Each of stdout and stderr keeps at most this much; a hook that prints 10 MB costs no more. */
const OUTPUT_CAP = 256 * 1024;

export interface HookRun {
  hook: HookSpec;
  /** null when the hook was killed (timeout, interrupt) or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  interrupted: boolean;
  durationMs: number;
  spawnError?: string;
  /** The signal that ended the hook on its own (a crash), not a kill for timeout or interrupt. */
  signal?: string;
}

function capped() {
  const chunks: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  return {
    push(b: Buffer) {
      if (size >= OUTPUT_CAP) { dropped += b.length; return; }
      const take = b.subarray(0, OUTPUT_CAP - size);
      chunks.push(take); size += take.length; dropped += b.length - take.length;
    },
    text() {
      const t = Buffer.concat(chunks).toString('utf8');
      return dropped ? `${t}\n[… ${dropped} more bytes of output dropped]` : t;
    },
  };
}

/**
 * Runs one hook command through bash in its own process group, with `input` as JSON on standard
 * input followed by end-of-file, and no terminal. Never throws and never hangs past the hook's
 * timeout: on timeout or abort the whole group is killed.
 */
export function runHookCommand(
  hook: HookSpec,
  input: unknown,
  env: NodeJS.ProcessEnv,
  cwd: string,
  signal: AbortSignal,
): Promise<HookRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const out = capped();
    const err = capped();
    let timedOut = false;
    let interrupted = false;
    let settled = false;
    const finish = (exitCode: number | null, spawnError?: string, killedBy?: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({
        hook, exitCode, stdout: out.text(), stderr: err.text(), timedOut, interrupted, durationMs: performance.now() - started, spawnError,
        ...(killedBy && exitCode === null ? { signal: killedBy } : {}),
      });
    };
    const child = spawn('bash', ['-c', hook.command], { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => { timedOut = true; killProcessGroup(child); }, hook.timeoutMs);
    const onAbort = () => { interrupted = true; killProcessGroup(child); };
    if (signal.aborted) onAbort(); else signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    // A hook that never reads its input, or exits first, must not break anything (EPIPE).
    child.stdin.on('error', () => {});
    child.stdin.end(`${JSON.stringify(input)}\n`);
    child.on('error', (e) => finish(null, e.message));
    child.on('close', (code, sig) => finish(timedOut || interrupted ? null : code, undefined, sig));
    // A hook that leaves a background process holding its output open is done when bash exits.
    child.on('exit', (code, sig) => { setTimeout(() => finish(timedOut || interrupted ? null : code, undefined, sig), 200).unref(); });
  });
}
