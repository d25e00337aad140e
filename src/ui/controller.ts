import { resolve } from 'node:path';
import type { AgentEvent, RunOutcome } from '../agent/events.ts';
import { isMemoryFile, readMemory, refreshMemory } from '../agent/memory.ts';
import { runCompact, runPrompt, type PromptRequest } from '../agent/run-prompt.ts';
import { RunMeter } from '../agent/run-meter.ts';
import type { Session } from '../agent/session.ts';
import { createSession, type Setup } from '../agent/setup.ts';
import { projectFolder } from '../agent/transcripts.ts';
import { loadCommands } from '../commands/loader.ts';
import type { PermissionMode } from '../permissions/modes.ts';
import { attachedLine, nextMode } from './format.ts';
import { IdleTimer } from './idle.ts';
import { offerPlan } from './plan-offer.ts';
import { InputHistory } from './input-history.ts';
import { askPermission, Questions } from './questions.ts';
import { outcomeNotice, promptAsShown, redrawTranscript } from './replay.ts';
import { addItems, endRun, initialState, reduceEvent, toggleDetail, type Choice, type NewItem, type UiState } from './state.ts';
import { Store } from './store.ts';

export interface ControllerOptions {
  setup: Setup;
  version: string;
  verbose?: boolean;
  /** Idle input before Notification hooks get `idle_prompt` (SPEC §4: 60 s). 0 turns it off. */
  idleMs?: number;
  now?: () => number;
}

const IDLE_MESSAGE = 'assistant is waiting for your input';

/** Command files that cannot be read as written (SPEC §6: reported, not dropped silently). */
function commandProblems(setup: Setup): string[] {
  const { problems } = loadCommands({ projectRoot: setup.cwd, home: setup.home });
  if (problems.length === 0) return [];
  const rel = (p: string) => p.replace(`${setup.cwd}/`, '').replace(`${setup.home}/`, '~/');
  return [`Some command files have problems (/help lists them again):\n${problems.map((p) => `  ${rel(p)}`).join('\n')}`];
}

/**
 * Runs one interactive session for the terminal UI: opens the Session, turns its events into UI
 * state, answers its questions through dialogs, and carries out what the user asks (prompts,
 * interrupts, mode changes, /clear, /resume, /rewind). It decides nothing about permissions: the
 * Session decides, the user answers. Works without React (tests drive it directly).
 */
export class Controller {
  readonly store: Store<UiState>;
  readonly history: InputHistory;
  session!: Session;
  /** Set by the UI: leave the app (after SessionEnd ran). */
  onExit?: () => void;
  /** Set by the UI: wipe the screen before the history starts again (/clear, /resume). */
  onClearScreen?: () => void;
  /** Set by the UI: hand the terminal to a program ($EDITOR) and take it back. */
  suspend?: (fn: () => Promise<void> | void) => Promise<void>;
  readonly questions: Questions;
  private run?: AbortController;
  /** Settles when the running prompt (or /compact) has ended, its tools stopped. */
  private runEnded: Promise<void> = Promise.resolve();
  private markEnded?: () => void;
  private readonly queued: Array<{ text: string; shown?: string }> = [];
  /** What the session has cost: its earlier runs (a resumed session: other processes), its own, the running prompt's. */
  meter = new RunMeter();
  private planWritten = false;
  /** The running turn wrote an ASSISTANT.md: it is read again when the turn ends. */
  private memoryWritten = false;
  private readonly idle: IdleTimer;
  /** Stops reporting settings changes as they happen (the session is closing). */
  private stopFollowing?: () => void;
  /** Aborts the SessionStart hooks still running (the session is ending). */
  private starting?: AbortController;
  readonly startedInBypass: boolean;
  private readonly now: () => number;
  /** Handles `/…` input; set by commands.ts (kept apart so this file stays about the session). */
  slash?: (ctrl: Controller, text: string) => Promise<void>;
  exited = false;

  constructor(readonly opts: ControllerOptions) {
    const { setup } = opts;
    this.currentSetup = setup;
    this.now = opts.now ?? Date.now;
    this.startedInBypass = setup.mode === 'bypass';
    this.store = new Store(initialState({ mode: setup.mode, model: '', window: 0, cwd: setup.cwd, verbose: opts.verbose }));
    this.history = new InputHistory(projectFolder(setup));
    this.questions = new Questions((q) => this.store.update((s) => ({ ...s, question: q })), () => this.idle.disarm());
    this.idle = new IdleTimer(opts.idleMs ?? 60_000, () => {
      if (this.run || this.questions.waiting || this.exited) return;
      void this.session.notify(IDLE_MESSAGE, 'idle_prompt', AbortSignal.timeout(60_000));
    });
  }

