import { randomUUID } from 'node:crypto';
import { envWith } from '../process/env.ts';
import { matches } from './matcher.ts';
import { interpret, type HookJson, type HookOutcome } from './outcome.ts';
import { runHookCommand, type HookRun } from './runner.ts';
import { runHookFunction } from './function-runner.ts';
import { TOOL_EVENTS, type HookEvent, type HookSpec } from './schema.ts';

/** A hook ran: its command, where it came from, how it ended (stream-json shows these as hook decisions). */
export interface HookRan {
  type: 'hook';
  event: string;
  command: string;
  source: string;
  exitCode: number | null;
  durationMs: number;
  outcome: 'ok' | 'block' | 'failed';
  message?: string;
}

/** The events a hook engine reports: a subset of the agent's events, so its sink fits. */
type HookReport = HookRan | { type: 'hook-running'; event: string; command: string } | { type: 'warning'; message: string };
type HookSink = (report: HookReport) => void;

interface HookContext {
  projectDir: string;
  sessionId: string;
  transcriptPath: string;
  /** Settings `env`, given to hooks on top of the process environment. */
  env: Record<string, string>;
  /** Claude Code's name of the current mode (`default`, `plan`, `acceptEdits`, `bypassPermissions`). */
  permissionMode(): string;
  /** Where hook runs and warnings are reported (the agent's event sink fits). */
  emit: HookSink;
  /** Sees every hook run with its full output (`assistant hooks test`). */
  observe?(fired: Fired): void;
  /**
   * A person is at the keyboard for the whole session (the terminal UI). Then `"continue": false`
   * from a SessionStart hook is shown to them and stops nothing; otherwise (one-shot runs) it stops
   * the run before its prompt is sent.
   */
  interactive?: boolean;
}

export interface Fired {
  run: HookRun;
  outcome: HookOutcome;
}

/** Events where a blocking hook has nothing to block: its reason is for the user. */
const USER_ONLY_BLOCKS: ReadonlySet<HookEvent> = new Set(['Notification', 'SessionStart', 'SessionEnd', 'PreCompact']);

/** A hook that runs longer than this is shown to the user by name while it runs (SPEC §4). */
const SLOW_MS = 1000;

/**
 * Runs the hooks of one session (a snapshot taken at start: SPEC §4). Matching hooks of an event
 * run in parallel; the same command string runs once. Never throws.
 */
export class HookEngine {
  private promptId = randomUUID();
  /** Set by a hook's `{"continue": false}`: the run ends after the current step. */
  stopReason: string | undefined;
  /**
   * `{"continue": false}` from a SessionStart hook in a one-shot run: it outlives newPrompt(), so
   * the run's prompt is never sent (SPEC §11.2: exit 0, stopReason shown).
   */
  private sessionStop: string | undefined;
  /** See HookContext.interactive; settable after construction (set-up knows, the Session does not pass it). */
  interactive: boolean;

  constructor(
    readonly hooks: readonly HookSpec[],
    private readonly ctx: HookContext,
  ) {
    this.interactive = ctx.interactive ?? false;
  }

  has(event: HookEvent): boolean {
    return this.hooks.some((h) => h.event === event);
  }

  /** A new prompt: a new prompt_id, and a stop from the last prompt is forgotten (not a SessionStart one). */
  newPrompt(): void {
    this.promptId = randomUUID();
    this.stopReason = this.sessionStop;
  }

  /** The fields every event's input carries (Claude Code's names). */
  base(event: HookEvent, withMode: boolean): Record<string, unknown> {
    return {
      session_id: this.ctx.sessionId,
      transcript_path: this.ctx.transcriptPath,
      cwd: this.ctx.projectDir,
      prompt_id: this.promptId,
      ...(withMode ? { permission_mode: this.ctx.permissionMode() } : {}),
      hook_event_name: event,
    };
  }

