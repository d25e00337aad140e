import { randomUUID } from 'node:crypto';
import { costUsd } from '../providers/catalogue.ts';
import { addUsage, emptyUsage, type Message, type ModelHandle, type Usage } from '../providers/types.ts';
import { CLAUDE_MODE_NAMES, Gate, type PermissionMode } from '../permissions/gate.ts';
import type { RuleSet } from '../permissions/rules.ts';
import { wellFormed } from './well-formed.ts';
import { HookEngine } from '../hooks/engine.ts';
import { sessionEnd, sessionStart, stopSeam, toolSeams, userPromptSubmit } from './hook-seams.ts';
import type { HookSpec } from '../hooks/schema.ts';
import { sessionGuards, type GuardedPath } from '../permissions/protected.ts';
import type { SettingsWatch } from '../config/watch.ts';
import { buildSystemPrompt, environmentFacts, subagentSystemPrompt } from '../context/system-prompt.ts';
import { projectDir, type Transcript } from '../session/transcript.ts';
import { Conversation, type Compaction } from '../session/conversation.ts';
import { ViewNotes } from './view-notes.ts';
import { markReasoningOrigin } from '../providers/wire-prompt.ts';
import { attachmentImages, attachmentText, type Expansion } from '../context/at-paths.ts';
import { builtinTools, toolSchemas } from '../tools/registry.ts';
import { toolKinds } from '../tools/kinds.ts';
import { sandboxedBashTool } from '../tools/bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { ToolContext, ToolDef } from '../tools/types.ts';
import type { AskFn, EventSink, PermissionAnswer, PermissionRequest, RunOutcome } from './events.ts';
import { runAgent } from './loop.ts';
import { asksForVerification, detectTestCommand, Verifier } from './verify.ts';
import type { McpManager } from '../mcp/manager.ts';
import { BUILTIN_AGENTS, type AgentDef } from './agent-defs.ts';
import { Subagents } from './subagent.ts';
import { todosOf, todoWriteTool, type TodoItem } from '../tools/todo-write.ts';
import { webFetchTool } from '../tools/web-fetch.ts';
import { namesHost, webSearchOffer } from '../permissions/web.ts';
import { answerFromPage } from './page-answer.ts';
import { expandReferences } from './references.ts';
import { mcpReady } from './mcp-ready.ts';

export interface SessionOptions {
  cwd: string;
  home: string;
  model: ModelHandle;
  mode: PermissionMode;
  additionalDirs: readonly string[];
  env: Readonly<Record<string, string>>;
  emit: EventSink;
  /** Answers permission questions (the terminal UI; headless refuses). */
  ask: AskFn;
  /** A person answers `ask` (terminal UI): Notification hooks fire while a question waits. */
  interactive?: boolean;
  version: string;
  maxTurns?: number;
  /** Transcript to continue (`-c`, `-r`). */
  resume?: { sessionId: string; path: string };
  /** The id of a new session (default: a random UUID); a resumed one keeps its own. */
  id?: string;
  hooks?: HookSpec[];
  /** `--settings FILE`: a settings file of the command line, protected like the others (SPEC §11.16). */
  settingsFiles?: string[];
  /** Settings snapshot: a change during the session is reported, not applied. */
  watch?: SettingsWatch;
  rules?: RuleSet;
  /** Compact automatically when the conversation passes this share of the context window; false: never. */
  autoCompact?: { threshold: number } | false;
  /** `--append-system-prompt`. */
  appendSystemPrompt?: string;
  /** The ASSISTANT.md section of the system prompt (context/memory.ts). */
  memory?: string;
  /** The verification command run after changes, before the answer (SPEC §8). */
  verify?: string;
  /** The OS sandbox Bash commands run in (SPEC §13); closed when the session ends. */
  sandbox?: Sandbox;
  /** The session's MCP servers (SPEC §12), already starting: their tools join the list; ended with the session. */
  mcp?: McpManager;
  now?: Date;
  /** The agents Task can start (agents.ts `loadAgents`); default: the built-ins. */
  agents?: AgentDef[];
  /** Sets up a custom agent's `model:` (set-up's resolver). */
  resolveModel?(spec: string): Promise<ModelHandle>;
}

