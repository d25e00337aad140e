import { randomUUID } from 'node:crypto';
import { addLocalAllowRules } from '../config/local-rules.ts';
import { buildSystemPrompt, environmentFacts, subagentSystemPrompt } from '../context/system-prompt.ts';
import { attachmentImages, attachmentText, type Expansion } from '../context/at-paths.ts';
import { HookEngine } from '../hooks/engine.ts';
import type { HookSpec } from '../hooks/schema.ts';
import type { McpManager } from '../mcp/manager.ts';
import { CLAUDE_MODE_NAMES, Gate, type PermissionMode } from '../permissions/gate.ts';
import { sessionGuards, type GuardedPath } from '../permissions/protected.ts';
import type { RuleSet } from '../permissions/rules.ts';
import { namesHost, webSearchScope } from '../permissions/web.ts';
import { hasWebSearch } from '../providers/ai-sdk-stream.ts';
import { costUsd } from '../providers/catalogue.ts';
import { addUsage, emptyUsage, type Message, type ModelHandle, type Usage } from '../providers/types.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { Conversation, type Compaction } from '../session/conversation.ts';
import { projectDir, type Transcript } from '../session/transcript.ts';
import { toolKinds } from '../tools/kinds.ts';
import { todosOf, type TodoItem } from '../tools/todo-write.ts';
import type { ToolDef } from '../tools/types.ts';
import { BUILTIN_AGENTS } from './agent-defs.ts';
import type { EventSink, PermissionAnswer, PermissionRequest, RunOutcome } from './events.ts';
import { notification, sessionEnd, sessionStart, stopSeam, toolSeams, userPromptSubmit } from './hook-seams.ts';
import { mcpReady } from './mcp-ready.ts';
import { answerFromPage } from './page-answer.ts';
import { expandReferences } from './references.ts';
import { searchTheWeb } from './search-answer.ts';
import type { Denial, SessionOptions } from './session-options.ts';
import { ownTools, SessionTools } from './session-tools.ts';
import { SettingsNotices } from './settings-reload.ts';
import { Spend } from './spend.ts';
import { Subagents } from './subagent.ts';
import { runTurn } from './turn.ts';
import { eventEntry, ViewNotes } from './view-notes.ts';
import { wellFormed } from './well-formed.ts';

export type { Denial } from './session-options.ts';

type Attached = Expansion & { ok: true };

/**
 * One session: a permission gate (gate.ts: mode, rules, decisions) and a conversation
 * (conversation.ts: messages, transcript, rewind, compaction), with the hooks, tools, model and
 * totals around them. The loop (turn.ts, loop.ts) does the work.
 */
export class Session {
  readonly id: string;
  readonly gate: Gate;
  readonly conversation: Conversation;
  readonly hooks: HookEngine;
  /** The Task tool's subagents (SPEC §14) and the current prompt's shared turn counter. */
  readonly subagents: Subagents;
  /** Calls the gate refused (the SDK's `permission_denials`). */
  readonly denials: Denial[] = [];
  private readonly toolset: SessionTools;
  private readonly spend = new Spend();
  private own: ModelHandle;
  /** The model of the running prompt when it is not the session's own (`promptWith`). */
  private override?: ModelHandle;
  private memory: string;
  private startContext: string[] = [];
  /** Bash keeps its working directory between calls in here. */
  private readonly shell: { cwd: string };
  private readonly stop: ReturnType<typeof stopSeam>;
  private readonly emit: EventSink;
  private readonly notices: SettingsNotices;
  /** What the screen showed beyond the messages (a paste as shown, tool times): the transcript keeps it for a redraw. */
  private readonly view = new ViewNotes();
  private budget?: { used: number };
  /** Images the user dropped into the terminal UI: attached by their `@` references even outside the project. */
  private readonly dropped = new Set<string>();

