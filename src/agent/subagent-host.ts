import { environmentFacts, subagentSystemPrompt } from '../context/system-prompt.ts';
import type { HookEngine } from '../hooks/engine.ts';
import type { Gate } from '../permissions/gate.ts';
import type { ModelHandle } from '../providers/types.ts';
import type { Conversation } from '../session/conversation.ts';
import { projectDir } from '../session/transcript.ts';
import type { ToolDef } from '../tools/types.ts';
import type { EventSink } from './events.ts';
import type { SessionOptions } from './session-options.ts';
import type { Subagents } from './subagent.ts';
import type { ToolRunContext } from './tool-call.ts';

/** The parts of a session its subagents use (session-parts.ts). */
interface HostSession {
  readonly opts: Readonly<SessionOptions>;
  readonly id: string;
  readonly hooks: HookEngine;
  readonly gate: Gate;
  readonly conversation: Conversation;
  readonly toolset: { all(): ToolDef[] };
  readonly memory: string;
  readonly budget?: { used: number };
  readonly emit: EventSink;
  model(): ModelHandle;
  decide: ToolRunContext['decide'];
  ask: ToolRunContext['ask'];
  denied(call: { name: string; id: string }, input: unknown): void;
}

/** What subagents share with their session (SPEC §14): rules, mode, hooks, questions, turn budget. */
export function subagentHost(s: HostSession): ConstructorParameters<typeof Subagents>[0] {
  const o = s.opts;
  return {
    cwd: o.cwd,
    version: o.version,
    env: o.env,
    maxTurns: o.maxTurns,
    resolveModel: o.resolveModel,
    sessionId: s.id,
    transcriptDir: projectDir(o.home, o.cwd),
    hooks: s.hooks,
    // Subagents get the MCP tools too (as in Claude Code), unless their `tools` list leaves them out.
    model: () => s.model(),
    tools: () => s.toolset.all(),
    system: (prompt, model) =>
      subagentSystemPrompt(prompt, environmentFacts(o.cwd, model.label, process.env, o.now), s.gate.mode, [s.memory]),
    decide: (tool, input) => s.decide(tool, input),
    ask: (req, sig) => s.ask(req, sig),
    emit: (ev) => s.emit(ev),
    budget: () => s.budget,
    toolCtx: (signal) => ({
      cwd: o.cwd,
      signal,
      env: o.env,
      beforeChange: s.conversation.history.beforeChange,
      sandbox: o.sandbox,
      readDenied: (tool, abs) => s.gate.readDenied(tool, abs),
    }),
    onDenied: (call, input) => s.denied(call, input),
    record: (entry) => s.conversation.transcript.write({ type: 'subagent', ...entry, timestamp: new Date().toISOString() }),
  };
}