export interface Denial { tool_name: string; tool_use_id: string; tool_input: unknown }

/**
 * One session: a permission gate and a conversation, with the hooks, tools and totals around
 * them. The loop does the work; the gate decides each call; the conversation keeps the record.
 */
export class Session {
  readonly id: string;
  readonly gate: Gate;
  readonly conversation: Conversation;
  readonly tools: ToolDef[];
  readonly denials: Denial[] = [];
  readonly hooks: HookEngine;
  /** The Task tool's subagents (SPEC §14) and the current prompt's shared turn counter. */
  readonly subagents: Subagents;
  private totals = emptyUsage();
  private own: ModelHandle;
  /** The model of the running prompt when it is not the session's own (`promptWith`). */
  private override?: ModelHandle;
  private memory: string;
  private readonly shell = { cwd: '' };
  private readonly stop: ReturnType<typeof stopSeam>;
  private startContext: string[] = [];
  private readonly emit: EventSink;
  /** What the screen showed beyond the messages (a paste as shown, tool times): the transcript keeps it for a redraw. */
  private readonly view = new ViewNotes();
  /** The cost of the usage under the models before a `/model` switch (priced at those models' prices). */
  private costBefore = { usd: 0, usage: emptyUsage() };
  private budget?: { used: number };
  /** Images the user dropped into the terminal UI: attached by their `@` references even outside the project. */
  private readonly dropped = new Set<string>();

  constructor(private readonly opts: Readonly<SessionOptions>) {
    const sb = opts.sandbox;
    const base = sb ? builtinTools.map((t) => (t.name === 'Bash' ? sandboxedBashTool(sb.describe(), sb.config.allowUnsandboxed) : t)) : builtinTools;
    this.id = opts.resume?.sessionId ?? opts.id ?? randomUUID();
    this.own = opts.model;
    this.memory = opts.memory ?? '';
    this.conversation = new Conversation({ home: opts.home, cwd: opts.cwd, id: this.id, resume: opts.resume });
    this.shell.cwd = opts.cwd;
    this.gate = new Gate({
      mode: opts.mode, projectRoot: opts.cwd, home: opts.home, additionalDirs: opts.additionalDirs, rules: opts.rules, sandbox: opts.sandbox,
      guarded: sessionGuards(opts.cwd, opts.home, opts.hooks ?? [], opts.settingsFiles),
      kinds: () => toolKinds(this.allTools()),
      saved: (file) => opts.watch?.acknowledge([file]), // the session's own write is not an outside change
    });
    this.emit = (ev) => {
      this.view.observe(ev);
      opts.emit(ev);
      if (ev.type === 'tool-end') this.reportSettingsChanges();
      // Verification runs and hook outcomes belong to the session's record too (SPEC §9).
      const timestamp = new Date().toISOString();
      if (ev.type === 'verify-end') {
        const { type: _, output, ...v } = ev;
        this.transcript.write({ type: 'verify', ...v, output: output.split('\n').slice(-40).join('\n'), timestamp });
      }
      if (ev.type === 'hook') { const { type: _, ...h } = ev; this.transcript.write({ type: 'hook', ...h, timestamp }); }
    };
    this.hooks = new HookEngine(opts.hooks ?? [], {
      projectDir: opts.cwd, sessionId: this.id, transcriptPath: this.transcript.path, env: opts.env,
      permissionMode: () => CLAUDE_MODE_NAMES[this.mode], emit: this.emit,
    });
    this.stop = stopSeam(this.hooks, this.emit);
    this.subagents = new Subagents(this.subagentHost(), opts.agents ?? BUILTIN_AGENTS);
    this.tools = [...base, this.subagents.tool(), todoWriteTool, webFetchTool({
      answer: async (prompt, page, signal) => {
        const r = await answerFromPage(this.model, prompt, page, signal);
        if ('usage' in r) this.subagents.addUsage(r.usage);
        return r;
      },
      localAllowed: (host) => namesHost(this.gate.rules, host),
    })];
    this.transcript.write({
      type: 'session', sessionId: this.id, cwd: opts.cwd, model: opts.model.id, version: opts.version,
      timestamp: new Date().toISOString(), ...(opts.resume ? { resumed: true } : {}),
    });
  }