  /** What the session is made from; `updateSetup` replaces it (the mode kept across /clear, another session to resume). */
  get setup(): Setup { return this.currentSetup; }
  updateSetup(change: Partial<Setup>): void { this.currentSetup = { ...this.currentSetup, ...change }; }
  private currentSetup: Setup;
  get busy(): boolean { return this.run !== undefined; }

  /** Opens a session (after /clear or /resume): `create`, then `start`. */
  async open(source: 'startup' | 'resume' | 'clear' = this.setup.resume ? 'resume' : 'startup'): Promise<void> {
    await this.create();
    await this.start(source);
  }

  /**
   * Opens the Session and shows its banner (and a resumed conversation). Runs no hook, so it is
   * quick; the CLI calls it before the screen is drawn. Throws SetupError/ConfigError like createSession.
   */
  async create(): Promise<void> {
    const { session, warnings } = await createSession(this.setup, {
      emit: (ev) => this.onEvent(ev), ask: (req, signal) => askPermission(this.askDeps, req, signal), interactive: true, version: this.opts.version,
    });
    this.session = session;
    const s = this.session;
    this.stopFollowing?.();
    this.stopFollowing = s.followSettings();
    const redraw = this.setup.resume ? redrawTranscript(s.transcript.path) : undefined;
    this.meter = new RunMeter(redraw ? { costUsd: redraw.costUsd, usage: redraw.usage } : undefined);
    this.store.update((st) => {
      let next: UiState = { ...st, model: s.model.label, mode: s.mode, context: { used: redraw?.contextUsed ?? 0, window: s.model.contextWindow }, costUsd: this.meter.earlier.costUsd, todos: s.todos };
      next = addItems(next, { kind: 'banner', version: this.opts.version, model: s.model.label, cwd: this.setup.cwd, ...(this.setup.resume ? { resumed: s.id } : {}) });
      if (redraw) next = addItems(next, ...redraw.items);
      return addItems(next, ...[...warnings, ...commandProblems(this.setup)].map((text): NewItem => ({ kind: 'notice', tone: 'warning', text })));
    });
    this.updateSetup({ warnings: [] }); // shown once
  }

  /**
   * Runs the SessionStart hooks while the screen shows "Starting…"; what is typed meanwhile is
   * queued and sent once they are done.
   */
  async start(source: 'startup' | 'resume' | 'clear' = this.setup.resume ? 'resume' : 'startup'): Promise<void> {
    const ac = new AbortController();
    this.starting = ac;
    this.store.update((s) => ({ ...s, live: { ...s.live, starting: true } }));
    try {
      await this.session.startAs(source, AbortSignal.any([ac.signal, AbortSignal.timeout(120_000)]));
    } finally {
      this.starting = undefined;
      this.store.update((s) => ({ ...s, live: { ...s.live, starting: undefined } }));
    }
    if (this.exited) return;
    this.idle.arm();
    await this.drainQueue();
  }

  private get askDeps() {
    return { session: this.session, cwd: this.setup.cwd, questions: this.questions, notice: (tone: 'error' | 'success', text: string) => this.notice(tone, text), interrupt: () => this.run?.abort(new Error('interrupted by the user')) };
  }

  add(...items: NewItem[]): void { this.store.update((s) => addItems(s, ...items)); }
  notice(tone: 'info' | 'warning' | 'error' | 'success', text: string): void { this.add({ kind: 'notice', tone, text }); }
  hint(text: string | undefined): void { this.store.update((s) => (s.hint === text ? s : { ...s, hint: text })); }

  private onEvent(ev: AgentEvent): void {
    if (ev.type === 'tool-end' && !ev.result.isError && (ev.name === 'Write' || ev.name === 'Edit')) {
      const p = (ev.input as { file_path?: unknown })?.file_path;
      if (typeof p === 'string' && resolve(this.setup.cwd, p) === resolve(this.setup.cwd, 'plan.md')) this.planWritten = true;
      if (typeof p === 'string' && isMemoryFile(p)) this.memoryWritten = true;
    }
    const costed = this.meter.observe(ev);
    this.store.update((s) => {
      const next = reduceEvent(s, ev, this.now());
      return costed ? { ...next, costUsd: this.meter.liveCostUsd(this.session) } : next;
    });
  }

  /** What the session has cost so far, its earlier runs included. */
  get totalCostUsd(): number { return this.meter.totalCostUsd(this.session); }

  /** Text typed at the prompt: a slash command, or a prompt for the model. Queued while a prompt runs. */
  async submit(text: string, shown?: string): Promise<void> {
    const t = text.replace(/\s+$/, '');
    if (!t.trim()) return;
    this.history.add(t);
    if (this.run || this.starting) {
      this.queued.push({ text: t, shown });
      this.hint(`Queued: ${(shown ?? t).split('\n')[0].slice(0, 60)} (${this.starting ? 'sent once the session has started' : 'runs when the answer is done'})`);
      return;
    }
    await this.send(t, shown);
  }

