import { attachmentImages, attachmentText, type Expansion } from '../context/at-paths.ts';
import { costUsd } from '../providers/catalogue.ts';
import { addUsage, emptyUsage } from '../providers/types.ts';
import type { Compaction } from '../session/conversation.ts';
import type { RunOutcome } from './events.ts';
import { sessionStart, toolSeams, userPromptSubmit } from './hook-seams.ts';
import { mcpReady } from './mcp-ready.ts';
import type { SessionParts } from './session-parts.ts';
import { runTurn } from './turn.ts';
import { wellFormed } from './well-formed.ts';

export type Attached = Expansion & { ok: true };

/**
 * One user prompt of a session, to completion: UserPromptSubmit hooks, MCP servers, compaction
 * when the context is nearly full, the turn (turn.ts), then the totals. Never throws for model or
 * tool failures.
 */
export async function runSessionPrompt(s: SessionParts, prompt: string, signal: AbortSignal, attachments?: Attached): Promise<RunOutcome> {
  const o = s.opts;
  const text = wellFormed(prompt); // never a lone surrogate in the conversation (the API would answer 400 from then on)
  s.notices.report();
  s.conversation.startPrompt();
  s.hooks.newPrompt();
  s.stop.reset();
  const submitted = await userPromptSubmit(s.hooks, text, signal);
  if (submitted.blocked !== undefined) return { status: 'blocked', text: '', turns: 0, usage: emptyUsage(), error: submitted.blocked };
  if (s.hooks.stopReason !== undefined) return { status: 'stopped', text: '', turns: 0, usage: emptyUsage(), error: s.hooks.stopReason };
  s.conversation.countRun();
  await mcpReady(o.mcp, signal, (message) => s.emit({ type: 'warning', message }));
  const full = await autoCompact(s, signal);
  s.budget = { used: 0 };
  s.subagents.take();
  const model = s.model();
  let outcome: RunOutcome =
    full !== undefined
      ? { status: 'error', text: '', turns: 0, usage: emptyUsage(), error: full }
      : await runTurn({
          text,
          model,
          system: s.systemPrompt(),
          signal,
          conversation: s.conversation,
          tools: s.toolset,
          notes: (m) => s.view.fields(m),
          appended: (message, usage) => s.emit({ type: 'message', message, usage }),
          run: {
            toolCtx: {
              cwd: o.cwd,
              signal,
              fileState: s.conversation.fileState,
              shell: s.shell,
              env: o.env,
              beforeChange: s.conversation.history.beforeChange,
              sandbox: o.sandbox,
              readDenied: (tool, abs) => s.gate.readDenied(tool, abs),
            },
            decide: (tool, input) => s.decide(tool, input),
            ask: (req, sig) => s.ask(req, sig),
            seams: toolSeams(s.hooks),
            emit: s.emit,
          },
          context: [...(attachments?.attachments.length ? [attachmentText(attachments.attachments)] : []), ...submitted.context],
          images: attachmentImages(attachments?.attachments ?? []),
          onStop: (sig, lastText) => s.stop.onStop(sig, lastText),
          halted: () => s.hooks.stopReason,
          beforeRequest: (sig) => autoCompact(s, sig),
          maxTurns: o.maxTurns,
          budget: s.budget,
          onDenied: (call, input) => s.denied(call, input),
          verify: o.verify,
          cwd: o.cwd,
          env: o.env,
          skipVerify: () => s.gate.mode === 'plan',
        });
  // Subagents' turns and tokens count in the prompt's result (SPEC §14).
  const sub = s.subagents.take();
  if (sub.turns || sub.usage.inputTokens || sub.usage.outputTokens)
    outcome = { ...outcome, turns: outcome.turns + sub.turns, usage: addUsage(outcome.usage, sub.usage) };
  s.spend.add(outcome.usage);
  s.conversation.endPrompt({ ...outcome, costUsd: costUsd(model.facts?.price, outcome.usage) });
  return outcome;
}

/**
 * Replaces the conversation with the model's summary of it (SPEC §6): PreCompact hooks first,
 * then the summary (conversation.ts), then SessionStart `compact`. Never throws.
 */
export async function compactSession(
  s: SessionParts,
  trigger: 'manual' | 'auto',
  instructions: string | undefined,
  signal: AbortSignal,
): Promise<Compaction> {
  if (s.conversation.messages.length === 0) return { ok: false, error: 'there is no conversation to compact yet' };
  if (s.hooks.has('PreCompact')) {
    await s.hooks.fire('PreCompact', { ...s.hooks.base('PreCompact', true), trigger, custom_instructions: instructions ?? '' }, signal);
  }
  const c = await s.conversation.compact(s.model(), trigger, instructions, signal);
  if (!c.ok) return c;
  s.spend.add(c.usage);
  s.startContext = await sessionStart(s.hooks, 'compact', signal);
  return c;
}

/** Compacts when the context is nearly full (SPEC §6); returns why the run must stop instead (SPEC §11.14). */
function autoCompact(s: SessionParts, signal: AbortSignal): Promise<string | undefined> {
  const auto = s.opts.autoCompact ?? { threshold: 0.8 };
  if (!auto) return Promise.resolve(undefined);
  return s.conversation.autoCompact(
    {
      model: s.model(),
      threshold: auto.threshold,
      fixed: () => s.systemPrompt() + s.toolset.json(),
      compact: (sig) => compactSession(s, 'auto', undefined, sig),
      warn: (message) => s.emit({ type: 'warning', message }),
    },
    signal,
  );
}
