import { resolve } from 'node:path';
import type { AgentEvent, RunOutcome } from '../agent/events.ts';
import { isMemoryFile } from '../agent/memory.ts';
import { runCompact, runPrompt, type PromptRequest } from '../agent/run-prompt.ts';
import { RunMeter } from '../agent/run-meter.ts';
import type { Session } from '../agent/session.ts';
import type { Setup } from '../agent/setup.ts';
import { projectFolder } from '../agent/transcripts.ts';
import type { PermissionMode } from '../permissions/modes.ts';
import { attachedLine } from './format.ts';
import { IdleTimer } from './idle.ts';
import { InputHistory } from './input-history.ts';
import { offerPlan } from './plan-offer.ts';
import { Questions } from './questions.ts';
import { outcomeNotice } from './replay.ts';
import { addItems, endRun, initialState, reduceEvent, toggleDetail, type Choice, type NewItem, type UiState } from './state.ts';
import { Store } from './store.ts';

const IDLE_MESSAGE = 'assistant is waiting for your input';

/**
 * The terminal session's runs and screen: what is shown (the store), what is typed (sent, or
 * queued while a prompt runs), the running prompt or /compact (its spinner, cost, Esc), and what
 * follows a prompt (the plan offer, the memory read again). The session's lifecycle (open, /clear,
 * /resume, /rewind, exit) is controller.ts's.
 */
export abstract class RunState {
  readonly store: Store<UiState>;
  readonly history: InputHistory;
  abstract session: Session;
  /** Set by the UI: wipe the screen before the history starts again (/clear, /resume). */
  onClearScreen?: () => void;
  readonly questions: Questions;
  protected run?: AbortController;
  /** Settles when the running prompt (or /compact) has ended, its tools stopped. */
  protected runEnded: Promise<void> = Promise.resolve();
  private markEnded?: () => void;
  protected readonly queued: Array<{ text: string; shown?: string }> = [];
  /** What the session has cost: its earlier runs (a resumed session: other processes), its own, the running prompt's. */
  meter = new RunMeter();
  private planWritten = false;
  /** The running turn wrote an ASSISTANT.md: it is read again when the turn ends. */
  private memoryWritten = false;
  protected readonly idle: IdleTimer;
  /** Aborts the SessionStart hooks still running (the session is ending). */
  protected starting?: AbortController;
  protected readonly now: () => number;
  /** Handles `/…` input; set by commands.ts (kept apart so this file stays about runs). */
  slash?: (ctrl: this, text: string) => Promise<void>;
  exited = false;

  abstract get setup(): Setup;
  abstract setMode(mode: PermissionMode): void;
  abstract reloadMemory(): void;

  constructor(setup: Setup, o: { verbose?: boolean; idleMs?: number; now?: () => number }) {
    this.now = o.now ?? Date.now;
    this.store = new Store(initialState({ mode: setup.mode, model: '', window: 0, cwd: setup.cwd, verbose: o.verbose }));
    this.history = new InputHistory(projectFolder(setup));
    this.questions = new Questions(
      (q) => this.store.update((s) => ({ ...s, question: q })),
      () => this.idle.disarm(),
    );
    this.idle = new IdleTimer(o.idleMs ?? 60_000, () => {
      if (this.run || this.questions.waiting || this.exited) return;
      void this.session.notify(IDLE_MESSAGE, 'idle_prompt', AbortSignal.timeout(60_000));
    });
  }

  /** A prompt or /compact is running. */
  get busy(): boolean {
    return this.run !== undefined;
  }

  add(...items: NewItem[]): void {
    this.store.update((s) => addItems(s, ...items));
  }
  notice(tone: 'info' | 'warning' | 'error' | 'success', text: string): void {
    this.add({ kind: 'notice', tone, text });
  }
  hint(text: string | undefined): void {
    this.store.update((s) => (s.hint === text ? s : { ...s, hint: text }));
  }

  protected onEvent(ev: AgentEvent): void {
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
  get totalCostUsd(): number {
    return this.meter.totalCostUsd(this.session);
  }

  /** Text typed at the prompt: a slash command, or a prompt for the model. Queued while a prompt runs. */
  async submit(text: string, shown?: string): Promise<void> {
    const t = text.replace(/\s+$/, '');
    if (!t.trim()) return;
    this.history.add(t);
    if (this.run || this.starting) {
      this.queued.push({ text: t, shown });
      this.hint(
        `Queued: ${(shown ?? t).split('\n')[0].slice(0, 60)} (${this.starting ? 'sent once the session has started' : 'runs when the answer is done'})`,
      );
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
        if (o.model) {
          const { label } = o.model;
          this.store.update((s) => ({ ...s, model: label }));
        }
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
    if (outcome?.status === 'done' && this.planWritten && this.session.gate.mode === 'plan') await offerPlan(this);
    this.idle.arm();
    await this.drainQueue();
    return outcome;
  }

  /** A prompt or /compact starts: the spinner runs, Esc can stop it. */
  private beginRun(): AbortController {
    const ac = new AbortController();
    this.run = ac;
    this.meter.begin();
    this.runEnded = new Promise((r) => {
      this.markEnded = r;
    });
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

  protected async drainQueue(): Promise<void> {
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
    if (q?.kind === 'permission') {
      q.answer({ kind: 'interrupt' });
      return;
    }
    if (q?.kind === 'select') {
      q.answer(undefined);
      return;
    }
    this.run?.abort(new Error('interrupted by the user'));
  }

  /** Ctrl-O: the whole history unfolded, or folded again (the screen is wiped and printed anew). */
  expand(): void {
    this.onClearScreen?.();
    this.store.update(toggleDetail);
  }

  /** A list to pick from (↑/↓, Enter; Esc gives undefined); `initial`: the option the ❯ starts on; `markdown`: the body is. */
  choose(
    title: string,
    options: Array<Choice<string>>,
    body?: string,
    o: { initial?: number; markdown?: boolean } = {},
  ): Promise<string | undefined> {
    return this.questions.choose(title, options, body, o);
  }

  /** A key was pressed: the idle clock starts again (if it is still waiting to fire). */
  touch(): void {
    this.idle.touch();
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

  protected restartScreen(): void {
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
}
