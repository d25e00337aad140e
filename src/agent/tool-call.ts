import type { Decision } from '../permissions/modes.ts';
import { executeTool, validateInput } from '../tools/registry.ts';
import type { ToolContext, ToolDef, ToolResult } from '../tools/types.ts';
import type { AskFn, EventSink } from './events.ts';
import { progressSink } from './tool-progress.ts';

export interface ToolCall {
  id: string;
  name: string;
  /** As the model sent it (JSON text). */
  rawInput: string;
  /** Provider metadata to send back with the call (Gemini's thought signature). */
  meta?: Record<string, Record<string, unknown>>;
}

export interface PreparedCall {
  id: string;
  name: string;
  tool: ToolDef;
  input: Record<string, unknown>;
  /** The absolute file the call concerns, if any (ASSISTANT_FILE_PATH). */
  filePath?: string;
}

/** What a PreToolUse seam may say. `block` refuses the call with that message to the model. */
export interface PreToolVerdict {
  block?: string;
  decision?: 'allow' | 'ask' | 'deny';
  reason?: string;
  /** Replaces the whole input (validated again before use). */
  updatedInput?: Record<string, unknown>;
  /** `additionalContext` for the model, sent with the call's result. */
  context?: string;
}

/** The two seams around every tool call (DESIGN §2). Hooks plug in here. */
export interface ToolSeams {
  preToolUse?(call: PreparedCall, signal: AbortSignal): Promise<PreToolVerdict>;
  /** Returns feedback for the model (appended to the result), if any. */
  postToolUse?(call: PreparedCall, result: ToolResult, durationMs: number, signal: AbortSignal): Promise<string | undefined>;
}

export interface ToolRunContext {
  tools: Map<string, ToolDef>;
  toolCtx: ToolContext;
  /** `sandboxed`: the call runs inside the OS sandbox (SPEC §13); `autoAllowed`: that is why it needs no question. */
  decide(tool: string, input: Record<string, unknown>): Promise<Decision & { sandboxed?: boolean; autoAllowed?: boolean }>;
  ask: AskFn;
  seams: ToolSeams;
  emit: EventSink;
}

export interface CallOutcome {
  result: ToolResult;
  /** Refused before it ran (counted in permission_denials). */
  denied?: boolean;
}

const err = (output: string): ToolResult => ({ output, isError: true });

/** Finds the tool and validates the call; the error result is written for the model to act on. */
function prepare(call: ToolCall, tools: Map<string, ToolDef>, cwd: string): PreparedCall | ToolResult {
  const tool = tools.get(call.name);
  if (!tool) return err(`There is no tool named "${call.name}". Available tools: ${[...tools.keys()].join(', ')}.`);
  const v = validateInput(tool, call.rawInput);
  if ('error' in v) return v.error;
  return { id: call.id, name: call.name, tool, input: v.input, filePath: tool.filePath?.(v.input as never, cwd) };
}

/**
 * validate → PreToolUse hooks → permission decision (deny rules → Plan Mode → ask → allow → mode)
 * → the tool's own check, then ask → execute → PostToolUse (SPEC §3, §11.4–5). A hook's "allow" only skips the question: it
 * never overrides a deny rule or Plan Mode. Never throws.
 */
export async function runCall(call: ToolCall, ctx: ToolRunContext): Promise<CallOutcome> {
  const signal = ctx.toolCtx.signal;
  const prepared = prepare(call, ctx.tools, ctx.toolCtx.cwd);
  if (!('tool' in prepared)) return { result: prepared };
  const { tool } = prepared;
  let { input } = prepared;
  const deny = (reason: string): CallOutcome => {
    ctx.emit({ type: 'tool-denied', id: call.id, name: call.name, input, reason });
    return { result: err(reason), denied: true };
  };

  /** A hook or a permission answer replaced the input: validated like the model's, or the call fails with why. */
  const rewrite = (next: Record<string, unknown>, who: string) => {
    const v = validateInput(tool, next);
    if ('error' in v) return { result: { ...v.error, output: `${who} rewrote the input badly. ${v.error.output}` } };
    input = v.input;
    prepared.input = input;
    prepared.filePath = tool.filePath?.(input as never, ctx.toolCtx.cwd);
    return undefined;
  };
  let hook: PreToolVerdict = {};
  if (ctx.seams.preToolUse) {
    hook = await ctx.seams.preToolUse(prepared, signal);
    if (hook.block !== undefined) return deny(hook.block);
    if (hook.decision === 'deny') return deny(hook.reason ?? `A PreToolUse hook denied ${tool.name}.`);
    if (hook.updatedInput) {
      const bad = rewrite(hook.updatedInput, 'A PreToolUse hook');
      if (bad) return bad;
    }
  }
  const decision = await ctx.decide(tool.name, input);
  if (decision.behavior === 'deny') return deny(decision.reason);
  let behavior = decision.behavior;
  let reason = decision.reason;
  if (hook.decision === 'allow' && !decision.firm) behavior = 'allow';
  if (hook.decision === 'ask') {
    behavior = 'ask';
    reason = hook.reason ?? reason;
  }
  if (behavior === 'ask') {
    // A call that cannot work (an Edit of a file never read) says so instead of costing a question;
    // deny rules and protected paths (firm) still come first, so a check never reads past them.
    const unworkable = decision.firm ? undefined : await tool.check?.(input as never, ctx.toolCtx).catch(() => undefined);
    if (unworkable) return { result: unworkable };
    const answer = await ctx.ask({ tool: tool.name, input, reason, remedy: decision.remedy, firm: decision.firm }, signal);
    if (!answer.allow) return deny(answer.message);
    if (answer.updatedInput) {
      const bad = rewrite(answer.updatedInput, 'The permission answer');
      if (bad) return bad;
    }
  }
  if (signal.aborted) return { result: err('Interrupted by the user before the tool ran.') };

  ctx.emit({
    type: 'tool-start',
    id: call.id,
    name: call.name,
    input,
    ...(decision.sandboxed ? { sandboxed: true, reason: behavior === 'allow' && decision.autoAllowed ? decision.reason : undefined } : {}),
  });
  const started = performance.now();
  const progress = progressSink(ctx.emit, call.id, call.name);
  let result = await executeTool(tool, input, { ...ctx.toolCtx, progress: progress.push, callId: call.id }).finally(progress.stop);
  const durationMs = performance.now() - started;
  ctx.emit({ type: 'tool-end', id: call.id, name: call.name, input, result, durationMs });
  // PostToolUse follows a call that ran and succeeded, as in Claude Code.
  if (ctx.seams.postToolUse && !signal.aborted && !result.isError) {
    const feedback = await ctx.seams.postToolUse(prepared, result, durationMs, signal);
    if (feedback) result = { ...result, output: `${result.output}\n\n${feedback}` };
  }
  if (hook.context) result = { ...result, output: `${result.output}\n\nPreToolUse:${tool.name} hook context:\n${hook.context}` };
  return { result };
}
