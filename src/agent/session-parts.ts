import { randomUUID } from 'node:crypto';
import { addLocalAllowRules } from '../config/local-rules.ts';
import { buildSystemPrompt, environmentFacts } from '../context/system-prompt.ts';
import { HookEngine } from '../hooks/engine.ts';
import { CLAUDE_MODE_NAMES, Gate } from '../permissions/gate.ts';
import { sessionGuards } from '../permissions/protected.ts';
import { namesHost, webSearchScope } from '../permissions/web.ts';
import { hasWebSearch } from '../providers/ai-sdk-stream.ts';
import type { ModelHandle } from '../providers/types.ts';
import { Conversation } from '../session/conversation.ts';
import { toolKinds } from '../tools/kinds.ts';
import { BUILTIN_AGENTS } from './agent-defs.ts';
import type { EventSink, PermissionAnswer, PermissionRequest } from './events.ts';
import { notification, stopSeam } from './hook-seams.ts';
import { answerFromPage } from './page-answer.ts';
import { searchTheWeb } from './search-answer.ts';
import type { Denial, SessionOptions } from './session-options.ts';
import { ownTools, SessionTools } from './session-tools.ts';
import { SettingsNotices } from './settings-reload.ts';
import { Spend } from './spend.ts';
import { Subagents } from './subagent.ts';
import { subagentHost } from './subagent-host.ts';
import { eventEntry, ViewNotes } from './view-notes.ts';

/**
 * What a session is made of, wired together once: the gate, the conversation, the hooks, the
 * tools, the subagents and the state a prompt changes. `Session` is its public face; the prompt's
 * run (session-prompt.ts) and the subagents' host (subagent-host.ts) work on it.
 */
export class SessionParts {
  readonly id: string;
  readonly gate: Gate;
  readonly conversation: Conversation;
  readonly hooks: HookEngine;
  /** The Task tool's subagents (SPEC §14) and the current prompt's shared turn counter. */
  readonly subagents: Subagents;
  /** Calls the gate refused (the SDK's `permission_denials`). */
  readonly denials: Denial[] = [];
  readonly toolset: SessionTools;
  readonly spend = new Spend();
  /** Bash keeps its working directory between calls in here. */
  readonly shell: { cwd: string };
  readonly stop: ReturnType<typeof stopSeam>;
  /** Every event: to the screen (`opts.emit`), the view notes and the transcript. */
  readonly emit: EventSink;
  readonly notices: SettingsNotices;
  /** What the screen showed beyond the messages (a paste as shown, tool times): the transcript keeps it for a redraw. */
  readonly view = new ViewNotes();
  /** Images the user dropped into the terminal UI: attached by their `@` references even outside the project. */
  readonly dropped = new Set<string>();
  own: ModelHandle;
  /** The model of the running prompt when it is not the session's own (`promptWith`). */
  override?: ModelHandle;
  memory: string;
  startContext: string[] = [];
  budget?: { used: number };

  constructor(readonly opts: Readonly<SessionOptions>) {
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
      kinds: () => toolKinds(this.toolset.all()),
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
    this.subagents = new Subagents(subagentHost(this), opts.agents ?? BUILTIN_AGENTS);
    this.toolset = new SessionTools(
      ownTools(
        opts.sandbox,
        this.subagents.tool(),
        {
          answer: async (prompt, page, signal) => {
            const r = await answerFromPage(this.model(), prompt, page, signal);
            if ('usage' in r) this.subagents.addUsage(r.usage);
            return r;
          },
          localAllowed: (host) => namesHost(this.gate.rules, host),
        },
        () => this.conversation.messages,
        {
          scope: (input) => webSearchScope(input, this.gate.rules, this.gate.mode),
          search: async (query, scope, signal) => {
            const r = await searchTheWeb(this.model(), query, scope, signal);
            if ('usage' in r) this.subagents.addUsage(r.usage);
            return r;
          },
        },
      ),
      opts.mcp,
      (t) => t.name !== 'WebSearch' || hasWebSearch(this.model().provider),
    );
  }

  /** The model answering now: the running prompt's override, else the session's own. */
  model(): ModelHandle {
    return this.override ?? this.own;
  }

  systemPrompt(): string {
    const start = this.startContext.length ? [`# Session start context (from SessionStart hooks)\n${this.startContext.join('\n')}`] : [];
    return buildSystemPrompt(environmentFacts(this.opts.cwd, this.model().label, process.env, this.opts.now), this.gate.mode, [
      this.memory,
      ...start,
      this.opts.appendSystemPrompt ?? '',
    ]);
  }

  /** The permission decision for one call (gate.ts), in Bash's working directory. */
  decide(tool: string, input: Record<string, unknown>) {
    return this.gate.decide(tool, input, this.shell.cwd);
  }

  /** A permission question: Notification hooks fire first when a person will be waited for (SPEC §4). */
  ask(req: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    if (this.opts.interactive)
      void notification(this.hooks, `assistant needs your permission to use ${req.tool}`, 'permission_prompt', signal);
    return this.opts.ask(req, signal);
  }

  /** A refused call, for the SDK's `permission_denials`. */
  denied(call: { name: string; id: string }, input: unknown): void {
    this.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input });
  }
}
