import { readMemory, refreshMemory } from '../agent/memory.ts';
import { RunMeter } from '../agent/run-meter.ts';
import type { Session } from '../agent/session.ts';
import { createSession, type Setup } from '../agent/setup.ts';
import { loadCommands } from '../commands/loader.ts';
import type { PermissionMode } from '../permissions/modes.ts';
import { nextMode } from './format.ts';
import { askPermission } from './questions.ts';
import { promptAsShown, redrawTranscript } from './replay.ts';
import { RunState } from './run-state.ts';
import { addItems, type NewItem, type UiState } from './state.ts';

export interface ControllerOptions {
  setup: Setup;
  version: string;
  verbose?: boolean;
  /** Idle input before Notification hooks get `idle_prompt` (SPEC §4: 60 s). 0 turns it off. */
  idleMs?: number;
  now?: () => number;
}

/** Command files that cannot be read as written (SPEC §6: reported, not dropped silently). */
function commandProblems(setup: Setup): string[] {
  const { problems } = loadCommands({ projectRoot: setup.cwd, home: setup.home });
  if (problems.length === 0) return [];
  const rel = (p: string) => p.replace(`${setup.cwd}/`, '').replace(`${setup.home}/`, '~/');
  return [`Some command files have problems (/help lists them again):\n${problems.map((p) => `  ${rel(p)}`).join('\n')}`];
}

/**
 * Runs one interactive session for the terminal UI: opens the Session (its events become UI state,
 * its questions dialogs), and carries out what the user asks of the session's lifecycle (mode
 * changes, /clear, /resume, /rewind, exit); the runs themselves (prompts, /compact, interrupts)
 * are run-state.ts's. It decides nothing about permissions: the Session decides, the user answers.
 * Works without React (tests drive it directly).
 */
export class Controller extends RunState {
  session!: Session;
  /** Set by the UI: leave the app (after SessionEnd ran). */
  onExit?: () => void;
  /** Set by the UI: hand the terminal to a program ($EDITOR) and take it back. */
  suspend?: (fn: () => Promise<void> | void) => Promise<void>;
  /** Stops reporting settings changes as they happen (the session is closing). */
  private stopFollowing?: () => void;
  readonly startedInBypass: boolean;

  constructor(readonly opts: ControllerOptions) {
    super(opts.setup, opts);
    this.currentSetup = opts.setup;
    this.startedInBypass = opts.setup.mode === 'bypass';
  }

  /** What the session is made from; `updateSetup` replaces it (the mode kept across /clear, another session to resume). */
  get setup(): Setup {
    return this.currentSetup;
  }
  updateSetup(change: Partial<Setup>): void {
    this.currentSetup = { ...this.currentSetup, ...change };
  }
  private currentSetup: Setup;

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
      emit: (ev) => this.onEvent(ev),
      ask: (req, signal) => askPermission(this.askDeps, req, signal),
      interactive: true,
      version: this.opts.version,
    });
    this.session = session;
    const s = this.session;
    this.stopFollowing?.();
    this.stopFollowing = s.followSettings();
    const redraw = this.setup.resume ? redrawTranscript(s.conversation.transcript.path) : undefined;
    this.meter = new RunMeter(redraw ? { costUsd: redraw.costUsd, usage: redraw.usage } : undefined);
    this.store.update((st) => {
      let next: UiState = {
        ...st,
        model: s.model.label,
        mode: s.gate.mode,
        context: { used: redraw?.contextUsed ?? 0, window: s.model.contextWindow },
        costUsd: this.meter.earlier.costUsd,
        todos: s.todos,
      };
      next = addItems(next, {
        kind: 'banner',
        version: this.opts.version,
        model: s.model.label,
        cwd: this.setup.cwd,
        ...(this.setup.resume ? { resumed: s.id } : {}),
      });
      if (redraw) next = addItems(next, ...redraw.items);
      return addItems(
        next,
        ...[...warnings, ...commandProblems(this.setup)].map((text): NewItem => ({ kind: 'notice', tone: 'warning', text })),
      );
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
    return {
      session: this.session,
      cwd: this.setup.cwd,
      questions: this.questions,
      notice: (tone: 'error' | 'success', text: string) => this.notice(tone, text),
      interrupt: () => this.run?.abort(new Error('interrupted by the user')),
    };
  }

  setMode(mode: PermissionMode): void {
    this.session.gate.setMode(mode);
    this.store.update((s) => ({ ...s, mode }));
  }

  cycleMode(): void {
    this.setMode(nextMode(this.session.gate.mode, this.startedInBypass));
  }

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
    const mode = this.session.gate.mode; // the mode stays as it was (Claude Code keeps it too)
    await this.close('clear');
    this.updateSetup({ mode, resume: undefined, memory: readMemory(this.setup) });
    this.restartScreen();
    await this.open('clear');
  }

  /** `/resume`, `-r`: continue another session of this project. */
  async resume(target: { sessionId: string; path: string }): Promise<void> {
    const mode = this.session.gate.mode;
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
    const typed = promptAsShown(this.session.conversation.transcript.path, index); // a paste back as its mark, a command as typed
    this.session.conversation.rewind(index);
    this.restartScreen();
    const s = this.session;
    const redraw = redrawTranscript(s.conversation.transcript.path);
    this.add({ kind: 'banner', version: this.opts.version, model: s.model.label, cwd: this.setup.cwd }, ...redraw.items);
    this.store.update((st) => ({ ...st, context: { ...st.context, used: redraw.contextUsed } }));
    this.setInput(typed?.text ?? text, typed?.pastes);
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
    await Promise.race([
      this.runEnded,
      new Promise<void>((r) => {
        timer = setTimeout(r, graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (this.session) await this.session.end('other', AbortSignal.timeout(5_000)).catch(() => undefined);
    this.onExit?.();
  }
}
