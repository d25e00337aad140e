import { randomUUID } from 'node:crypto';
import type { PreparedCall, PreToolVerdict, ToolSeams } from './tool-call.ts';
import type { EventSink } from './events.ts';
import { blocksOf, contextOf, jsonOf, type HookEngine } from '../hooks/engine.ts';

/** Stop hooks may keep the assistant going at most this many times in a row (Claude Code: 8). */
export const MAX_STOP_BLOCKS = 8;

/** Hooks see file paths absolute, as in Claude Code, whatever form the model used. */
function hookToolInput(call: PreparedCall): Record<string, unknown> {
  if (call.filePath && typeof call.input.file_path === 'string') return { ...call.input, file_path: call.filePath };
  if (call.filePath && typeof call.input.path === 'string') return { ...call.input, path: call.filePath };
  return call.input;
}

/** PreToolUse for one call: the hooks' combined verdict (`block` when any blocks or denies). */
async function preToolVerdict(
  engine: HookEngine,
  name: string,
  toolInput: Record<string, unknown>,
  id: string,
  filePath: string | undefined,
  signal: AbortSignal,
  agent: Record<string, unknown> = {},
): Promise<PreToolVerdict> {
  if (!engine.has('PreToolUse')) return {};
  const input = { ...engine.base('PreToolUse', true), ...agent, tool_name: name, tool_input: toolInput, tool_use_id: id };
  const fired = await engine.fire('PreToolUse', input, signal, { name, filePath });
  const blocks = fired.flatMap((f) => (f.outcome.kind === 'block' ? [`[${f.run.hook.command}]: ${f.outcome.reason}`] : []));
  if (blocks.length) return { block: `PreToolUse:${name} hook error: ${blocks.join('\n')}` };
  // `"continue": false` stops the run; the call it was asked about must not run either.
  if (engine.stopReason !== undefined) return { block: `Stopped by a PreToolUse hook: ${engine.stopReason}` };
  const verdict: PreToolVerdict = {};
  const order = { deny: 3, ask: 2, allow: 1 } as const;
  for (const j of jsonOf(fired)) {
    const spec = j.hookSpecificOutput;
    const legacy = j.decision === 'block' ? 'deny' : j.decision === 'approve' ? 'allow' : undefined;
    const d = spec?.permissionDecision ?? legacy;
    if (d && d in order && (!verdict.decision || order[d] > order[verdict.decision])) {
      verdict.decision = d;
      verdict.reason = spec?.permissionDecisionReason ?? j.reason;
    }
    if (spec?.updatedInput && typeof spec.updatedInput === 'object') verdict.updatedInput = spec.updatedInput;
    if (typeof spec?.additionalContext === 'string' && spec.additionalContext)
      verdict.context = [verdict.context, spec.additionalContext].filter(Boolean).join('\n');
  }
  if (verdict.decision === 'deny') return { block: verdict.reason ?? `A PreToolUse hook denied ${name}.` };
  return verdict;
}

/**
 * A command file's `` !`cmd` `` passes PreToolUse like any Bash call (tool_name "Bash"): the reason
 * it may not run, or undefined. A `!` cannot ask and runs only what it says, so a hook that asks
 * or rewrites the command stops it too; a hook's "allow" does not lift the permission rules.
 */
export async function bangCommandHook(engine: HookEngine, command: string, signal: AbortSignal): Promise<string | undefined> {
  const v = await preToolVerdict(engine, 'Bash', { command }, `bang_${randomUUID()}`, undefined, signal);
  if (v.block) return `a PreToolUse hook blocked it: ${v.block}`;
  if (v.decision === 'ask')
    return `a PreToolUse hook asks before it runs${v.reason ? ` (${v.reason})` : ''}, and a command's \`!\` cannot ask`;
  if (v.updatedInput && v.updatedInput.command !== command)
    return "a PreToolUse hook rewrote it, and a command's `!` runs only what its file says";
  return undefined;
}

