import { randomUUID } from 'node:crypto';
import { costUsd } from '../providers/catalogue.ts';
import { addUsage, emptyUsage, type Message, type ModelHandle, type Usage } from '../providers/types.ts';
import { CLAUDE_MODE_NAMES, type PermissionMode } from '../permissions/modes.ts';
import { decide } from '../permissions/decide.ts';
import { readDenied } from '../permissions/path-forms.ts';
import { buildRules, emptyRules, type RuleSet } from '../permissions/rules.ts';
import { suggestRules } from '../permissions/suggest.ts';
import { wellFormed } from './well-formed.ts';
import { addLocalAllowRules } from '../config/local-rules.ts';
import { initShellParser, splitCommand } from '../permissions/shell/parser.ts';
import { HookEngine } from '../hooks/engine.ts';
import { sessionEnd, sessionStart, stopSeam, toolSeams, userPromptSubmit } from './hook-seams.ts';
import type { HookSpec } from '../hooks/schema.ts';
import { sessionGuards, type GuardedPath } from '../permissions/protected.ts';
import type { SettingsWatch } from '../config/watch.ts';
import { buildSystemPrompt, environmentFacts, subagentSystemPrompt } from '../context/system-prompt.ts';
import { loadFileState, loadMessages, projectDir, Transcript } from '../session/transcript.ts';
import { FileHistory } from '../session/checkpoints.ts';
import { ViewNotes } from './view-notes.ts';
import { markReasoningOrigin } from '../providers/wire-prompt.ts';
import { contextReport, estimateTokens, summarise, summaryMessage } from '../session/compact.ts';
import { attachmentImages, attachmentText, expandAtPaths, type Expansion } from '../context/at-paths.ts';
import { builtinTools, toolSchemas } from '../tools/registry.ts';
import { toolKinds } from '../tools/kinds.ts';
import { sandboxedBashTool } from '../tools/bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { sandboxStep } from '../sandbox/decision.ts';
import type { ToolContext, ToolDef } from '../tools/types.ts';
import type { AskFn, EventSink, PermissionAnswer, PermissionRequest, RunOutcome } from './events.ts';
import { runAgent } from './loop.ts';
import { asksForVerification, detectTestCommand, Verifier } from './verify.ts';
import type { ToolCall } from './tool-call.ts';
import type { McpManager } from '../mcp/manager.ts';
import { findMcpRefs, readMcpRefs, withoutMcpRefs } from '../mcp/resources.ts';
import { BUILTIN_AGENTS, type AgentDef } from './agent-defs.ts';
import { Subagents } from './subagent.ts';
import { todosOf, todoWriteTool, type TodoItem } from '../tools/todo-write.ts';
import { webFetchTool } from '../tools/web-fetch.ts';
import { namesHost, webSearchOffer } from '../permissions/web.ts';
import { answerFromPage } from './page-answer.ts';

export interface SessionOptions {
  cwd: string;
  home: string;
  model: ModelHandle;
  mode: PermissionMode;
  additionalDirs: string[];
  env: Record<string, string>;
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

/** One conversation: its messages, transcript, tool state and totals. The loop does the work. */
export class Session {
  readonly id: string;
  readonly transcript: Transcript;
  readonly messages: Message[];
  readonly tools: ToolDef[];
  readonly denials: Denial[] = [];
  usage: Usage = emptyUsage();
  mode: PermissionMode;
  private readonly fileState: ToolContext['fileState'];
  private readonly shell = { cwd: '' };
  private readonly history: FileHistory;
  readonly hooks: HookEngine;
  private readonly stop: ReturnType<typeof stopSeam>;
  private startContext: string[] = [];
  private readonly emit: SessionOptions['emit'];
  /** Prompts run so far, and the last automatic compaction: in which prompt, and the model turns since (SPEC §11.14). */
  private runs = 0;
  private lastAutoCompact?: { run: number; turnsAfter: number };
  /** The session's protected paths beyond the fixed ones: hook scripts, `--settings FILE`, git's directories (SPEC §11.16). */
  private guarded: GuardedPath[];
  /** What the screen showed beyond the messages (a paste as shown, tool times): the transcript keeps it for a redraw. */
  private readonly view = new ViewNotes();
  /** The cost of the usage under the models before a `/model` switch (priced at those models' prices). */
  private costBefore = { usd: 0, usage: emptyUsage() };
  /** The Task tool's subagents (SPEC §14) and the current prompt's shared turn counter. */
  readonly subagents: Subagents;
  private budget?: { used: number };