  /** Runs the matching hooks of `event` with `input` on stdin. */
  async fire(
    event: HookEvent,
    input: Record<string, unknown>,
    signal: AbortSignal,
    tool?: { name: string; filePath?: string },
  ): Promise<Fired[]> {
    // A run already stopped by a SessionStart hook sends no prompt: nothing sees one.
    if (event === 'UserPromptSubmit' && this.sessionStop !== undefined) return [];
    // The same command string runs once, with the longest timeout of its entries, and failClosed
    // if any entry is: de-duplication must not weaken a guard (a short timeout in one file would
    // otherwise turn another file's blocking guard into a warning).
    const byCommand = new Map<string, HookSpec>();
    for (const h of this.hooks) {
      if (h.event !== event) continue;
      if (TOOL_EVENTS.has(event) && !matches(h.matcher, tool?.name ?? '')) continue;
      // SubagentStop matches the agent's type, as in Claude Code (`tool` names it).
      if (event === 'SubagentStop' && tool && !matches(h.matcher, tool.name)) continue;
      const first = byCommand.get(h.command);
      if (!first) {
        byCommand.set(h.command, h);
        continue;
      }
      if ((h.failClosed && !first.failClosed) || h.timeoutMs > first.timeoutMs) {
        byCommand.set(h.command, {
          ...first,
          failClosed: first.failClosed || h.failClosed,
          timeoutMs: Math.max(first.timeoutMs, h.timeoutMs),
        });
      }
    }
    const selected = [...byCommand.values()];
    if (selected.length === 0) return [];
    // Only command hooks get an environment (SDK function hooks run in this process).
    const env = selected.every((h) => h.fn)
      ? {}
      : envWith(this.ctx.env, {
          ASSISTANT_PROJECT_DIR: this.ctx.projectDir,
          CLAUDE_PROJECT_DIR: this.ctx.projectDir,
          ASSISTANT_SESSION_ID: this.ctx.sessionId,
          ASSISTANT_HOOK_EVENT: event,
          ...(tool ? { ASSISTANT_TOOL_NAME: tool.name } : {}),
          ...(tool?.filePath ? { ASSISTANT_FILE_PATH: tool.filePath } : {}),
        });
    return Promise.all(
      selected.map(async (hook) => {
        const slow = setTimeout(() => this.ctx.emit({ type: 'hook-running', event, command: hook.command }), SLOW_MS);
        const run = hook.fn
          ? await runHookFunction(hook, input, signal)
          : await runHookCommand(hook, input, env, this.ctx.projectDir, signal);
        clearTimeout(slow);
        const outcome = interpret(run, event);
        this.report(event, run, outcome);
        this.ctx.observe?.({ run, outcome });
        return { run, outcome };
      }),
    );
  }

  private report(event: HookEvent, run: HookRun, outcome: HookOutcome): void {
    const json = outcome.kind === 'ok' ? outcome.json : undefined;
    this.ctx.emit({
      type: 'hook',
      event,
      command: run.hook.command,
      source: run.hook.source,
      exitCode: run.exitCode,
      durationMs: Math.round(run.durationMs),
      outcome: outcome.kind,
      ...(outcome.kind === 'block' ? { message: outcome.reason } : {}),
    });
    if (outcome.kind === 'failed' && !run.interrupted) this.ctx.emit({ type: 'warning', message: outcome.warning });
    // Events whose exit 2 concerns only the user (SPEC §4 "others": the reason is shown to the user).
    if (outcome.kind === 'block' && USER_ONLY_BLOCKS.has(event)) {
      this.ctx.emit({ type: 'warning', message: `${event} hook "${run.hook.command}" (${run.hook.source}): ${outcome.reason}` });
    }
    if (json?.systemMessage) this.ctx.emit({ type: 'warning', message: json.systemMessage });
    if (json?.continue === false) {
      const reason = json.stopReason ?? `A ${event} hook asked to stop ("continue": false).`;
      if (event === 'SessionStart' && this.interactive) {
        // The person decides: shown at once, nothing is stopped.
        this.ctx.emit({
          type: 'warning',
          message: `SessionStart hook "${run.hook.command}" (${run.hook.source}) asked to stop: ${reason} — the session stays open; /exit ends it.`,
        });
        return;
      }
      if (event === 'SessionStart') this.sessionStop ??= reason;
      this.stopReason ??= reason;
    }
  }
  /** Replaces the snapshot with hooks the user reviewed and accepted (`/hooks`, SPEC §4). */
  replace(hooks: readonly HookSpec[]): void {
    (this as { hooks: readonly HookSpec[] }).hooks = hooks;
  }
}

/** The JSON outputs of the hooks that exited 0. */
export function jsonOf(fired: Fired[]): HookJson[] {
  return fired.flatMap((f) => (f.outcome.kind === 'ok' && f.outcome.json ? [f.outcome.json] : []));
}

/** `additionalContext` and plain stdout of successful hooks (UserPromptSubmit, SessionStart). */
export function contextOf(fired: Fired[]): string[] {
  return fired.flatMap((f) => {
    if (f.outcome.kind !== 'ok') return [];
    if (f.outcome.json)
      return f.outcome.json.hookSpecificOutput?.additionalContext ? [f.outcome.json.hookSpecificOutput.additionalContext] : [];
    const t = f.outcome.stdout.trim();
    return t ? [t] : [];
  });
}

/** `[command]: reason` lines of the hooks that blocked, Claude Code's format. */
export function blocksOf(fired: Fired[]): string[] {
  const out: string[] = [];
  for (const f of fired) {
    if (f.outcome.kind === 'block') out.push(`[${f.run.hook.command}]: ${f.outcome.reason}`);
    const j = f.outcome.kind === 'ok' ? f.outcome.json : undefined;
    if (j?.decision === 'block') out.push(j.reason ?? `[${f.run.hook.command}]: blocked without a reason`);
  }
  return out;
}