/** PreToolUse and PostToolUse as the loop's tool seams; `agent` names the subagent the calls run in (Claude Code's `agent_id`, `agent_type`). */
export function toolSeams(engine: HookEngine, agent: Record<string, unknown> = {}): ToolSeams {
  return {
    preToolUse: (call, signal) => preToolVerdict(engine, call.name, hookToolInput(call), call.id, call.filePath, signal, agent),
    async postToolUse(call, result, durationMs, signal) {
      if (!engine.has('PostToolUse')) return undefined;
      const input = {
        ...engine.base('PostToolUse', true),
        ...agent,
        tool_name: call.name,
        tool_input: hookToolInput(call),
        tool_response: result.response ?? { output: result.output, isError: !!result.isError },
        tool_use_id: call.id,
        duration_ms: Math.round(durationMs),
      };
      const fired = await engine.fire('PostToolUse', input, signal, { name: call.name, filePath: call.filePath });
      const notes = [
        ...blocksOf(fired),
        ...jsonOf(fired).flatMap((j) => (j.hookSpecificOutput?.additionalContext ? [j.hookSpecificOutput.additionalContext] : [])),
      ];
      return notes.length ? `PostToolUse:${call.name} hook feedback:\n${notes.join('\n')}` : undefined;
    },
  };
}

/**
 * The Stop seam: a blocking Stop hook sends its reason back to the model as what is left to do.
 * `stop_hook_active` is true while continuing because of a Stop hook; after MAX_STOP_BLOCKS blocks
 * in a row the assistant stops anyway, with a warning.
 */
export function stopSeam(
  engine: HookEngine,
  emit: EventSink,
  event: 'Stop' | 'SubagentStop' = 'Stop',
  extra: Record<string, unknown> = {},
) {
  let streak = 0;
  return {
    reset() {
      streak = 0;
    },
    async onStop(signal: AbortSignal, lastText: string): Promise<string | undefined> {
      if (!engine.has(event)) return undefined;
      const input = {
        ...engine.base(event, true),
        ...extra,
        stop_hook_active: streak > 0,
        last_assistant_message: lastText,
        // Claude Code's fields, for scripts that read them; this assistant has neither.
        background_tasks: [],
        session_crons: [],
      };
      const fired = await engine.fire(
        event,
        input,
        signal,
        event === 'SubagentStop' ? { name: String(extra.agent_type ?? '') } : undefined,
      );
      const blocks = blocksOf(fired);
      // `"continue": false` beats any decision to block.
      if (blocks.length === 0 || signal.aborted || engine.stopReason !== undefined) {
        streak = 0;
        return undefined;
      }
      if (++streak > MAX_STOP_BLOCKS) {
        emit({ type: 'warning', message: `${event} hooks blocked stopping ${MAX_STOP_BLOCKS} times in a row; stopping anyway.` });
        streak = 0;
        return undefined;
      }
      return `${event} hook feedback:\n${blocks.join('\n')}`;
    },
  };
}

/** UserPromptSubmit: `blocked` erases the prompt; `context` is added to it. */
export async function userPromptSubmit(
  engine: HookEngine,
  prompt: string,
  signal: AbortSignal,
): Promise<{ blocked?: string; context: string[] }> {
  if (!engine.has('UserPromptSubmit')) return { context: [] };
  const fired = await engine.fire('UserPromptSubmit', { ...engine.base('UserPromptSubmit', true), prompt }, signal);
  const blocks = fired.flatMap((f) => {
    if (f.outcome.kind === 'block') return [f.outcome.reason];
    const j = f.outcome.kind === 'ok' ? f.outcome.json : undefined;
    return j?.decision === 'block' ? [j.reason ?? 'blocked by a UserPromptSubmit hook'] : [];
  });
  if (blocks.length) return { blocked: blocks.join('\n'), context: [] };
  return { context: contextOf(fired) };
}

/** SessionStart: what the hooks print (or their additionalContext) becomes context for the model. */
export async function sessionStart(
  engine: HookEngine,
  source: 'startup' | 'resume' | 'clear' | 'compact',
  signal: AbortSignal,
): Promise<string[]> {
  if (!engine.has('SessionStart')) return [];
  const { prompt_id: _none, ...base } = engine.base('SessionStart', false);
  const fired = await engine.fire('SessionStart', { ...base, source }, signal);
  return contextOf(fired);
}

export async function sessionEnd(engine: HookEngine, reason: 'clear' | 'prompt_input_exit' | 'other', signal: AbortSignal): Promise<void> {
  if (!engine.has('SessionEnd')) return;
  await engine.fire('SessionEnd', { ...engine.base('SessionEnd', false), reason }, signal);
}

/** Notification hooks (SPEC §4): the assistant waits for the person (`permission_prompt`, `idle_prompt`). Never throws. */
export async function notification(engine: HookEngine, message: string, notificationType: string, signal: AbortSignal): Promise<void> {
  if (!engine.has('Notification')) return;
  await engine.fire('Notification', { ...engine.base('Notification', false), message, notification_type: notificationType }, signal);
}