  constructor(private readonly opts: SessionOptions) {
    this.mode = opts.mode;
    const sb = opts.sandbox;
    const base = sb ? builtinTools.map((t) => (t.name === 'Bash' ? sandboxedBashTool(sb.describe(), sb.config.allowUnsandboxed) : t)) : builtinTools;
    this.id = opts.resume?.sessionId ?? opts.id ?? randomUUID();
    this.transcript = new Transcript(projectDir(opts.home, opts.cwd), this.id);
    this.messages = opts.resume ? loadMessages(opts.resume.path) : [];
    this.shell.cwd = opts.cwd;
    this.fileState = recordedFileState(this.transcript, opts.resume ? loadFileState(opts.resume.path) : undefined);
    this.history = new FileHistory(this.transcript, this.messages.filter((m) => m.role === 'user').length);
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
        const r = await answerFromPage(this.opts.model, prompt, page, signal);
        if ('usage' in r) this.subagents.addUsage(r.usage);
        return r;
      },
      localAllowed: (host) => namesHost(this.opts.rules ?? emptyRules(), host),
    })];
    this.guarded = sessionGuards(opts.cwd, opts.home, opts.hooks ?? [], opts.settingsFiles);
    this.transcript.write({
      type: 'session', sessionId: this.id, cwd: opts.cwd, model: opts.model.id, version: opts.version,
      timestamp: new Date().toISOString(), ...(opts.resume ? { resumed: true } : {}),
    });
  }

  get model(): ModelHandle { return this.opts.model; }

  /** The task list, as the conversation's last TodoWrite call left it (so it comes back on resume). */
  get todos(): TodoItem[] { return todosOf(this.messages); }

  /** What subagents share with this session (SPEC §14): rules, mode, hooks, questions, turn budget. */
  private subagentHost(): ConstructorParameters<typeof Subagents>[0] {
    const o = this.opts;
    return {
      cwd: o.cwd, version: o.version, env: o.env, maxTurns: o.maxTurns, resolveModel: o.resolveModel,
      sessionId: this.id, transcriptDir: projectDir(o.home, o.cwd), hooks: this.hooks,
      // Subagents get the MCP tools too (as in Claude Code), unless their `tools` list leaves them out.
      model: () => o.model, tools: () => this.allTools(),
      system: (prompt, model) => subagentSystemPrompt(prompt, environmentFacts(o.cwd, model.label, process.env, o.now), this.mode, [o.memory ?? '']),
      decide: (tool, input) => this.decide(tool, input),
      ask: (req, sig) => this.ask(req, sig),
      emit: (ev) => this.emit(ev),
      budget: () => this.budget,
      toolCtx: (signal) => ({ cwd: o.cwd, signal, env: o.env, beforeChange: this.history.beforeChange, sandbox: o.sandbox,
        readDenied: (tool, abs) => readDenied(tool, abs, { projectRoot: o.cwd, additionalDirs: o.additionalDirs, home: o.home, rules: o.rules ?? emptyRules() }) !== undefined }),
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

  get costUsd(): number { return this.costBefore.usd + costUsd(this.opts.model.facts?.price, usageSince(this.usage, this.costBefore.usage)); }

  /** Replaces the ASSISTANT.md section of the system prompt (the files changed during the session); from the next request on. */
  setMemory(section: string): void { this.opts.memory = section; }

  systemPrompt(): string {
    const start = this.startContext.length ? [`# Session start context (from SessionStart hooks)\n${this.startContext.join('\n')}`] : [];
    return buildSystemPrompt(environmentFacts(this.opts.cwd, this.opts.model.label, process.env, this.opts.now), this.mode, [this.opts.memory ?? '', ...start, this.opts.appendSystemPrompt ?? '']);
  }

  /** The permission decision for one call (rules, mode; the Bash command split first). */
  async decide(tool: string, input: Record<string, unknown>) {
    let shell;
    if (tool === 'Bash') {
      await initShellParser();
      shell = splitCommand(String(input.command ?? ''));
    }
    const o = this.opts;
    const rules = o.rules ?? emptyRules();
    const d = decide(tool, input, { mode: this.mode, projectRoot: o.cwd, additionalDirs: o.additionalDirs, home: o.home, rules, shell, cwd: this.shell.cwd, guarded: this.guarded, kinds: toolKinds(this.allTools()) });
    return sandboxStep(tool, input, d, { sandbox: o.sandbox, mode: this.mode, rules, shell });
  }

  /** The OS sandbox Bash commands run in, when it is on (SPEC §13). */
  get sandbox(): Sandbox | undefined { return this.opts.sandbox; }

  /** The session's protected paths beyond the fixed ones (for `` !`cmd` `` checks and the sandbox). */
  get guardedPaths(): readonly GuardedPath[] { return this.guarded; }

  /**
   * Resolves `@path` references of a prompt into attachments (SPEC §6), checked by the Read rules;
   * attached files count as read. Nothing is sent when a reference fails.
   */
  async expandReferences(prompt: string, signal?: AbortSignal): Promise<Expansion> {
    const o = this.opts;
    // `@SERVER:URI`: an MCP server's resource (SPEC §12); the rest are `@path` references.
    const refs = o.mcp ? findMcpRefs(prompt, new Set(o.mcp.statuses().map((s) => s.name))) : [];
    if (refs.length && o.mcp) {
      const [files, resources] = await Promise.all([this.expandPaths(withoutMcpRefs(prompt, refs), signal), readMcpRefs(refs, o.mcp, { signal, imagesRefused: o.model.facts?.images === false ? 'no images' : undefined })]);
      const errors = [...(files.ok ? [] : files.errors), ...resources.errors];
      if (errors.length || !files.ok) return { ok: false, errors };
      return { ok: true, prompt, attachments: [...files.attachments, ...resources.attachments.map((a) => ({ ref: a.ref, path: a.uri, kind: 'resource' as const, text: a.text, image: a.image }))] };
    }
    return this.expandPaths(prompt, signal);
  }

  private expandPaths(prompt: string, signal?: AbortSignal): Promise<Expansion> {
    const o = this.opts;
    return expandAtPaths(prompt, {
      cwd: o.cwd, home: o.home, fileState: this.fileState, signal,
      imagesRefused: o.model.facts?.images === false ? `the model ${o.model.label} does not take images` : undefined,
      canRead: (abs) => {
        const b = decide('Read', { file_path: abs }, { mode: this.mode, projectRoot: o.cwd, additionalDirs: o.additionalDirs, home: o.home, rules: o.rules ?? emptyRules(), kinds: toolKinds(this.allTools()) }).behavior;
        // An image the user dragged into the terminal (or pasted the path of) is theirs to show, wherever it is; deny rules still hold.
        return b === 'ask' && this.dropped.has(abs) ? 'allow' : b;
      },
    });
  }

  /** Images the user dropped into the terminal UI: attached by their `@` references even outside the project. */
  private readonly dropped = new Set<string>();
  /** The terminal UI saw `abs` dragged in (or its path pasted): its `@` reference may attach it. */
  allowDropped(abs: string): void { this.dropped.add(abs); }

  /**
   * Replaces the conversation with the model's summary of it (SPEC §6): PreCompact hooks first,
   * then the summary; the transcript keeps the full history and records the summary. Never throws.
   */
  async compact(trigger: 'manual' | 'auto', instructions: string | undefined, signal: AbortSignal): Promise<{ ok: true; before: number; usage: Usage } | { ok: false; error: string }> {
    if (this.messages.length === 0) return { ok: false, error: 'there is no conversation to compact yet' };
    if (this.hooks.has('PreCompact')) {
      await this.hooks.fire('PreCompact', { ...this.hooks.base('PreCompact', true), trigger, custom_instructions: instructions ?? '' }, signal);
    }
    const r = await summarise(this.opts.model, this.messages, instructions, signal);
    if (!r.ok) return r;
    const before = this.messages.length;
    this.messages.splice(0, this.messages.length, summaryMessage(r.summary));
    this.usage = addUsage(this.usage, r.usage);
    this.transcript.write({ type: 'compact', trigger, summary: r.summary, timestamp: new Date().toISOString() });
    this.startContext = await sessionStart(this.hooks, 'compact', signal);
    return { ok: true, before, usage: r.usage };
  }

  /**
   * Compacts when the conversation passes the threshold share of the context window (SPEC §6), and
   * never loops (SPEC §11.14): returns why the run must stop instead when compacting cannot help —
   * no model turn since the last compaction, one model turn of this run filled the context again
   * right after it, or the conversation is still over the threshold right after compacting (a
   * failed compaction included). Undefined: go on.
   */
  private async autoCompact(signal: AbortSignal): Promise<string | undefined> {
    const auto = this.opts.autoCompact ?? { threshold: 0.8 };
    if (!auto || this.messages.length === 0 || signal.aborted) return undefined;
    const limit = auto.threshold * this.opts.model.contextWindow;
    if (estimateTokens(this.fixedContext(), this.messages) <= limit) return undefined;
    const last = this.lastAutoCompact;
    if (last?.turnsAfter === 0) return this.compactionLoop('a second compaction would come with no new model turn since the first', limit);
    if (last?.run === this.runs && last.turnsAfter === 1) return this.compactionLoop('a single model turn filled it again right after a compaction, so compacting again would only repeat that turn', limit);
    const c = await this.compact('auto', undefined, signal);
    if (signal.aborted) return undefined;
    this.lastAutoCompact = { run: this.runs, turnsAfter: 0 };
    if (!c.ok) return this.compactionLoop(`compaction failed (${c.error})`, limit);
    if (estimateTokens(this.fixedContext(), this.messages) > limit) return this.compactionLoop('it is still over the threshold right after a compaction', limit);
    this.emit({ type: 'warning', message: `The context was nearly full: the conversation (${c.before} messages) was compacted into a summary.` });
    return undefined;
  }

  /** What every request carries besides the conversation: the system prompt and the tools' definitions. */
  private fixedContext(): string {
    const mcp = this.opts.mcp?.tools();
    if (this.toolsJson?.tools !== this.tools || this.toolsJson.mcp !== mcp) this.toolsJson = { tools: this.tools, mcp, json: JSON.stringify(toolSchemas(this.allTools())) };
    return this.systemPrompt() + this.toolsJson.json;
  }
  /** The tools' definitions as sent, for fixedContext(): made again only when the tool list changes. */
  private toolsJson?: { tools: readonly ToolDef[]; mcp?: readonly ToolDef[]; json: string };

  /** The message that stops a run instead of compacting again (SPEC §11.14): why, and what fills the context. */
  private compactionLoop(why: string, limit: number): string {
    const { contextWindow, contextSource } = this.opts.model;
    const used = estimateTokens(this.fixedContext(), this.messages);
    return `Stopped: the context is too full to go on (${why}). It holds about ${Math.round(used / 1000)}k tokens; ` +
      `compaction starts at ${Math.round(limit / 1000)}k of the model's ${Math.round(contextWindow / 1000)}k-token window (from ${contextSource ?? 'the provider'}). ` +
      `What fills it: ${contextReport(this.fixedContext(), this.messages)}. ` +
      'Ask for less at a time (read parts of large files, write large files in pieces), start a new conversation, ' +
      'or set modelContextWindow in settings if the model\'s window is larger.';
  }

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
    this.history.startPrompt();
    this.hooks.newPrompt();
    this.stop.reset();
    const submitted = await userPromptSubmit(this.hooks, text, signal);
    if (submitted.blocked !== undefined) {
      return { status: 'blocked', text: '', turns: 0, usage: emptyUsage(), error: submitted.blocked };
    }
    if (this.hooks.stopReason !== undefined) return { status: 'stopped', text: '', turns: 0, usage: emptyUsage(), error: this.hooks.stopReason };
    this.runs++;
    await this.mcpReady(signal);
    const full = await this.autoCompact(signal);
    this.budget = { used: 0 };
    this.subagents.take();
    const verifyCommand = o.verify ?? (asksForVerification(text) ? detectTestCommand(o.cwd, text) : undefined);
    const verifier = verifyCommand ? new Verifier(verifyCommand, { cwd: o.cwd, env: { ...process.env, ...o.env }, emit: this.emit, skip: () => this.mode === 'plan' }) : undefined;
    const emit: typeof this.emit = verifier ? (ev) => { verifier.observe(ev); this.emit(ev); } : this.emit;
    const toolCtx: ToolContext = { cwd: o.cwd, signal, fileState: this.fileState, shell: this.shell, env: o.env, beforeChange: this.history.beforeChange, sandbox: o.sandbox,
      readDenied: (tool, abs) => readDenied(tool, abs, { projectRoot: o.cwd, additionalDirs: o.additionalDirs, home: o.home, rules: o.rules ?? emptyRules() }) !== undefined };
    // The tools offered follow the MCP servers during the run: a server that fails takes its tools with it.
    const toolSpecs = toolSchemas(this.allTools());
    const toolMap = new Map(this.allTools().map((t) => [t.name, t]));
    const unfollow = o.mcp?.subscribe(() => {
      const now = this.allTools();
      toolSpecs.splice(0, toolSpecs.length, ...toolSchemas(now));
      toolMap.clear();
      for (const t of now) toolMap.set(t.name, t);
    });
    let outcome: RunOutcome = full !== undefined ? { status: 'error', text: '', turns: 0, usage: emptyUsage(), error: full } : await runAgent(text, {
      model: o.model,
      system: this.systemPrompt(),
      toolSpecs,
      messages: this.messages,
      append: (message, usage) => {
        if (message.role === 'assistant' && this.lastAutoCompact) this.lastAutoCompact.turnsAfter++;
        markReasoningOrigin(message, o.model.provider); // never sent to another provider after a /model switch
        this.messages.push(message);
        this.transcript.write({ type: 'message', message, ...(usage ? { usage } : {}), ...this.view.fields(message), timestamp: new Date().toISOString() });
        this.emit({ type: 'message', message, usage });
      },
      run: {
        tools: toolMap,
        toolCtx,
        decide: (tool, input) => this.decide(tool, input),
        ask: (req, sig) => this.ask(req, sig),
        seams: toolSeams(this.hooks),
        emit,
      },
      context: [...(attachments?.attachments.length ? [attachmentText(attachments.attachments)] : []), ...submitted.context],
      images: attachmentImages(attachments?.attachments ?? []),
      // Verification first (SPEC §8): a failure goes back to the model before Stop hooks see an answer.
      onStop: async (sig, lastText) => (await verifier?.onStop(sig)) ?? this.stop.onStop(sig, lastText),
      halted: () => this.hooks.stopReason,
      beforeRequest: (sig) => this.autoCompact(sig),
      signal,
      maxTurns: o.maxTurns,
      budget: this.budget,
      webSearch: webSearchOffer(o.rules ?? emptyRules(), this.mode),
      onDenied: (call: ToolCall, input) => this.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input }),
    });
    unfollow?.();
    // An honest end (SPEC §8): a run that stops with verification still failing did not succeed.
    if (verifier?.failure !== undefined && (outcome.status === 'done' || outcome.status === 'stopped')) outcome = { ...outcome, status: 'verify-failed', error: verifier.failure };
    else if (verifier?.lastFailure !== undefined && outcome.status === 'max-turns') outcome = { ...outcome, error: `${outcome.error} Verification was still failing: ${verifier.lastFailure}` };
    // Subagents' turns and tokens count in the prompt's result (SPEC §14).
    const sub = this.subagents.take();
    if (sub.turns || sub.usage.inputTokens || sub.usage.outputTokens) outcome = { ...outcome, turns: outcome.turns + sub.turns, usage: addUsage(outcome.usage, sub.usage) };
    this.usage = addUsage(this.usage, outcome.usage);
    this.transcript.write({
      type: 'result', status: outcome.status, turns: outcome.turns, usage: outcome.usage, costUsd: costUsd(o.model.facts?.price, outcome.usage),
      ...(outcome.error ? { error: outcome.error } : {}), timestamp: new Date().toISOString(),
    });
    return outcome;
  }

  // ── For the terminal UI: new methods stay below this line. ──

  /** The tools offered now: the built-in ones, then the tools of the MCP servers that are up (SPEC §12). */
  allTools(): ToolDef[] {
    const mcp = this.opts.mcp?.tools();
    return mcp?.length ? [...this.tools, ...mcp] : this.tools;
  }

  /** The session's MCP servers, when any is configured (`/mcp`, `@server:uri`, `/mcp__server__prompt`). */
  get mcp(): McpManager | undefined { return this.opts.mcp; }

  /** Waits for MCP servers still starting (at most MCP_TIMEOUT, or until `signal`): the first request offers their tools. */
  private async mcpReady(signal: AbortSignal): Promise<void> {
    const mcp = this.opts.mcp;
    if (!mcp || signal.aborted) return;
    let onAbort: (() => void) | undefined;
    // A wait that lasts is said (a hung server holds the first request up to MCP_TIMEOUT).
    const slow = setTimeout(() => {
      const names = mcp.statuses().filter((x) => x.state === 'starting').map((x) => `"${x.name}"`);
      if (names.length) this.emit({ type: 'warning', message: `waiting for the MCP server${names.length > 1 ? 's' : ''} ${names.join(', ')} to start (at most MCP_TIMEOUT)…` });
    }, 2000);
    await Promise.race([mcp.whenSettled(), new Promise<void>((r) => { onAbort = () => r(); signal.addEventListener('abort', onAbort, { once: true }); })]);
    clearTimeout(slow);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }

  /** The permission rules in force, with where each comes from (`/permissions`). */
  get rules(): RuleSet { return this.opts.rules ?? emptyRules(); }

  /**
   * Adds allow rules to the running session, from the next decision on (a command's allowed-tools
   * for one turn; "allow always"). Returns a function that takes exactly these rules away again.
   * Throws an Error naming the rule when one is malformed.
   */
  grantRules(rules: string[], source: string): () => void {
    const built = buildRules([{ kind: 'allow', rules, source }]);
    if (built.errors.length) throw new Error(built.errors.join('; '));
    const current = this.opts.rules ??= emptyRules();
    current.allow.push(...built.rules.allow);
    return () => { current.allow = current.allow.filter((r) => !built.rules.allow.includes(r)); };
  }

  /** The narrowest rules that "allow always" would add for this question (SPEC §5); empty when none can be offered. */
  async suggestRules(req: PermissionRequest): Promise<string[]> {
    if (req.firm) return []; // a rule would never take effect
    let shell;
    if (req.tool === 'Bash') { await initShellParser(); shell = splitCommand(String(req.input.command ?? '')); }
    return suggestRules(req.tool, req.input, this.opts.cwd, shell);
  }

  /**
   * "Allow always": writes the rules to `.assistant/settings.local.json` and applies them to this
   * session at once; the session's own write is not reported as an outside change. Returns the file.
   * Throws ConfigError when that file is broken (it is never overwritten blindly).
   */
  allowAlways(rules: string[]): string {
    const file = addLocalAllowRules(this.opts.cwd, rules);
    this.opts.watch?.acknowledge([file]);
    this.grantRules(rules, file);
    return file;
  }

  /** Replaces the hooks and rules with a set the user reviewed and accepted (`/hooks`, SPEC §4). */
  applySettings(hooks: readonly HookSpec[], rules: RuleSet): void {
    this.hooks.replace(hooks);
    this.opts.rules = rules;
    this.guarded = sessionGuards(this.opts.cwd, this.opts.home, hooks, this.opts.settingsFiles);
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

  /**
   * `/rewind` of the conversation (SPEC §9): the conversation becomes what it was just before
   * prompt `index` (0-based position among the transcript's prompts, as `rewindPoints` numbers
   * them). The transcript records it, so `-c` resumes the rewound conversation. What the model had
   * read is forgotten (it must read files again before editing them). Files are not touched.
   */
  rewindConversation(index: number): void {
    this.transcript.write({ type: 'rewind', prompt: index, timestamp: new Date().toISOString() });
    const kept = loadMessages(this.transcript.path);
    this.messages.length = 0;
    for (const m of kept) this.messages.push(m); // not push(...kept): a long conversation would overflow the stack
    this.fileState.clear();
  }

  /**
   * `/model`: `model` answers from the next request on; the conversation goes on unchanged (its
   * reasoning stays with the provider that produced it, wire-prompt.ts). What was used so far keeps
   * the old model's price.
   */
  setModel(model: ModelHandle): void {
    this.costBefore = { usd: this.costUsd, usage: { ...this.usage } };
    this.opts.model = model;
  }

  /**
   * Runs one prompt with another model (a custom command's `model:` front matter, SPEC §6); the
   * session's own model is back afterwards, whatever happens. The turn's cost uses that model.
   */
  async promptWith(model: ModelHandle, text: string, signal: AbortSignal, attachments?: Expansion & { ok: true }): Promise<RunOutcome> {
    const own = this.opts.model;
    this.opts.model = model;
    try { return await this.prompt(text, signal, attachments); } finally { this.opts.model = own; }
  }
}

/**
 * The session's map of files read, which records each new snapshot in the transcript (`file-state`),
 * so `-c`/`-r` can bring it back; starts from what a resumed transcript recorded.
 */
function recordedFileState(transcript: Transcript, restored?: Map<string, { mtimeMs: number; size: number }>): ToolContext['fileState'] {
  const map: ToolContext['fileState'] = new Map(restored);
  const set = map.set.bind(map);
  map.set = (path, snap) => {
    transcript.write({ type: 'file-state', path, mtimeMs: snap.mtimeMs, size: snap.size, timestamp: new Date().toISOString() });
    return set(path, snap);
  };
  return map;
}

/** Usage `u` minus the part of it counted in `base`. */
function usageSince(u: Usage, base: Usage): Usage {
  return { inputTokens: u.inputTokens - base.inputTokens, outputTokens: u.outputTokens - base.outputTokens, cacheReadTokens: u.cacheReadTokens - base.cacheReadTokens, cacheWriteTokens: u.cacheWriteTokens - base.cacheWriteTokens };
}
