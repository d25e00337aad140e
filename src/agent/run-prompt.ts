import type { Grant } from '../commands/dispatch.ts';
import type { Expansion } from '../context/at-paths.ts';
import { runPromptCommand, type PromptCommand } from '../mcp/prompts.ts';
import { resolveModel } from '../providers/resolve.ts';
import { emptyUsage, type ModelHandle } from '../providers/types.ts';
import type { RunOutcome } from './events.ts';
import type { Session } from './session.ts';
import { resolveOptions, type Setup } from './setup.ts';

/** One prompt for the session: what a `prompt` dispatch becomes once its model is set up. */
export interface PromptRequest {
  prompt: string;
  /** What the history shows instead (a command as typed); the transcript keeps it for a redraw. */
  shown?: string;
  /** Allow rules for this prompt only; taken away when it ends, whatever happens. */
  grant?: Grant;
  /** Answers this prompt instead of the session's model (a command's `model:`). */
  model?: ModelHandle;
  /** An MCP server's prompt to get first: its text is what is sent (SPEC §12). */
  mcp?: PromptCommand;
}

export type PromptRun =
  | { sent: true; outcome: RunOutcome }
  /** Nothing reached the model: an MCP prompt could not be got (`mcp`), or an `@` reference failed (`references`). */
  | { sent: false; cause: 'mcp' | 'references'; errors: string[] };

/**
 * The one prompt lifecycle of every front door (terminal UI, headless, SDK): get an MCP prompt →
 * expand `@` references → grant → model override → prompt → revoke (SPEC §6). `expanded` runs once
 * the references are read, before anything is sent (the attachments shown; headless runs its
 * SessionStart hooks there). Throws only what the session throws (a malformed grant).
 */
export async function runPrompt(
  session: Session,
  req: PromptRequest,
  signal: AbortSignal,
  expanded?: (e: Expansion & { ok: true }) => void | Promise<void>,
): Promise<PromptRun> {
  let text = req.prompt;
  if (req.mcp) {
    const { server, prompt } = req.mcp;
    const got = session.mcp
      ? await runPromptCommand(req.mcp, session.mcp, signal)
      : { ok: false as const, error: `/mcp__${server}__${prompt}: no MCP server is configured` };
    if (!got.ok) return { sent: false, cause: 'mcp', errors: [got.error] };
    text = got.prompt;
  }
  const expansion = await session.expandReferences(text, signal);
  if (!expansion.ok) return { sent: false, cause: 'references', errors: expansion.errors };
  await expanded?.(expansion);
  session.showNextPromptAs(req.shown);
  const revoke = req.grant?.rules.length ? session.gate.grant(req.grant.rules, req.grant.source) : undefined;
  try {
    const outcome = req.model
      ? await session.promptWith(req.model, text, signal, expansion)
      : await session.prompt(text, signal, expansion);
    return { sent: true, outcome };
  } finally {
    revoke?.();
  }
}

/** Sets up the model `spec` as set-up would (`resolveOptions`: keys, thinking, window), or says why it cannot be. */
export async function setupModel(setup: Setup, spec: string): Promise<{ model: ModelHandle } | { error: string }> {
  try {
    return { model: await resolveModel(resolveOptions(setup, spec)) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** A command's `model:` (SPEC §6), or why it cannot be used: then nothing is sent. */
export async function commandModel(setup: Setup, spec: string): Promise<{ model: ModelHandle } | { error: string }> {
  const m = await setupModel(setup, spec);
  return 'error' in m ? { error: `its model "${spec}" cannot be used: ${m.error}` } : m;
}

/** A run that failed before (or instead of) a model turn: `error` says why. */
export const failedOutcome = (error: string): RunOutcome => ({ status: 'error', text: '', turns: 0, usage: emptyUsage(), error });

/**
 * `/compact [instructions]` as a run with an outcome (terminal UI, headless, SDK): the summary is
 * one model request, PreCompact hooks included. Where nobody is at the terminal, a hook that said
 * `continue: false` (a SessionStart one) stops it; a person at the terminal decides for themselves.
 */
export async function runCompact(
  session: Session,
  instructions: string,
  signal: AbortSignal,
): Promise<{ outcome: RunOutcome; apiMs: number }> {
  const stop = session.hooks.interactive ? undefined : session.hooks.stopReason;
  const asked = performance.now();
  const c = stop === undefined ? await session.compact('manual', instructions || undefined, signal) : undefined;
  const apiMs = c ? performance.now() - asked : 0;
  const outcome: RunOutcome = !c
    ? { status: 'stopped', text: '', turns: 0, usage: emptyUsage(), error: stop }
    : c.ok
      ? { status: 'done', text: `Compacted ${c.before} messages into a summary.`, turns: 1, usage: c.usage }
      : { status: 'error', text: '', turns: 1, usage: emptyUsage(), error: `compaction failed: ${c.error}` };
  return { outcome, apiMs };
}