  /** `shown`: what the history shows instead of the text (large pastes collapsed, as typed). */
  private async send(text: string, shown?: string): Promise<void> {
    if (text.startsWith('/') && this.slash) await this.slash(this, text);
    else await this.prompt(text, shown ? { shown } : {});
  }

  /**
   * Sends one prompt to the model and shows the run. `shown` is what the history shows instead
   * of the text (a slash command as typed); `grant` adds allow rules for this turn only; `model`
   * answers this turn instead of the session's (a command's `model:`), shown in the footer meanwhile;
   * `mcp`: an MCP server's prompt, got first and sent instead of the text.
   */
  async prompt(text: string, o: Omit<PromptRequest, 'prompt'> = {}): Promise<RunOutcome | undefined> {
    this.idle.disarm();
    this.add({ kind: 'user', text: o.shown ?? text });
    const ac = this.beginRun();
    this.meter.newPrompt();
    this.planWritten = false;
    this.memoryWritten = false;
    let outcome: RunOutcome | undefined;
    try {
      const run = await runPrompt(this.session, { ...o, prompt: text }, ac.signal, (expansion) => {
        if (expansion.attachments.length) this.add({ kind: 'attached', lines: expansion.attachments.map(attachedLine) });
        if (o.model) { const { label } = o.model; this.store.update((s) => ({ ...s, model: label })); }
      });
      if (run.sent) outcome = run.outcome;
      else this.notice('error', run.cause === 'mcp' ? run.errors.join('\n') : `Nothing was sent:\n${run.errors.join('\n')}`);
    } catch (e) {
      this.notice('error', `Error: ${(e as Error).message}`);
    } finally {
      this.finishRun({ model: this.session.model.label });
    }
    if (this.exited) return outcome;
    if (this.memoryWritten) this.reloadMemory();
    if (outcome) this.report(outcome);
    if (outcome?.status === 'done' && this.planWritten && this.session.mode === 'plan') await offerPlan(this);
    this.idle.arm();
    await this.drainQueue();
    return outcome;
  }

  /** A prompt or /compact starts: the spinner runs, Esc can stop it. */
  private beginRun(): AbortController {
    const ac = new AbortController();
    this.run = ac;
    this.meter.begin();
    this.runEnded = new Promise((r) => { this.markEnded = r; });
    this.store.update((s) => ({ ...s, live: { ...s.live, busy: { since: this.now(), tokens: 0 } } }));
    return ac;
  }

  private finishRun(extra: Partial<UiState> = {}): void {
    this.run = undefined;
    this.meter.end();
    this.store.update((s) => ({ ...endRun(s), costUsd: this.totalCostUsd, ...extra }));
    this.markEnded?.();
  }

  private report(o: RunOutcome): void {
    const n = outcomeNotice(o.status, o.error);
    if (n) this.add(n);
  }

  private async drainQueue(): Promise<void> {
    const next = this.queued.shift();
    this.hint(this.queued.length ? `Queued: ${this.queued.length} more` : undefined);
    if (next !== undefined) await this.send(next.text, next.shown);
  }

  /**
   * Esc: stops the model or the running tool; the session stays consistent (the loop closes the
   * turn). Prompts queued during the answer are kept: they are sent next, as Claude Code does
   * (what was typed is usually what the model should do instead), never dropped.
   */
  interrupt(): void {
    const q = this.questions.first;
    if (q?.kind === 'permission') { q.answer({ kind: 'interrupt' }); return; }
    if (q?.kind === 'select') { q.answer(undefined); return; }
    this.run?.abort(new Error('interrupted by the user'));
  }

  /** Ctrl-O: the whole history unfolded, or folded again (the screen is wiped and printed anew). */
  expand(): void {
    this.onClearScreen?.();
    this.store.update(toggleDetail);
  }

  setMode(mode: PermissionMode): void {
    this.session.setMode(mode);
    this.store.update((s) => ({ ...s, mode }));
  }

  cycleMode(): void { this.setMode(nextMode(this.session.mode, this.startedInBypass)); }

  /** A list to pick from (↑/↓, Enter; Esc gives undefined); `initial`: the option the ❯ starts on; `markdown`: the body is. */
  choose(title: string, options: Array<Choice<string>>, body?: string, o: { initial?: number; markdown?: boolean } = {}): Promise<string | undefined> {
    return this.questions.choose(title, options, body, o);
  }

  /** A key was pressed: the idle clock starts again (if it is still waiting to fire). */
  touch(): void { this.idle.touch(); }

