import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { addUsage, emptyUsage, type Message, type ModelHandle, type Usage } from '../providers/types.ts';
import type { HookEngine } from '../hooks/engine.ts';
import { toolSchemas } from '../tools/registry.ts';
import { TASK_KIND } from '../tools/kinds.ts';
import { costUsd } from '../providers/catalogue.ts';
import type { ToolContext, ToolDef, ToolResult } from '../tools/types.ts';
import { Transcript } from '../session/transcript.ts';
import type { AgentDef } from './agent-defs.ts';
import type { AgentEvent, EventSink, RunOutcome } from './events.ts';
import { stopSeam, toolSeams } from './hook-seams.ts';
import { runAgent } from './loop.ts';
import type { ToolCall, ToolRunContext } from './tool-call.ts';
import description from '../tools/task.md';

/** Task calls of one model message run at most this many at once (SPEC §14). */
const MAX_CONCURRENT_SUBAGENTS = 4;
/** Tools a subagent never gets: depth 1, and the task list belongs to the session. */
const PARENT_ONLY = new Set(['Task', 'TodoWrite']);

/** What a subagent shares with the session that starts it: the rules, hooks, questions, budget and model. */
interface SubagentHost {
  cwd: string;
  sessionId: string;
  /** The session's transcript directory: subagent transcripts go under `<dir>/<sessionId>/subagents/`. */
  transcriptDir: string;
  version: string;
  env: Record<string, string>;
  hooks: HookEngine;
  model(): ModelHandle;
  /** A custom agent's `model:`; absent: the session's model is used. */
  resolveModel?(spec: string): Promise<ModelHandle>;
  /** The session's tools (the subagent gets a subset). */
  tools(): ToolDef[];
  /** The system prompt of a subagent: the agent's prompt with the environment facts and ASSISTANT.md. */
  system(agentPrompt: string, model: ModelHandle): string;
  decide: ToolRunContext['decide'];
  ask: ToolRunContext['ask'];
  /** The session's event sink (the subagent's events arrive wrapped in `subagent` events). */
  emit: EventSink;
  maxTurns?: number;
  /** The current prompt's shared turn counter. */
  budget(): { used: number } | undefined;
  /** What the parent's tools see: file-state is the subagent's own, the rest the session's. */
  toolCtx(signal: AbortSignal): Omit<ToolContext, 'fileState' | 'shell'>;
  onDenied(call: ToolCall, input: unknown): void;
  /** Links a finished subagent from the session's transcript. */
  record(entry: { toolUseId: string; agent: string; agentId: string; path: string; status: string; turns: number; usage: Usage }): void;
}

/** A tiny semaphore: at most `n` holders at once, in arrival order. */
class Slots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly n: number) {}
  async take(): Promise<() => void> {
    if (this.busy >= this.n) await new Promise<void>((r) => this.waiting.push(r));
    else this.busy++;
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    };
  }
}

/** Starts subagents for the session's Task calls and adds up what they cost. */
export class Subagents {
  private readonly slots = new Slots(MAX_CONCURRENT_SUBAGENTS);
  private totals = { turns: 0, usage: emptyUsage() };
  constructor(
    private readonly host: SubagentHost,
    readonly agents: AgentDef[],
  ) {}

  /** The turns and usage of the subagents since the last call (the prompt's result adds them). */
  take(): { turns: number; usage: Usage } {
    const t = this.totals;
    this.totals = { turns: 0, usage: emptyUsage() };
    return t;
  }

  /** Tokens of a side request (WebFetch's page answer) made for the current prompt. */
  addUsage(usage: Usage): void {
    this.totals = { ...this.totals, usage: addUsage(this.totals.usage, usage) };
  }

  /** The Task tool, its description listing the agents. */
  tool(): ToolDef {
    return taskTool(this);
  }

  /** Runs one subagent to its report. Never throws: failures are error results for the calling model. */
  async run(input: { description: string; prompt: string; subagent_type?: string }, ctx: ToolContext): Promise<ToolResult> {
    // Claude Code's default when the model names none.
    const type = input.subagent_type ?? 'general-purpose';
    const agent = this.agents.find((a) => a.name === type) ?? this.agents.find((a) => a.name.toLowerCase() === type.toLowerCase());
    if (!agent) return { isError: true, output: `There is no agent "${type}". Agents: ${this.agents.map((a) => a.name).join(', ')}.` };
    const release = await this.slots.take();
    try {
      return await this.runAgentDef(agent, input, ctx);
    } finally {
      release();
    }
  }

