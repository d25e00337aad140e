import type { HookRun } from './runner.ts';
import type { HookSpec } from './schema.ts';

/**
 * Runs a JavaScript hook (the SDK's `hooks` option) with the shell hooks' contract: what it returns
 * is read as a hook's JSON standard output with exit 0 (`{decision: "block", reason}`,
 * `{continue: false}`, `hookSpecificOutput`…); nothing returned is exit 0 with no output. A hook
 * that throws is exit 1 (a warning, not blocking) unless failClosed; `{exitCode: 2, reason}`
 * blocks like a shell hook's exit 2. Timeout and abort end the wait (the function's own work is
 * told through `signal`). Never throws.
 */
export async function runHookFunction(hook: HookSpec, input: Record<string, unknown>, signal: AbortSignal): Promise<HookRun> {
  const started = performance.now();
  const own = new AbortController();
  const end = (r: Partial<HookRun>): HookRun => ({
    hook,
    exitCode: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    interrupted: false,
    durationMs: performance.now() - started,
    ...r,
  });
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<HookRun>((resolve) => {
    timer = setTimeout(() => {
      own.abort(new Error('hook timed out'));
      resolve(end({ timedOut: true }));
    }, hook.timeoutMs);
    const onAbort = () => {
      own.abort(signal.reason);
      resolve(end({ interrupted: true }));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    own.signal.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), { once: true });
  });
  const ran = (async (): Promise<HookRun> => {
    try {
      const toolUseId = typeof input.tool_use_id === 'string' ? input.tool_use_id : undefined;
      const out = await hook.fn!(input, toolUseId, { signal: own.signal });
      if (out === undefined || out === null) return end({ exitCode: 0 });
      if (typeof out !== 'object' || Array.isArray(out)) return end({ exitCode: 0, stdout: String(out) });
      const { exitCode, reason, ...json } = out as { exitCode?: unknown; reason?: unknown } & Record<string, unknown>;
      if (exitCode === 2) return end({ exitCode: 2, stderr: typeof reason === 'string' ? reason : '' });
      return end({ exitCode: 0, stdout: JSON.stringify(reason === undefined ? json : { ...json, reason }) });
    } catch (e) {
      return end({ exitCode: 1, stderr: e instanceof Error ? e.message : String(e) });
    }
  })();
  try {
    return await Promise.race([ran, stopped]);
  } finally {
    clearTimeout(timer);
    if (!own.signal.aborted) own.abort(new Error('hook finished'));
  }
}
