import type { Expansion } from '../context/at-paths.ts';
import type { HookEngine } from '../hooks/engine.ts';
import type { HookSpec } from '../hooks/schema.ts';
import type { McpManager } from '../mcp/manager.ts';
import type { Gate } from '../permissions/gate.ts';
import { sessionGuards } from '../permissions/protected.ts';
import type { RuleSet } from '../permissions/rules.ts';
import type { ModelHandle, Usage } from '../providers/types.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { Compaction, Conversation } from '../session/conversation.ts';
import { todosOf, type TodoItem } from '../tools/todo-write.ts';
import type { ToolDef } from '../tools/types.ts';
import type { RunOutcome } from './events.ts';
import { notification, sessionEnd, sessionStart } from './hook-seams.ts';
import { expandReferences } from './references.ts';
import type { Denial, SessionOptions } from './session-options.ts';
import { SessionParts } from './session-parts.ts';
import { type Attached, compactSession, runSessionPrompt } from './session-prompt.ts';
import type { Subagents } from './subagent.ts';

export type { Denial } from './session-options.ts';

/**
 * One session: a permission gate (gate.ts: mode, rules, decisions) and a conversation
 * (conversation.ts: messages, transcript, rewind, compaction), with the hooks, tools, model and
 * totals around them, wired in session-parts.ts. A prompt's run is session-prompt.ts; the loop
 * (turn.ts, loop.ts) does the work.
 */
export class Session {
  readonly id: string;
  readonly gate: Gate;
  readonly conversation: Conversation;
  readonly hooks: HookEngine;
  /** The Task tool's subagents (SPEC §14) and the current prompt's shared turn counter. */
  readonly subagents: Subagents;
  /** Calls the gate refused (the SDK's `permission_denials`). */
  readonly denials: Denial[];
  private readonly parts: SessionParts;

  constructor(opts: Readonly<SessionOptions>) {
    const parts = new SessionParts(opts);
    this.parts = parts;
    this.id = parts.id;
    this.gate = parts.gate;
    this.conversation = parts.conversation;
    this.hooks = parts.hooks;
    this.subagents = parts.subagents;
    this.denials = parts.denials;
  }

  get model(): ModelHandle {
    return this.parts.model();
  }
  /** Tokens used so far (prompts, compactions, subagents). */
  get usage(): Usage {
    return this.parts.spend.usage;
  }
  get costUsd(): number {
    return this.parts.spend.costUsd(this.model.facts?.price);
  }
  /** The task list, as the conversation's last TodoWrite call left it (so it comes back on resume). */
  get todos(): TodoItem[] {
    return todosOf(this.conversation.messages);
  }
  /** The OS sandbox Bash commands run in, when it is on (SPEC §13). */
  get sandbox(): Sandbox | undefined {
    return this.parts.opts.sandbox;
  }
  /** The session's MCP servers, when any is configured (`/mcp`, `@server:uri`, `/mcp__server__prompt`). */
  get mcp(): McpManager | undefined {
    return this.parts.opts.mcp;
  }
  /** The session's own tools offered now (built-in, Task, TodoWrite, WebFetch, WebSearch where the model can search), without the MCP servers'. */
  get tools(): ToolDef[] {
    return this.parts.toolset.ownNow();
  }
  /** The tools offered now: the session's own, then the tools of the MCP servers that are up (SPEC §12). */
  allTools(): ToolDef[] {
    return this.parts.toolset.all();
  }

  systemPrompt(): string {
    return this.parts.systemPrompt();
  }

  /** Replaces the ASSISTANT.md section of the system prompt (the files changed during the session); from the next request on. */
  setMemory(section: string): void {
    this.parts.memory = section;
  }

  /**
   * Resolves `@path` references of a prompt into attachments (SPEC §6), checked by the Read rules;
   * attached files count as read. Nothing is sent when a reference fails.
   */
  expandReferences(prompt: string, signal?: AbortSignal): Promise<Expansion> {
    const { cwd, home, mcp } = this.parts.opts;
    const { fileState } = this.conversation;
    const readBehavior = (abs: string) => this.gate.readBehavior(abs);
    return expandReferences(prompt, { cwd, home, mcp, model: this.model, fileState, readBehavior, dropped: this.parts.dropped }, signal);
  }