  /** Ends the session (SessionEnd with `reason`) and forgets what was shown. */
  private async close(reason: 'clear' | 'prompt_input_exit' | 'other'): Promise<void> {
    this.idle.disarm();
    this.stopFollowing?.();
    this.stopFollowing = undefined;
    this.starting?.abort(new Error('session closed'));
    this.run?.abort(new Error('session closed'));
    await this.session.end(reason, AbortSignal.timeout(60_000));
  }

  /**
   * ASSISTANT.md files read again after /init, /memory or a turn wrote them: /memory and /status
   * list them, and the next request's system prompt has them (not only after /clear).
   */
  reloadMemory(): void {
    this.updateSetup({ memory: refreshMemory(this.session, this.setup) });
  }

  /** `/clear`: a new conversation (SessionEnd `clear`, then SessionStart `clear`); ASSISTANT.md is read again. */
  async clear(): Promise<void> {
    const mode = this.session.mode; // the mode stays as it was (Claude Code keeps it too)
    await this.close('clear');
    this.updateSetup({ mode, resume: undefined, memory: readMemory(this.setup) });
    this.restartScreen();
    await this.open('clear');
  }

  /** `/resume`, `-r`: continue another session of this project. */
  async resume(target: { sessionId: string; path: string }): Promise<void> {
    const mode = this.session.mode;
    await this.close('other');
    this.updateSetup({ mode, resume: target });
    this.restartScreen();
    await this.open('resume');
  }

  /**
   * The conversation goes back to before prompt `index` (`/rewind`): the screen starts again with
   * what is left of it, and `text` (that prompt) is put back in the input.
   */
  rewindConversation(index: number, text: string): void {
    const typed = promptAsShown(this.session.transcript.path, index); // a paste back as its mark, a command as typed
    this.session.rewindConversation(index);
    this.restartScreen();
    const s = this.session;
    const redraw = redrawTranscript(s.transcript.path);
    this.add({ kind: 'banner', version: this.opts.version, model: s.model.label, cwd: this.setup.cwd }, ...redraw.items);
    this.store.update((st) => ({ ...st, context: { ...st.context, used: redraw.contextUsed } }));
    this.setInput(typed?.text ?? text, typed?.pastes);
  }

  /** Replaces what is typed in the input box. */
  setInput(text: string, pastes?: ReadonlyMap<number, string>): void {
    this.store.update((s) => ({ ...s, draft: { id: (s.draft?.id ?? 0) + 1, text, ...(pastes ? { pastes } : {}) } }));
  }

  /** The screen was wiped (a resize): print the whole history again. */
  reprint(): void {
    this.store.update((s) => ({ ...s, epoch: s.epoch + 1 }));
  }

  /** Ctrl-L: wipe the screen and print the whole history again. */
  redraw(): void {
    this.onClearScreen?.();
    this.reprint();
  }

  private restartScreen(): void {
    this.onClearScreen?.();
    this.store.update((s) => ({ ...s, epoch: s.epoch + 1, history: [], live: { streaming: '', tools: [], hooks: [] }, hint: undefined }));
  }

  /** `/compact [instructions]`, interruptible with Esc. */
  async compact(instructions: string): Promise<void> {
    const ac = this.beginRun();
    try {
      const { outcome } = await runCompact(this.session, instructions, ac.signal);
      if (outcome.status === 'done') this.notice('success', outcome.text);
      else if (outcome.error) this.notice('error', `${outcome.error[0].toUpperCase()}${outcome.error.slice(1)}`);
    } finally {
      this.finishRun();
    }
  }

  /** `/exit`, Ctrl-D, Ctrl-C twice: SessionEnd `prompt_input_exit`, then the app leaves. */
  async exit(): Promise<void> {
    if (this.exited) return;
    this.exited = true;
    this.questions.cancelAll();
    await this.close('prompt_input_exit');
    this.onExit?.();
  }

  /**
   * A signal (SIGTERM, SIGHUP, SIGINT): the running turn is stopped first (a tool's whole process
   * group is killed; up to `graceMs` for it to end), then SessionEnd runs (`other`), then the app
   * leaves. Never throws.
   */
  async terminate(graceMs = 3000): Promise<void> {
    if (this.exited) return;
    this.exited = true;
    this.idle.disarm();
    this.queued.length = 0;
    this.questions.cancelAll();
    this.starting?.abort(new Error('session ending'));
    this.run?.abort(new Error('session ending'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.runEnded, new Promise<void>((r) => { timer = setTimeout(r, graceMs); })]);
    clearTimeout(timer);
    if (this.session) await this.session.end('other', AbortSignal.timeout(5_000)).catch(() => undefined);
    this.onExit?.();
  }
}