  constructor(private readonly opts: Readonly<SessionOptions>) {
    this.id = opts.resume?.sessionId ?? opts.id ?? randomUUID();
    this.own = opts.model;
    this.memory = opts.memory ?? '';
    this.shell = { cwd: opts.cwd };
    this.notices = new SettingsNotices(opts.watch, opts.interactive === true, (message) => opts.emit({ type: 'warning', message }));
    this.conversation = new Conversation({
      home: opts.home,
      cwd: opts.cwd,
      id: this.id,
      resume: opts.resume,
      model: opts.model.id,
      version: opts.version,
    });
    this.gate = new Gate({
      mode: opts.mode,
      projectRoot: opts.cwd,
      home: opts.home,
      additionalDirs: opts.additionalDirs,
      rules: opts.rules,
      sandbox: opts.sandbox,
      guarded: sessionGuards(opts.cwd, opts.home, opts.hooks ?? [], opts.settingsFiles),
      kinds: () => toolKinds(this.allTools()),
      saveAllow: (rules) => {
        const file = addLocalAllowRules(opts.cwd, rules);
        this.notices.acknowledge([file]); // the session's own write is not an outside change
        return file;
      },
    });
    this.emit = (ev) => {
      this.view.observe(ev);
      opts.emit(ev);
      if (ev.type === 'tool-end') this.notices.report();
      const entry = eventEntry(ev);
      if (entry) this.conversation.transcript.write(entry);
    };
    this.hooks = new HookEngine(opts.hooks ?? [], {
      projectDir: opts.cwd,
      sessionId: this.id,
      transcriptPath: this.conversation.transcript.path,
      env: opts.env,
      permissionMode: () => CLAUDE_MODE_NAMES[this.gate.mode],
      emit: this.emit,
    });
    this.stop = stopSeam(this.hooks, this.emit);
    this.subagents = new Subagents(this.subagentHost(), opts.agents ?? BUILTIN_AGENTS);
    this.toolset = new SessionTools(
      ownTools(
        opts.sandbox,
        this.subagents.tool(),
        {
          answer: async (prompt, page, signal) => {
            const r = await answerFromPage(this.model, prompt, page, signal);
            if ('usage' in r) this.subagents.addUsage(r.usage);
            return r;
          },
          localAllowed: (host) => namesHost(this.gate.rules, host),
        },
        () => this.conversation.messages,
        {
          scope: (input) => webSearchScope(input, this.gate.rules, this.gate.mode),
          search: async (query, scope, signal) => {
            const r = await searchTheWeb(this.model, query, scope, signal);
            if ('usage' in r) this.subagents.addUsage(r.usage);
            return r;
          },
        },
      ),
      opts.mcp,
      (t) => t.name !== 'WebSearch' || hasWebSearch(this.model.provider),
    );
  }

  get model(): ModelHandle {
    return this.override ?? this.own;
  }
  /** Tokens used so far (prompts, compactions, subagents). */
  get usage(): Usage {
    return this.spend.usage;
  }
  get costUsd(): number {
    return this.spend.costUsd(this.model.facts?.price);
  }
  /** The task list, as the conversation's last TodoWrite call left it (so it comes back on resume). */
  get todos(): TodoItem[] {
    return todosOf(this.conversation.messages);
  }
  /** The OS sandbox Bash commands run in, when it is on (SPEC §13). */
  get sandbox(): Sandbox | undefined {
    return this.opts.sandbox;
  }
  /** The session's MCP servers, when any is configured (`/mcp`, `@server:uri`, `/mcp__server__prompt`). */
  get mcp(): McpManager | undefined {
    return this.opts.mcp;
  }
  /** The session's own tools offered now (built-in, Task, TodoWrite, WebFetch, WebSearch where the model can search), without the MCP servers'. */
  get tools(): ToolDef[] {
    return this.toolset.ownNow();
  }
  /** The tools offered now: the session's own, then the tools of the MCP servers that are up (SPEC §12). */
  allTools(): ToolDef[] {
    return this.toolset.all();
  }

  systemPrompt(): string {
    const start = this.startContext.length ? [`# Session start context (from SessionStart hooks)\n${this.startContext.join('\n')}`] : [];
    return buildSystemPrompt(environmentFacts(this.opts.cwd, this.model.label, process.env, this.opts.now), this.gate.mode, [
      this.memory,
      ...start,
      this.opts.appendSystemPrompt ?? '',
    ]);
  }

  /** Replaces the ASSISTANT.md section of the system prompt (the files changed during the session); from the next request on. */
  setMemory(section: string): void {
    this.memory = section;
  }

  /** The permission decision for one call (gate.ts), in Bash's working directory. */
  decide(tool: string, input: Record<string, unknown>) {
    return this.gate.decide(tool, input, this.shell.cwd);
  }

  /**
   * Resolves `@path` references of a prompt into attachments (SPEC §6), checked by the Read rules;
   * attached files count as read. Nothing is sent when a reference fails.
   */
  expandReferences(prompt: string, signal?: AbortSignal): Promise<Expansion> {
    const { cwd, home, mcp } = this.opts;
    return expandReferences(
      prompt,
      {
        cwd,
        home,
        mcp,
        model: this.model,
        fileState: this.conversation.fileState,
        readBehavior: (abs) => this.gate.readBehavior(abs),
        dropped: this.dropped,
      },
      signal,
    );
  }

  /** The terminal UI saw `abs` dragged in (or its path pasted): its `@` reference may attach it. */
  allowDropped(abs: string): void {
    this.dropped.add(abs);
  }

