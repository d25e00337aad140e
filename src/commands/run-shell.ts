import { spawnSync } from 'node:child_process';
import type { OutputCap } from '../process/output-cap.ts';
import { runGroup } from '../process/run.ts';

/** How a `!` command of a command file ended. Output is capped at maxChars per stream. */
export interface ShellRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stopped?: 'timeout' | 'interrupt';
  spawnError?: string;
}

/** At most `max` characters of the output (3 bytes of UTF-8 at most per character), with a note of what was cut. */
function render(cap: OutputCap, max: number): string {
  const { text, dropped } = cap.headOnly();
  if (text.length <= max && dropped === 0) return text;
  // Bytes dropped beyond the kept head count as characters (exact for ASCII).
  const cut = Math.max(0, text.length - max) + dropped;
  return `${text.slice(0, max)}\n… (${cut} more characters cut)`;
}

/**
 * Runs `bash -c command` in cwd with its own process group, killed (with everything it started)
 * on timeout or abort. Never rejects.
 */
export async function runShell(
  command: string,
  o: { cwd: string; signal: AbortSignal; timeoutMs: number; maxChars: number },
): Promise<ShellRun> {
  const r = await runGroup({ command, cwd: o.cwd, timeoutMs: o.timeoutMs, signal: o.signal, maxBytes: o.maxChars * 3 });
  return {
    code: r.code,
    signal: r.signal,
    stdout: render(r.stdout, o.maxChars),
    stderr: render(r.stderr, o.maxChars),
    ...(r.stopped ? { stopped: r.stopped } : {}),
    ...(r.spawnError ? { spawnError: r.spawnError.message } : {}),
  };
}

/** Opens `file` in the user's editor (`$VISUAL`/`$EDITOR`, a shell word list) on this terminal; returns when it exits. */
export function openInEditor(editor: string, file: string): void {
  spawnSync(editor, [file], { stdio: 'inherit', shell: true });
}