  /** The terminal UI saw `abs` dragged in (or its path pasted): its `@` reference may attach it. */
  allowDropped(abs: string): void {
    this.parts.dropped.add(abs);
  }

  /** The next prompt is shown as `shown` (a collapsed paste, a command as typed): the transcript keeps it for -c, -r and /rewind. */
  showNextPromptAs(shown: string | undefined): void {
    this.parts.view.show(shown);
  }

  /** Runs one user prompt to completion (session-prompt.ts). Never throws for model or tool failures. */
  prompt(prompt: string, signal: AbortSignal, attachments: Attached | undefined = undefined): Promise<RunOutcome> {
    return runSessionPrompt(this.parts, prompt, signal, attachments);
  }

  /**
   * Runs one prompt with another model (a custom command's `model:` front matter, SPEC §6); the
   * session's own model is back afterwards, whatever happens. The turn's cost uses that model.
   */
  async promptWith(model: ModelHandle, text: string, signal: AbortSignal, attachments?: Attached): Promise<RunOutcome> {
    this.parts.override = model;
    try {
      return await this.prompt(text, signal, attachments);
    } finally {
      this.parts.override = undefined;
    }
  }

  /**
   * `/model`: `model` answers from the next request on; the conversation goes on unchanged (its
   * reasoning stays with the provider that produced it, wire-prompt.ts). What was used so far keeps
   * the old model's price.
   */
  setModel(model: ModelHandle): void {
    this.parts.spend.switchFrom(this.model.facts?.price);
    this.parts.own = model;
  }

  /** `/compact` (SPEC §6): PreCompact hooks, the summary, SessionStart `compact` (session-prompt.ts). Never throws. */
  compact(trigger: 'manual' | 'auto', instructions: string | undefined, signal: AbortSignal): Promise<Compaction> {
    return compactSession(this.parts, trigger, instructions, signal);
  }

  /** SessionStart hooks; their output becomes context for the model. */
  start(signal: AbortSignal): Promise<void> {
    return this.startAs(this.parts.opts.resume ? 'resume' : 'startup', signal);
  }

  /** SessionStart hooks with an explicit source (`clear` after /clear). */
  async startAs(source: 'startup' | 'resume' | 'clear', signal: AbortSignal): Promise<void> {
    this.parts.startContext = await sessionStart(this.hooks, source, signal);
  }

  /** SessionEnd hooks; the sandbox and the MCP servers end with the session. */
  async end(reason: 'clear' | 'prompt_input_exit' | 'other', signal: AbortSignal): Promise<void> {
    await sessionEnd(this.hooks, reason, signal);
    await Promise.all([this.parts.opts.sandbox?.close(), this.parts.opts.mcp?.close()]);
  }

  /** Notification hooks for a wait other than a permission question (`idle_prompt`). Never throws. */
  notify(message: string, notificationType: string, signal: AbortSignal): Promise<void> {
    return notification(this.hooks, message, notificationType, signal);
  }

  /** Replaces the hooks and rules with a set the user reviewed and accepted (`/hooks`, SPEC §4). */
  applySettings(hooks: readonly HookSpec[], rules: RuleSet): void {
    const { cwd, home, settingsFiles } = this.parts.opts;
    this.hooks.replace(hooks);
    this.gate.replace(rules, sessionGuards(cwd, home, hooks, settingsFiles));
    this.parts.notices.acknowledge();
  }

  /** Settings changed during the session are reported as they happen (SPEC §4); returns a function that stops it. */
  followSettings(intervalMs?: number): () => void {
    return this.parts.notices.follow(intervalMs);
  }
  /** The user reviewed the changed settings with `/hooks` and kept the session's: not reported again. */
  settingsReviewed(): void {
    this.parts.notices.reviewed();
  }
}