  /** The next prompt is shown as `shown` (a collapsed paste, a command as typed): the transcript keeps it for -c, -r and /rewind. */
  showNextPromptAs(shown: string | undefined): void {
    this.view.show(shown);
  }

  /** Runs one user prompt to completion. Never throws for model or tool failures. */
  async prompt(prompt: string, signal: AbortSignal, attachments: Attached | undefined = undefined): Promise<RunOutcome> {
    const o = this.opts;
    const text = wellFormed(prompt); // never a lone surrogate in the conversation (the API would answer 400 from then on)
    this.notices.report();
    this.conversation.startPrompt();
    this.hooks.newPrompt();
    this.stop.reset();
    const submitted = await userPromptSubmit(this.hooks, text, signal);
    if (submitted.blocked !== undefined) return { status: 'blocked', text: '', turns: 0, usage: emptyUsage(), error: submitted.blocked };
    if (this.hooks.stopReason !== undefined)
      return { status: 'stopped', text: '', turns: 0, usage: emptyUsage(), error: this.hooks.stopReason };
    this.conversation.countRun();
    await mcpReady(o.mcp, signal, (message) => this.emit({ type: 'warning', message }));
    const full = await this.autoCompact(signal);
    this.budget = { used: 0 };
    this.subagents.take();
    const model = this.model;
    let outcome: RunOutcome =
      full !== undefined
        ? { status: 'error', text: '', turns: 0, usage: emptyUsage(), error: full }
        : await runTurn({
            text,
            model,
            system: this.systemPrompt(),
            signal,
            conversation: this.conversation,
            tools: this.toolset,
            notes: (m) => this.view.fields(m),
            appended: (message, usage) => this.emit({ type: 'message', message, usage }),
            run: {
              toolCtx: {
                cwd: o.cwd,
                signal,
                fileState: this.conversation.fileState,
                shell: this.shell,
                env: o.env,
                beforeChange: this.conversation.history.beforeChange,
                sandbox: o.sandbox,
                readDenied: (tool, abs) => this.gate.readDenied(tool, abs),
              },
              decide: (tool, input) => this.decide(tool, input),
              ask: (req, sig) => this.ask(req, sig),
              seams: toolSeams(this.hooks),
              emit: this.emit,
            },
            context: [...(attachments?.attachments.length ? [attachmentText(attachments.attachments)] : []), ...submitted.context],
            images: attachmentImages(attachments?.attachments ?? []),
            onStop: (sig, lastText) => this.stop.onStop(sig, lastText),
            halted: () => this.hooks.stopReason,
            beforeRequest: (sig) => this.autoCompact(sig),
            maxTurns: o.maxTurns,
            budget: this.budget,
            onDenied: (call, input) => this.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input }),
            verify: o.verify,
            cwd: o.cwd,
            env: o.env,
            skipVerify: () => this.gate.mode === 'plan',
          });
    // Subagents' turns and tokens count in the prompt's result (SPEC §14).
    const sub = this.subagents.take();
    if (sub.turns || sub.usage.inputTokens || sub.usage.outputTokens)
      outcome = { ...outcome, turns: outcome.turns + sub.turns, usage: addUsage(outcome.usage, sub.usage) };
    this.spend.add(outcome.usage);
    this.conversation.endPrompt({ ...outcome, costUsd: costUsd(model.facts?.price, outcome.usage) });
    return outcome;
  }

  /**
   * Runs one prompt with another model (a custom command's `model:` front matter, SPEC §6); the
   * session's own model is back afterwards, whatever happens. The turn's cost uses that model.
   */
  async promptWith(model: ModelHandle, text: string, signal: AbortSignal, attachments?: Attached): Promise<RunOutcome> {
    this.override = model;
    try {
      return await this.prompt(text, signal, attachments);
    } finally {
      this.override = undefined;
    }
  }

  /**
   * `/model`: `model` answers from the next request on; the conversation goes on unchanged (its
   * reasoning stays with the provider that produced it, wire-prompt.ts). What was used so far keeps
   * the old model's price.
   */
  setModel(model: ModelHandle): void {
    this.spend.switchFrom(this.model.facts?.price);
    this.own = model;
  }

  /**
   * Replaces the conversation with the model's summary of it (SPEC §6): PreCompact hooks first,
   * then the summary (conversation.ts), then SessionStart `compact`. Never throws.
   */
  async compact(trigger: 'manual' | 'auto', instructions: string | undefined, signal: AbortSignal): Promise<Compaction> {
    if (this.conversation.messages.length === 0) return { ok: false, error: 'there is no conversation to compact yet' };
    if (this.hooks.has('PreCompact')) {
      await this.hooks.fire(
        'PreCompact',
        { ...this.hooks.base('PreCompact', true), trigger, custom_instructions: instructions ?? '' },
        signal,
      );
    }
    const c = await this.conversation.compact(this.model, trigger, instructions, signal);
    if (!c.ok) return c;
    this.spend.add(c.usage);
    this.startContext = await sessionStart(this.hooks, 'compact', signal);
    return c;
  }

  /** Compacts when the context is nearly full (SPEC §6); returns why the run must stop instead (SPEC §11.14). */
  private autoCompact(signal: AbortSignal): Promise<string | undefined> {
    const auto = this.opts.autoCompact ?? { threshold: 0.8 };
    if (!auto) return Promise.resolve(undefined);
    return this.conversation.autoCompact(
      {
        model: this.model,
        threshold: auto.threshold,
        fixed: () => this.systemPrompt() + this.toolset.json(),
        compact: (sig) => this.compact('auto', undefined, sig),
        warn: (message) => this.emit({ type: 'warning', message }),
      },
      signal,
    );
  }

  /** A permission question: Notification hooks fire first when a person will be waited for (SPEC §4). */
  private ask(req: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    if (this.opts.interactive)
      void notification(this.hooks, `assistant needs your permission to use ${req.tool}`, 'permission_prompt', signal);
    return this.opts.ask(req, signal);
  }

  /** SessionStart hooks; their output becomes context for the model. */
  start(signal: AbortSignal): Promise<void> {
    return this.startAs(this.opts.resume ? 'resume' : 'startup', signal);
  }

  /** SessionStart hooks with an explicit source (`clear` after /clear). */
  async startAs(source: 'startup' | 'resume' | 'clear', signal: AbortSignal): Promise<void> {
    this.startContext = await sessionStart(this.hooks, source, signal);
  }

  /** SessionEnd hooks; the sandbox and the MCP servers end with the session. */
  async end(reason: 'clear' | 'prompt_input_exit' | 'other', signal: AbortSignal): Promise<void> {
    await sessionEnd(this.hooks, reason, signal);
    await Promise.all([this.opts.sandbox?.close(), this.opts.mcp?.close()]);
  }

  /** Notification hooks for a wait other than a permission question (`idle_prompt`). Never throws. */
  notify(message: string, notificationType: string, signal: AbortSignal): Promise<void> {
    return notification(this.hooks, message, notificationType, signal);
  }

  /** Replaces the hooks and rules with a set the user reviewed and accepted (`/hooks`, SPEC §4). */
  applySettings(hooks: readonly HookSpec[], rules: RuleSet): void {
    this.hooks.replace(hooks);
    this.gate.replace(rules, sessionGuards(this.opts.cwd, this.opts.home, hooks, this.opts.settingsFiles));
    this.notices.acknowledge();
  }

  /** Settings changed during the session are reported as they happen (SPEC §4); returns a function that stops it. */
  followSettings(intervalMs?: number): () => void {
    return this.notices.follow(intervalMs);
  }
  /** The user reviewed the changed settings with `/hooks` and kept the session's: not reported again. */
  settingsReviewed(): void {
    this.notices.reviewed();
  }

  /** What subagents share with this session (SPEC §14): rules, mode, hooks, questions, turn budget. */
  private subagentHost(): ConstructorParameters<typeof Subagents>[0] {
    const o = this.opts;
    return {
      cwd: o.cwd,
      version: o.version,
      env: o.env,
      maxTurns: o.maxTurns,
      resolveModel: o.resolveModel,
      sessionId: this.id,
      transcriptDir: projectDir(o.home, o.cwd),
      hooks: this.hooks,
      // Subagents get the MCP tools too (as in Claude Code), unless their `tools` list leaves them out.
      model: () => this.model,
      tools: () => this.allTools(),
      system: (prompt, model) =>
        subagentSystemPrompt(prompt, environmentFacts(o.cwd, model.label, process.env, o.now), this.gate.mode, [this.memory]),
      decide: (tool, input) => this.decide(tool, input),
      ask: (req, sig) => this.ask(req, sig),
      emit: (ev) => this.emit(ev),
      budget: () => this.budget,
      toolCtx: (signal) => ({
        cwd: o.cwd,
        signal,
        env: o.env,
        beforeChange: this.conversation.history.beforeChange,
        sandbox: o.sandbox,
        readDenied: (tool, abs) => this.gate.readDenied(tool, abs),
      }),
      onDenied: (call, input) => this.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input }),
      record: (entry) => this.conversation.transcript.write({ type: 'subagent', ...entry, timestamp: new Date().toISOString() }),
    };
  }
}