  private async runAgentDef(agent: AgentDef, input: { description: string; prompt: string }, ctx: ToolContext): Promise<ToolResult> {
    const h = this.host;
    const signal = ctx.signal;
    const started = Date.now();
    if (signal.aborted) return { isError: true, output: 'Interrupted by the user before the subagent started.' };
    let model = h.model();
    if (agent.model) {
      if (!h.resolveModel)
        return { isError: true, output: `The agent "${agent.name}" asks for the model ${agent.model}, which cannot be set up here.` };
      try {
        model = await h.resolveModel(agent.model);
      } catch (e) {
        return {
          isError: true,
          output: `The agent "${agent.name}" asks for the model ${agent.model}, which cannot be used: ${(e as Error).message}`,
        };
      }
    }
    const parentId = ctx.callId ?? randomUUID();
    const agentId = randomUUID().slice(0, 8);
    const names = agent.tools ? new Set(agent.tools) : undefined;
    const tools = h.tools().filter((t) => !PARENT_ONLY.has(t.name) && (!names || names.has(t.name)));
    const transcript = new Transcript(join(h.transcriptDir, h.sessionId, 'subagents'), `agent-${agentId}`);
    const now = () => new Date().toISOString();
    transcript.write({
      type: 'session',
      sessionId: agentId,
      cwd: h.cwd,
      model: model.id,
      version: h.version,
      timestamp: now(),
      ...{ parentSessionId: h.sessionId, parentToolUseId: parentId, agent: agent.name },
    } as never);
    const emit = (event: AgentEvent) => h.emit({ type: 'subagent', parentToolUseId: parentId, agent: agent.name, agentId, event });
    const ids = { agent_id: agentId, agent_type: agent.name };
    const stop = stopSeam(h.hooks, emit, 'SubagentStop', { ...ids, agent_transcript_path: transcript.path });
    const messages: Message[] = [];
    const shared = h.toolCtx(signal);
    const outcome: RunOutcome = await runAgent(input.prompt, {
      model,
      system: h.system(agent.prompt, model),
      toolSpecs: toolSchemas(tools),
      messages,
      append: (message, usage) => {
        messages.push(message);
        transcript.write({ type: 'message', message, ...(usage ? { usage } : {}), timestamp: now() });
        emit({ type: 'message', message, usage });
      },
      run: {
        tools: new Map(tools.map((t) => [t.name, t])),
        // Its own record of files read (it must read before it edits) and its own shell directory.
        toolCtx: { ...shared, signal, fileState: new Map(), shell: { cwd: h.cwd } },
        decide: h.decide,
        ask: (req, sig) => h.ask({ ...req, agent: agent.name }, sig),
        seams: toolSeams(h.hooks, ids),
        emit,
      },
      onStop: (sig, lastText) => stop.onStop(sig, lastText),
      halted: () => h.hooks.stopReason,
      signal,
      maxTurns: h.maxTurns,
      budget: h.budget(),
      onDenied: h.onDenied,
    });
    transcript.write({
      type: 'result',
      status: outcome.status,
      turns: outcome.turns,
      usage: outcome.usage,
      costUsd: costUsd(model.facts?.price, outcome.usage),
      ...(outcome.error ? { error: outcome.error } : {}),
      timestamp: now(),
    });
    this.totals = { turns: this.totals.turns + outcome.turns, usage: addUsage(this.totals.usage, outcome.usage) };
    h.record({
      toolUseId: parentId,
      agent: agent.name,
      agentId,
      path: transcript.path,
      status: outcome.status,
      turns: outcome.turns,
      usage: outcome.usage,
    });
    const calls = messages.reduce((n, m) => n + (m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call').length : 0), 0);
    const display = `${agent.name}: ${calls} tool use${calls === 1 ? '' : 's'} · ${outcome.usage.inputTokens + outcome.usage.outputTokens} tokens`;
    const u = outcome.usage;
    // Claude Code's Task response (agentId, agentType, status "completed", prompt, totals, usage in its names), and ours.
    const response = {
      status: outcome.status === 'done' || outcome.status === 'stopped' ? 'completed' : outcome.status,
      prompt: input.prompt,
      agentId,
      agentType: agent.name,
      agent_id: agentId,
      agent_type: agent.name,
      transcript_path: transcript.path,
      content: [{ type: 'text', text: outcome.text }],
      totalToolUseCount: calls,
      totalDurationMs: Date.now() - started,
      totalTokens: u.inputTokens + u.outputTokens,
      usage: {
        input_tokens: u.inputTokens,
        output_tokens: u.outputTokens,
        cache_read_input_tokens: u.cacheReadTokens,
        cache_creation_input_tokens: u.cacheWriteTokens,
      },
    };
    switch (outcome.status) {
      case 'done':
      case 'stopped':
        return { output: outcome.text.trim() || `The ${agent.name} agent finished without a report.`, display, response };
      case 'aborted':
        return { isError: true, output: 'The subagent was interrupted by the user.', display, response };
      case 'max-turns':
        return {
          isError: true,
          output: `The subagent stopped: ${outcome.error}${outcome.text ? ` Its last words: ${outcome.text}` : ''}`,
          display,
          response,
        };
      default:
        return { isError: true, output: `The subagent failed: ${outcome.error ?? outcome.status}`, display, response };
    }
  }
}

const schema = z.object({
  description: z.string().min(1).describe('A short (3-5 word) description of the task'),
  prompt: z
    .string()
    .min(1)
    .describe('The task for the agent to perform: everything it needs to know, as it sees nothing of this conversation'),
  subagent_type: z.string().min(1).optional().describe('The type of agent to use for this task (default: general-purpose)'),
});

/** The Task tool (SPEC §14): starts a subagent and returns its report. */
function taskTool(subagents: Subagents): ToolDef<typeof schema> {
  const list = subagents.agents
    .map((a) => `- ${a.name}: ${a.description} (Tools: ${a.tools ? a.tools.join(', ') : 'all but Task and TodoWrite'})`)
    .join('\n');
  return {
    name: 'Task',
    description: description.replace('{{AGENTS}}', list),
    schema,
    // The call itself changes nothing (each of the subagent's calls is checked on its own): Task calls of one message run together.
    readOnly: true,
    ...TASK_KIND,
    execute: (input, ctx) => subagents.run(input, ctx),
  };
}
