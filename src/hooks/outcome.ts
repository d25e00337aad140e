import type { HookRun } from './runner.ts';
import type { HookEvent } from './schema.ts';

/** The JSON a hook may print on standard output with exit 0 (Claude Code's protocol). */
export interface HookJson {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  decision?: string;
  reason?: string;
  hookSpecificOutput?: {
    hookEventName?: string;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    additionalContext?: string;
    updatedInput?: Record<string, unknown>;
  };
}

/** What one hook run means, before events combine them. */
export type HookOutcome =
  | { kind: 'ok'; json?: HookJson; stdout: string }
  /** Exit 2, or a failed failClosed hook: `reason` is for the model (or the user, per event). */
  | { kind: 'block'; reason: string }
  /** Not blocking: the user is warned, the model is not told. */
  | { kind: 'failed'; warning: string };

function parseJson(stdout: string): HookJson | undefined {
  const t = stdout.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const j = JSON.parse(t) as unknown;
    return j && typeof j === 'object' && !Array.isArray(j) ? (j as HookJson) : undefined;
  } catch {
    return undefined;
  }
}

function clip(s: string, n = 500): string {
  const t = s.trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
}

/** How a hook ended, in words: "exit 1", "timed out after 5 s", "could not start: …". */
export function describeEnd(run: HookRun): string {
  if (run.spawnError) return `could not start: ${run.spawnError}`;
  if (run.timedOut) return `timed out after ${Math.round(run.hook.timeoutMs / 100) / 10} s and was killed`;
  if (run.interrupted) return 'was interrupted';
  if (run.signal) return `crashed (killed by ${run.signal})`;
  if (run.exitCode === 127) return 'exit 127 (command not found)';
  return `exit ${run.exitCode}`;
}

export function interpret(run: HookRun, event: HookEvent): HookOutcome {
  if (run.exitCode === 0) return { kind: 'ok', json: parseJson(run.stdout), stdout: run.stdout };
  if (run.exitCode === 2)
    return { kind: 'block', reason: run.stderr.trim() || run.stdout.trim() || 'No reason given (the hook printed nothing)' };
  const output = clip(run.stderr || run.stdout);
  if (run.hook.failClosed) {
    return { kind: 'block', reason: `the hook failed (${describeEnd(run)}) and is marked failClosed${output ? `: ${output}` : ''}` };
  }
  const hint = event === 'PreToolUse' && run.exitCode === 1 ? ' — exit 1 does not block; exit 2 does' : '';
  return {
    kind: 'failed',
    warning: `${event} hook "${run.hook.command}" (${run.hook.source}) ${describeEnd(run)}${hint}; not blocking${output ? `. Output: ${output}` : ''}`,
  };
}
