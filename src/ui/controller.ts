import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentEvent, PermissionAnswer, PermissionRequest, RunOutcome } from '../agent/events.ts';
import type { Session } from '../agent/session.ts';
import { createSession, type Setup } from '../agent/setup.ts';
import { loadMemory } from '../context/memory.ts';
import type { PermissionMode } from '../permissions/modes.ts';
import { costUsd } from '../providers/catalogue.ts';
import { addUsage, emptyUsage, type ModelHandle, type Usage } from '../providers/types.ts';
import { projectDir } from '../session/transcript.ts';
import { toExpand } from './fold.ts';
import { nextMode, shortPath } from './format.ts';
import { InputHistory } from './input-history.ts';
import { replayItems } from './replay.ts';
import { addItems, endRun, initialState, reduceEvent, type Choice, type NewItem, type PermissionChoice, type Question, type UiState } from './state.ts';
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
  private run?: AbortController;
  private runUsage: Usage = emptyUsage();
  private readonly questions: Question[] = [];
  private readonly queued: string[] = [];
  private planWritten = false;
  private questionIds = 0;
  private idleTimer?: NodeJS.Timeout;
  private readonly startedInBypass: boolean;
  private readonly now: () => number;
  /** Handles `/…` input; set by commands.ts (kept apart so this file stays about the session). */
  slash?: (ctrl: Controller, text: string) => Promise<void>;
  exited = false;

  constructor(readonly opts: ControllerOptions) {
    const { setup } = opts;
    this.now = opts.now ?? Date.now;
    this.startedInBypass = setup.mode === 'bypass';
    this.store = new Store(initialState({ mode: setup.mode, model: '', window: 0, cwd: setup.cwd, verbose: opts.verbose }));
    this.history = new InputHistory(projectDir(setup.home, setup.cwd));
  }

  get setup(): Setup { return this.opts.setup; }
  get busy(): boolean { return this.run !== undefined; }

  /** Opens a session (the first, or after /clear or /resume). Throws SetupError/ConfigError like createSession. */
  async open(source: 'startup' | 'resume' | 'clear' = this.setup.resume ? 'resume' : 'startup'): Promise<void> {
    this.session = await createSession(this.setup, {
      emit: (ev) => this.onEvent(ev), ask: (req, signal) => this.ask(req, signal), interactive: true, version: this.opts.version,
    });
    const s = this.session;
    this.runUsage = emptyUsage();
    this.store.update((st) => {
      let next: UiState = { ...st, model: s.model.label, mode: s.mode, context: { used: 0, window: s.model.contextWindow }, costUsd: 0 };
      next = addItems(next, { kind: 'banner', version: this.opts.version, model: s.model.label, cwd: this.setup.cwd, ...(this.setup.resume ? { resumed: s.id } : {}) });
      if (this.setup.resume) next = addItems(next, ...replayItems(s.messages));
      return addItems(next, ...this.setup.warnings.map((text): NewItem => ({ kind: 'notice', tone: 'warning', text })));
    });
    this.setup.warnings.length = 0;
    await s.startAs(source, AbortSignal.timeout(120_000));
    this.armIdle();
  }

  add(...items: NewItem[]): void { this.store.update((s) => addItems(s, ...items)); }
  notice(tone: 'info' | 'warning' | 'error' | 'success', text: string): void { this.add({ kind: 'notice', tone, text }); }
  hint(text: string | undefined): void { this.store.update((s) => (s.hint === text ? s : { ...s, hint: text })); }

  private onEvent(ev: AgentEvent): void {
    if (ev.type === 'tool-end' && !ev.result.isError && (ev.name === 'Write' || ev.name === 'Edit')) {
      const p = (ev.input as { file_path?: unknown })?.file_path;
      if (typeof p === 'string' && resolve(this.setup.cwd, p) === resolve(this.setup.cwd, 'plan.md')) this.planWritten = true;
    }
    if (ev.type === 'message' && ev.usage) this.runUsage = addUsage(this.runUsage, ev.usage);
    this.store.update((s) => {
      const next = reduceEvent(s, ev, this.now());
      return ev.type === 'message' && ev.usage ? { ...next, costUsd: this.cost() } : next;
    });
  }

  private cost(): number {
    return this.session.costUsd + (this.run ? costUsd(this.session.model.model, this.runUsage) : 0);
  }

  /** Text typed at the prompt: a slash command, or a prompt for the model. Queued while a prompt runs. */
  async submit(text: string): Promise<void> {
    const t = text.replace(/\s+$/, '');
    if (!t.trim()) return;
    this.history.add(t);
    if (this.run) {
      this.queued.push(t);
      this.hint(`Queued: ${t.split('\n')[0].slice(0, 60)} (runs when the answer is done)`);
      return;
    }
    if (t.startsWith('/') && this.slash) await this.slash(this, t);
    else await this.prompt(t);
  }

  /**
   * Sends one prompt to the model and shows the run. `shown` is what the history shows instead
   * of the text (a slash command as typed); `grant` adds allow rules for this turn only; `model`
   * answers this turn instead of the session's (a command's `model:`), shown in the footer meanwhile.
   */
  async prompt(text: string, o: { shown?: string; grant?: { rules: string[]; source: string }; model?: ModelHandle } = {}): Promise<RunOutcome | undefined> {
    this.disarmIdle();
    this.add({ kind: 'user', text: o.shown ?? text });
    const ac = new AbortController();
    this.run = ac;
    this.runUsage = emptyUsage();
    this.planWritten = false;
    this.store.update((s) => ({ ...s, live: { ...s.live, busy: { since: this.now(), tokens: 0 } } }));
    let outcome: RunOutcome | undefined;
    let revoke: (() => void) | undefined;
    try {
      const expansion = await this.session.expandReferences(text, ac.signal);
      if (!expansion.ok) {
        this.notice('error', `Nothing was sent:\n${expansion.errors.join('\n')}`);
      } else {
        if (o.grant?.rules.length) revoke = this.session.grantRules(o.grant.rules, o.grant.source);
        if (o.model) {
          const { label } = o.model;
          this.store.update((s) => ({ ...s, model: label }));
          outcome = await this.session.promptWith(o.model, text, ac.signal, expansion);
        } else {
          outcome = await this.session.prompt(text, ac.signal, expansion);
        }
      }
    } catch (e) {
      this.notice('error', `Error: ${(e as Error).message}`);
    } finally {
      revoke?.();
      this.run = undefined;
      this.store.update((s) => ({ ...endRun(s), costUsd: this.session.costUsd, model: this.session.model.label }));
    }
    if (outcome) this.report(outcome);
    if (outcome?.status === 'done' && this.planWritten && this.session.mode === 'plan') await this.offerPlan();
    this.armIdle();
    await this.drainQueue();
    return outcome;
  }

  private report(o: RunOutcome): void {
    switch (o.status) {
      case 'aborted': this.notice('warning', 'Interrupted · what should assistant do instead?'); break;
      case 'error': this.notice('error', `Error: ${o.error ?? 'the run failed'}`); break;
      case 'max-turns': this.notice('warning', o.error ?? 'Reached the turn limit.'); break;
      case 'blocked': this.notice('warning', `Prompt blocked by a UserPromptSubmit hook: ${o.error ?? ''}`); break;
      case 'stopped': this.notice('warning', `Stopped by a hook: ${o.error ?? ''}`); break;
      case 'verify-failed': this.notice('error', `Verification still fails: ${o.error ?? ''}`); break;
      default: break;
    }
  }

  private async drainQueue(): Promise<void> {
    const next = this.queued.shift();
    this.hint(this.queued.length ? `Queued: ${this.queued.length} more` : undefined);
    if (next !== undefined) {
      if (next.startsWith('/') && this.slash) await this.slash(this, next);
      else await this.prompt(next);
    }
  }

  /** Plan Mode wrote plan.md: execute it (leaving Plan Mode) or keep planning (SPEC §5). */
  private async offerPlan(): Promise<void> {
    const file = resolve(this.setup.cwd, 'plan.md');
    const plan = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    const body = plan.length > 16 ? [...plan.slice(0, 16), `… ${plan.length - 16} more lines in plan.md`].join('\n') : plan.join('\n');
    const v = await this.choose('The plan is in plan.md. Would you like to proceed?', [
      { label: 'Yes, and auto-accept edits', value: 'auto-accept' },
      { label: 'Yes, and manually approve edits', value: 'normal' },
      { label: 'No, keep planning', value: 'plan' },
    ], body);
    if (v === 'auto-accept' || v === 'normal') {
      this.setMode(v);
      await this.prompt('Execute the plan in plan.md, step by step.', { shown: 'Execute the plan in plan.md' });
    }
  }

  /** Esc: stops the model or the running tool; the session stays consistent (the loop closes the turn). */
  interrupt(): void {
    const q = this.questions[0];
    if (q?.kind === 'permission') { q.answer({ kind: 'interrupt' }); return; }
    if (q?.kind === 'select') { q.answer(undefined); return; }
    this.queued.length = 0;
    this.run?.abort(new Error('interrupted by the user'));
  }

  /** Ctrl-O: prints the folded tool output of the last prompt whole (once per call). */
  expand(): void {
    const items = toExpand(this.store.get().history);
    if (items.length) { this.add(...items); return; }
    const text = 'Nothing folded to expand in the last prompt.';
    this.hint(text);
    setTimeout(() => this.store.update((s) => (s.hint === text ? { ...s, hint: undefined } : s)), 3000).unref?.();
  }

  setMode(mode: PermissionMode): void {
    this.session.mode = mode;
    this.store.update((s) => ({ ...s, mode }));
  }

  cycleMode(): void { this.setMode(nextMode(this.session.mode, this.startedInBypass)); }

  private showQuestion(): void {
    this.store.update((s) => ({ ...s, question: this.questions[0] }));
  }

  private pushQuestion(q: Question): void {
    this.disarmIdle();
    this.questions.push(q);
    this.showQuestion();
  }

  private popQuestion(q: Question): void {
    const i = this.questions.indexOf(q);
    if (i >= 0) this.questions.splice(i, 1);
    this.showQuestion();
  }

  /** A list to pick from (↑/↓, Enter; Esc gives undefined). */
  choose(title: string, options: Array<Choice<string>>, body?: string): Promise<string | undefined> {
    return new Promise((resolveChoice) => {
      const q: Question = { kind: 'select', id: ++this.questionIds, title, body, options, answer: (v) => { this.popQuestion(q); resolveChoice(v); } };
      this.pushQuestion(q);
    });
  }

  /** The Session's AskFn: shows the permission dialog; an interrupt while it waits answers "no". */
  private async ask(req: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const always = await this.session.suggestRules(req).catch(() => [] as string[]);
    return new Promise((resolveAnswer) => {
      let done = false;
      const finish = (a: PermissionAnswer) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        this.popQuestion(q);
        resolveAnswer(a);
      };
      const onAbort = () => finish({ allow: false, message: 'Interrupted by the user.' });
      const q: Question = {
        kind: 'permission', id: ++this.questionIds, req, always,
        answer: (c: PermissionChoice) => {
          if (c.kind === 'once') return finish({ allow: true });
          if (c.kind === 'always') {
            try {
              const file = this.session.allowAlways(always);
              this.notice('success', `Added ${always.join(', ')} to ${shortPath(file, this.setup.cwd)}`);
            } catch (e) {
              this.notice('error', `Could not save the rule: ${(e as Error).message}`);
            }
            return finish({ allow: true });
          }
          if (c.kind === 'deny') {
            const fb = c.feedback.trim();
            return finish({ allow: false, message: fb ? `The user refused this tool call and said: ${fb}` : 'The user refused this tool call.' });
          }
          finish({ allow: false, message: 'The user refused this tool call and interrupted the turn.' });
          this.run?.abort(new Error('interrupted by the user'));
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) { onAbort(); return; }
      this.pushQuestion(q);
    });
  }

  /** A key was pressed: the idle clock starts again (if it is still waiting to fire). */
  touch(): void {
    if (this.idleTimer) this.armIdle();
  }

  private armIdle(): void {
    this.disarmIdle();
    const ms = this.opts.idleMs ?? 60_000;
    if (ms <= 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.run || this.questions.length || this.exited) return;
      void this.session.notify(IDLE_MESSAGE, 'idle_prompt', AbortSignal.timeout(60_000));
    }, ms);
    this.idleTimer.unref?.();
  }

  private disarmIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Ends the session (SessionEnd with `reason`) and forgets what was shown. */
  private async close(reason: 'clear' | 'prompt_input_exit' | 'other'): Promise<void> {
    this.disarmIdle();
    this.run?.abort(new Error('session closed'));
    await this.session.end(reason, AbortSignal.timeout(60_000));
  }

  /** `/clear`: a new conversation (SessionEnd `clear`, then SessionStart `clear`); ASSISTANT.md is read again. */
  async clear(): Promise<void> {
    await this.close('clear');
    this.setup.resume = undefined;
    this.setup.memory = loadMemory({ cwd: this.setup.cwd, home: this.setup.home });
    this.restartScreen();
    await this.open('clear');
  }

  /** `/resume`, `-r`: continue another session of this project. */
  async resume(target: { sessionId: string; path: string }): Promise<void> {
    await this.close('other');
    this.setup.resume = target;
    this.restartScreen();
    await this.open('resume');
  }

  /**
   * The conversation goes back to before prompt `index` (`/rewind`): the screen starts again with
   * what is left of it, and `text` (that prompt) is put back in the input.
   */
  rewindConversation(index: number, text: string): void {
    this.session.rewindConversation(index);
    this.restartScreen();
    const s = this.session;
    this.add({ kind: 'banner', version: this.opts.version, model: s.model.label, cwd: this.setup.cwd }, ...replayItems(s.messages));
    this.setInput(text);
  }

  /** Replaces what is typed in the input box. */
  setInput(text: string): void {
    this.store.update((s) => ({ ...s, draft: { id: (s.draft?.id ?? 0) + 1, text } }));
  }

  private restartScreen(): void {
    this.onClearScreen?.();
    this.store.update((s) => ({ ...s, epoch: s.epoch + 1, history: [], live: { streaming: '', tools: [], hooks: [] }, hint: undefined }));
  }

  /** `/compact [instructions]`, interruptible with Esc. */
  async compact(instructions: string): Promise<void> {
    const ac = new AbortController();
    this.run = ac;
    this.store.update((s) => ({ ...s, live: { ...s.live, busy: { since: this.now(), tokens: 0 } } }));
    try {
      const c = await this.session.compact('manual', instructions || undefined, ac.signal);
      if (c.ok) this.notice('success', `Compacted ${c.before} messages into a summary.`);
      else this.notice('error', `Compaction failed: ${c.error}`);
    } finally {
      this.run = undefined;
      this.store.update((s) => ({ ...endRun(s), costUsd: this.session.costUsd }));
    }
  }

  /** `/exit`, Ctrl-D, Ctrl-C twice: SessionEnd `prompt_input_exit`, then the app leaves. */
  async exit(): Promise<void> {
    if (this.exited) return;
    this.exited = true;
    for (const q of [...this.questions]) q.kind === 'permission' ? q.answer({ kind: 'interrupt' }) : q.answer(undefined);
    await this.close('prompt_input_exit');
    this.onExit?.();
  }
}