  get model(): ModelHandle { return this.override ?? this.own; }
  get mode(): PermissionMode { return this.gate.mode; }
  /** Shift-Tab, `/mode`: the mode of the next decision and of the system prompt from the next request on. */
  setMode(mode: PermissionMode): void { this.gate.setMode(mode); }
  get transcript(): Transcript { return this.conversation.transcript; }
  get messages(): Message[] { return this.conversation.messages; }
  /** Tokens used so far (prompts, compactions, subagents). */
  get usage(): Usage { return this.totals; }

  /** The task list, as the conversation's last TodoWrite call left it (so it comes back on resume). */
  get todos(): TodoItem[] { return todosOf(this.messages); }

  /** What subagents share with this session (SPEC §14): rules, mode, hooks, questions, turn budget. */
  private subagentHost(): ConstructorParameters<typeof Subagents>[0] {
    const o = this.opts;
    return {
      cwd: o.cwd, version: o.version, env: o.env, maxTurns: o.maxTurns, resolveModel: o.resolveModel,
      sessionId: this.id, transcriptDir: projectDir(o.home, o.cwd), hooks: this.hooks,
      // Subagents get the MCP tools too (as in Claude Code), unless their `tools` list leaves them out.
      model: () => this.model, tools: () => this.allTools(),
      system: (prompt, model) => subagentSystemPrompt(prompt, environmentFacts(o.cwd, model.label, process.env, o.now), this.mode, [this.memory]),
      decide: (tool, input) => this.decide(tool, input),
      ask: (req, sig) => this.ask(req, sig),
      emit: (ev) => this.emit(ev),
      budget: () => this.budget,
      toolCtx: (signal) => ({ cwd: o.cwd, signal, env: o.env, beforeChange: this.conversation.history.beforeChange, sandbox: o.sandbox, readDenied: (tool, abs) => this.gate.readDenied(tool, abs) }),
      onDenied: (call, input) => this.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input }),
      record: (entry) => this.transcript.write({ type: 'subagent', ...entry, timestamp: new Date().toISOString() }),
    };
  }

  /** Settings files changed since the snapshot are reported once each (SPEC §4, §11.9), never applied here. */
  private reportSettingsChanges(): void {
    const o = this.opts;
    for (const f of o.watch?.changed() ?? []) {
      o.emit({
        type: 'warning',
        message: o.interactive
          ? `${f} changed during the session; hooks and rules stay as they were until you review the change with /hooks.`
          : `${f} changed during the session; the change is ignored until the next session (hooks and rules stay as they were at start).`,
      });
    }
  }

  /**
   * Reports settings changes as they happen, not only at the next prompt or tool call (a terminal
   * session may sit idle). Returns a function that stops it.
   */
  followSettings(intervalMs?: number): () => void {
    return this.opts.watch?.follow(() => this.reportSettingsChanges(), intervalMs) ?? (() => {});
  }

  /** The user reviewed the changed settings with `/hooks` and kept the session's: not reported again. */
  settingsReviewed(): void { this.opts.watch?.reviewed(); }

  get costUsd(): number { return this.costBefore.usd + costUsd(this.model.facts?.price, usageSince(this.usage, this.costBefore.usage)); }

  /** Replaces the ASSISTANT.md section of the system prompt (the files changed during the session); from the next request on. */
  setMemory(section: string): void { this.memory = section; }

  systemPrompt(): string {
    const start = this.startContext.length ? [`# Session start context (from SessionStart hooks)\n${this.startContext.join('\n')}`] : [];
    return buildSystemPrompt(environmentFacts(this.opts.cwd, this.model.label, process.env, this.opts.now), this.mode, [this.memory, ...start, this.opts.appendSystemPrompt ?? '']);
  }

  /** The permission decision for one call (rules, mode; the Bash command split first), in Bash's working directory. */
  decide(tool: string, input: Record<string, unknown>) { return this.gate.decide(tool, input, this.shell.cwd); }

  /** The OS sandbox Bash commands run in, when it is on (SPEC §13). */
  get sandbox(): Sandbox | undefined { return this.opts.sandbox; }

  /**
   * Resolves `@path` references of a prompt into attachments (SPEC §6), checked by the Read rules;
   * attached files count as read. Nothing is sent when a reference fails.
   */
  expandReferences(prompt: string, signal?: AbortSignal): Promise<Expansion> {
    const { cwd, home, mcp } = this.opts;
    return expandReferences(prompt, { cwd, home, mcp, model: this.model, fileState: this.conversation.fileState, readBehavior: (abs) => this.gate.readBehavior(abs), dropped: this.dropped }, signal);
  }

  /** The terminal UI saw `abs` dragged in (or its path pasted): its `@` reference may attach it. */
  allowDropped(abs: string): void { this.dropped.add(abs); }

  /**
   * Replaces the conversation with the model's summary of it (SPEC §6): PreCompact hooks first,
   * then the summary; the transcript keeps the full history and records the summary. Never throws.
   */
  async compact(trigger: 'manual' | 'auto', instructions: string | undefined, signal: AbortSignal): Promise<Compaction> {
    if (this.messages.length === 0) return { ok: false, error: 'there is no conversation to compact yet' };
    if (this.hooks.has('PreCompact')) {
      await this.hooks.fire('PreCompact', { ...this.hooks.base('PreCompact', true), trigger, custom_instructions: instructions ?? '' }, signal);
    }
    const c = await this.conversation.compact(this.model, trigger, instructions, signal);
    if (!c.ok) return c;
    this.totals = addUsage(this.totals, c.usage);
    this.startContext = await sessionStart(this.hooks, 'compact', signal);
    return c;
  }

  /** Compacts when the context is nearly full (SPEC §6); returns why the run must stop instead (SPEC §11.14). */
  private autoCompact(signal: AbortSignal): Promise<string | undefined> {
    const auto = this.opts.autoCompact ?? { threshold: 0.8 };
    if (!auto) return Promise.resolve(undefined);
    return this.conversation.autoCompact({
      model: this.model, threshold: auto.threshold, fixed: () => this.fixedContext(),
      compact: (sig) => this.compact('auto', undefined, sig), warn: (message) => this.emit({ type: 'warning', message }),
    }, signal);
  }

  /** What every request carries besides the conversation: the system prompt and the tools' definitions. */
  private fixedContext(): string {
    const mcp = this.opts.mcp?.tools();
    if (this.toolsJson?.tools !== this.tools || this.toolsJson.mcp !== mcp) this.toolsJson = { tools: this.tools, mcp, json: JSON.stringify(toolSchemas(this.allTools())) };
    return this.systemPrompt() + this.toolsJson.json;
  }
  /** The tools' definitions as sent, for fixedContext(): made again only when the tool list changes. */
  private toolsJson?: { tools: readonly ToolDef[]; mcp?: readonly ToolDef[]; json: string };

  /** A permission question: Notification hooks fire first when a person will be waited for (SPEC §4). */
  private async ask(req: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    if (this.opts.interactive && this.hooks.has('Notification')) {
      const message = `assistant needs your permission to use ${req.tool}`;
      void this.hooks.fire('Notification', { ...this.hooks.base('Notification', false), message, notification_type: 'permission_prompt' }, signal);
    }
    return this.opts.ask(req, signal);
  }

  /** SessionStart hooks; their output becomes context for the model. */
  async start(signal: AbortSignal): Promise<void> {
    this.startContext = await sessionStart(this.hooks, this.opts.resume ? 'resume' : 'startup', signal);
  }

  /** SessionEnd hooks. */
  async end(reason: 'clear' | 'prompt_input_exit' | 'other', signal: AbortSignal): Promise<void> {
    await sessionEnd(this.hooks, reason, signal);
    await Promise.all([this.opts.sandbox?.close(), this.opts.mcp?.close()]);
  }

  /** The next prompt is shown as `shown` (a collapsed paste, a command as typed): the transcript keeps it for -c, -r and /rewind. */
  showNextPromptAs(shown: string | undefined): void { this.view.show(shown); }

  /** Runs one user prompt to completion. Never throws for model or tool failures. */
  async prompt(prompt: string, signal: AbortSignal, attachments: Expansion & { ok: true } | undefined = undefined): Promise<RunOutcome> {
    const o = this.opts;
    const text = wellFormed(prompt); // never a lone surrogate in the conversation (the API would answer 400 from then on)
    this.reportSettingsChanges();
    this.conversation.startPrompt();
    this.hooks.newPrompt();
    this.stop.reset();
    const submitted = await userPromptSubmit(this.hooks, text, signal);
    if (submitted.blocked !== undefined) {
      return { status: 'blocked', text: '', turns: 0, usage: emptyUsage(), error: submitted.blocked };
    }
    if (this.hooks.stopReason !== undefined) return { status: 'stopped', text: '', turns: 0, usage: emptyUsage(), error: this.hooks.stopReason };
    this.conversation.countRun();
    await mcpReady(o.mcp, signal, (message) => this.emit({ type: 'warning', message }));
    const full = await this.autoCompact(signal);
    this.budget = { used: 0 };
    this.subagents.take();
    const model = this.model;
    const verifyCommand = o.verify ?? (asksForVerification(text) ? detectTestCommand(o.cwd, text) : undefined);
    const verifier = verifyCommand ? new Verifier(verifyCommand, { cwd: o.cwd, env: { ...process.env, ...o.env }, emit: this.emit, skip: () => this.mode === 'plan' }) : undefined;
    const emit: EventSink = verifier ? (ev) => { verifier.observe(ev); this.emit(ev); } : this.emit;
    const toolCtx: ToolContext = { cwd: o.cwd, signal, fileState: this.conversation.fileState, shell: this.shell, env: o.env, beforeChange: this.conversation.history.beforeChange, sandbox: o.sandbox,
      readDenied: (tool, abs) => this.gate.readDenied(tool, abs) };
    const offered = this.offeredTools();
    let outcome: RunOutcome = full !== undefined ? { status: 'error', text: '', turns: 0, usage: emptyUsage(), error: full } : await runAgent(text, {
      model,
      system: this.systemPrompt(),
      toolSpecs: offered.specs,
      messages: this.messages,
      append: (message, usage) => {
        markReasoningOrigin(message, model.provider); // never sent to another provider after a /model switch
        this.conversation.append(message, usage, this.view.fields(message));
        this.emit({ type: 'message', message, usage });
      },
      run: { tools: offered.map, toolCtx, decide: (tool, input) => this.decide(tool, input), ask: (req, sig) => this.ask(req, sig), seams: toolSeams(this.hooks), emit },
      context: [...(attachments?.attachments.length ? [attachmentText(attachments.attachments)] : []), ...submitted.context],
      images: attachmentImages(attachments?.attachments ?? []),
      // Verification first (SPEC §8): a failure goes back to the model before Stop hooks see an answer.
      onStop: async (sig, lastText) => (await verifier?.onStop(sig)) ?? this.stop.onStop(sig, lastText),
      halted: () => this.hooks.stopReason,
      beforeRequest: (sig) => this.autoCompact(sig),
      signal,
      maxTurns: o.maxTurns,
      budget: this.budget,
      webSearch: webSearchOffer(this.gate.rules, this.mode),
      onDenied: (call, input) => this.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input }),
    });
    offered.unfollow?.();
    // An honest end (SPEC §8): a run that stops with verification still failing did not succeed.
    if (verifier?.failure !== undefined && (outcome.status === 'done' || outcome.status === 'stopped')) outcome = { ...outcome, status: 'verify-failed', error: verifier.failure };
    else if (verifier?.lastFailure !== undefined && outcome.status === 'max-turns') outcome = { ...outcome, error: `${outcome.error} Verification was still failing: ${verifier.lastFailure}` };
    // Subagents' turns and tokens count in the prompt's result (SPEC §14).
    const sub = this.subagents.take();
    if (sub.turns || sub.usage.inputTokens || sub.usage.outputTokens) outcome = { ...outcome, turns: outcome.turns + sub.turns, usage: addUsage(outcome.usage, sub.usage) };
    this.totals = addUsage(this.totals, outcome.usage);
    this.conversation.endPrompt({ ...outcome, costUsd: costUsd(model.facts?.price, outcome.usage) });
    return outcome;
  }

  /** The tools offered to a run; they follow the MCP servers during it: a server that fails takes its tools with it. */
  private offeredTools(): { specs: ReturnType<typeof toolSchemas>; map: Map<string, ToolDef>; unfollow?: () => void } {
    const specs = toolSchemas(this.allTools());
    const map = new Map(this.allTools().map((t) => [t.name, t]));
    const unfollow = this.opts.mcp?.subscribe(() => {
      const now = this.allTools();
      specs.splice(0, specs.length, ...toolSchemas(now));
      map.clear();
      for (const t of now) map.set(t.name, t);
    });
    return { specs, map, unfollow };
  }

  // ── For the terminal UI: new methods stay below this line. ──

  /** The tools offered now: the built-in ones, then the tools of the MCP servers that are up (SPEC §12). */
  allTools(): ToolDef[] {
    const mcp = this.opts.mcp?.tools();
    return mcp?.length ? [...this.tools, ...mcp] : this.tools;
  }

  /** The session's MCP servers, when any is configured (`/mcp`, `@server:uri`, `/mcp__server__prompt`). */
  get mcp(): McpManager | undefined { return this.opts.mcp; }

  /** The permission rules in force, with where each comes from (`/permissions`). */
  get rules(): RuleSet { return this.gate.rules; }
  /** The session's protected paths beyond the fixed ones (for `` !`cmd` `` checks and the sandbox). */
  get guardedPaths(): readonly GuardedPath[] { return this.gate.guarded; }
  /** Adds allow rules from the next decision on; returns their revocation (gate.ts `grant`). */
  grantRules(rules: string[], source: string): () => void { return this.gate.grant(rules, source); }
  /** The narrowest rules "allow always" would add for this question (gate.ts `suggest`). */
  suggestRules(req: PermissionRequest): Promise<string[]> { return this.gate.suggest(req); }
  /** "Allow always": saved to `.assistant/settings.local.json` and applied at once; returns the file (gate.ts). */
  allowAlways(rules: string[]): string { return this.gate.allowAlways(rules); }

  /** Replaces the hooks and rules with a set the user reviewed and accepted (`/hooks`, SPEC §4). */
  applySettings(hooks: readonly HookSpec[], rules: RuleSet): void {
    this.hooks.replace(hooks);
    this.gate.replace(rules, sessionGuards(this.opts.cwd, this.opts.home, hooks, this.opts.settingsFiles));
    this.opts.watch?.acknowledge();
  }

  /** SessionStart hooks with an explicit source (`clear` after /clear); their output becomes context. */
  async startAs(source: 'startup' | 'resume' | 'clear', signal: AbortSignal): Promise<void> {
    this.startContext = await sessionStart(this.hooks, source, signal);
  }

  /** Notification hooks for a wait other than a permission question (`idle_prompt`). Never throws. */
  async notify(message: string, notificationType: string, signal: AbortSignal): Promise<void> {
    if (!this.hooks.has('Notification')) return;
    await this.hooks.fire('Notification', { ...this.hooks.base('Notification', false), message, notification_type: notificationType }, signal);
  }

  /** `/rewind` of the conversation (SPEC §9): see conversation.ts `rewind`. Files are not touched. */
  rewindConversation(index: number): void { this.conversation.rewind(index); }

  /**
   * `/model`: `model` answers from the next request on; the conversation goes on unchanged (its
   * reasoning stays with the provider that produced it, wire-prompt.ts). What was used so far keeps
   * the old model's price.
   */
  setModel(model: ModelHandle): void {
    this.costBefore = { usd: this.costUsd, usage: { ...this.usage } };
    this.own = model;
  }

  /**
   * Runs one prompt with another model (a custom command's `model:` front matter, SPEC §6); the
   * session's own model is back afterwards, whatever happens. The turn's cost uses that model.
   */
  async promptWith(model: ModelHandle, text: string, signal: AbortSignal, attachments?: Expansion & { ok: true }): Promise<RunOutcome> {
    this.override = model;
    try { return await this.prompt(text, signal, attachments); } finally { this.override = undefined; }
  }
}

/** Usage `u` minus the part of it counted in `base`. */
function usageSince(u: Usage, base: Usage): Usage {
  return { inputTokens: u.inputTokens - base.inputTokens, outputTokens: u.outputTokens - base.outputTokens, cacheReadTokens: u.cacheReadTokens - base.cacheReadTokens, cacheWriteTokens: u.cacheWriteTokens - base.cacheWriteTokens };
}
