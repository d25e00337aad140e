import type { OutputCap } from '../process/output-cap.ts';
import { runGroup } from '../process/run.ts';
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

/** Head-kept text, with a note of how much was dropped. */
function text(cap: OutputCap): string {
  const { text: t, dropped } = cap.headOnly();
  return dropped ? `${t}\n[… ${dropped} more bytes of output dropped]` : t;
}

/**
 * Runs one hook command through bash in its own process group, with `input` as JSON on standard
 * input followed by end-of-file, and no terminal. Never throws and never hangs past the hook's
 * timeout: on timeout or abort the whole group is killed.
 */
export async function runHookCommand(
  hook: HookSpec,
  input: unknown,
  env: NodeJS.ProcessEnv,
  cwd: string,
  signal: AbortSignal,
): Promise<HookRun> {
  const r = await runGroup({
    command: hook.command,
    cwd,
    env,
    stdin: `${JSON.stringify(input)}\n`,
    timeoutMs: hook.timeoutMs,
    signal,
    maxBytes: OUTPUT_CAP,
  });
  const exitCode = r.stopped ? null : r.code;
  return {
    hook,
    exitCode,
    stdout: text(r.stdout),
    stderr: text(r.stderr),
    timedOut: r.stopped === 'timeout',
    interrupted: r.stopped === 'interrupt',
    durationMs: r.durationMs,
    spawnError: r.spawnError?.message,
    ...(r.signal && exitCode === null ? { signal: r.signal } : {}),
  };
}
