import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isReadOnlyCommand } from '../permissions/bash-commands.ts';
import { asksForVerification, namedVerifyCommand } from '../recipes/verification.ts';
import { splitCommand } from '../permissions/shell/parser.ts';
import { runGroup } from '../process/run.ts';
import { knownKinds } from '../tools/kinds.ts';
import type { AgentEvent, EventSink } from './events.ts';

/** Fix attempts after a failed verification (the source's constant): then an honest failure. */
const MAX_FIX_ATTEMPTS = 2;
/** A verification command that runs longer than this is stopped and counts as failed. */
const VERIFY_TIMEOUT_MS = 10 * 60_000;
/** Tools whose success means files changed (ToolDef access `edit`); Bash counts unless its command is read-only. */
const changesFiles = (tool: string) => knownKinds.get(tool)?.access === 'edit';
/** The permission check's own read-only test; the parser is ready, since the call was decided first. */
function readOnly(command: string): boolean {
  try {
    return isReadOnlyCommand(splitCommand(command));
  } catch {
    return false;
  }
}
/** plan.md is the plan, not the code: writing it is not a change to verify (Plan Mode writes only it). */
const isPlanFile = (path: unknown, cwd: string) => typeof path === 'string' && resolve(cwd, path) === resolve(cwd, 'plan.md');

export interface VerifyRun {
  passed: boolean;
  exitCode: number | null;
  output: string;
  durationMs: number;
  timedOut: boolean;
}

/** Runs the command with bash in `cwd`, stdout and stderr together (head and tail kept). Never throws. */
export async function runVerifyCommand(command: string, cwd: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<VerifyRun> {
  const r = await runGroup({
    command,
    cwd,
    env,
    timeoutMs: VERIFY_TIMEOUT_MS,
    signal,
    maxBytes: { head: 4_000, tail: 12_000 },
    mergeStderr: true,
  });
  const timedOut = r.stopped === 'timeout';
  const output =
    `${r.stdout.render(16_000)}${r.spawnError ? `\n${r.spawnError.message}` : ''}${timedOut ? `\n[stopped after ${VERIFY_TIMEOUT_MS / 60_000} minutes]` : ''}`.trim();
  return { passed: r.code === 0 && !timedOut, exitCode: r.code, output, durationMs: Math.round(r.durationMs), timedOut };
}

/**
 * The command a prompt that asks for verification means: the one it names, else the project's
 * obvious one (`npm test` with a real test script, `make test`, `cargo test`, `go test ./...`,
 * `pytest` with its configuration), else none: the model runs the tests itself, as asked.
 */
export function detectTestCommand(cwd: string, prompt = ''): string | undefined {
  const named = namedVerifyCommand(prompt);
  if (named) return named;
  const read = (f: string) => {
    try {
      return readFileSync(join(cwd, f), 'utf8');
    } catch {
      return undefined;
    }
  };
  try {
    const test = (JSON.parse(read('package.json') ?? 'null') as { scripts?: Record<string, string> } | null)?.scripts?.test;
    if (test && !/no test specified/.test(test)) return 'npm test';
  } catch {
    /* not JSON */
  }
  if (/^test:/m.test(read('Makefile') ?? '')) return 'make test';
  if (read('Cargo.toml') !== undefined) return 'cargo test';
  if (read('go.mod') !== undefined) return 'go test ./...';
  if (read('pytest.ini') !== undefined || /\[tool\.pytest/.test(read('pyproject.toml') ?? '')) return 'pytest';
  return undefined;
}

/** Whether a prompt asks for verification (SPEC §8), e.g. "fix it, then run the tests" (the one detector `prompt lint` uses too). */
export { asksForVerification };

function lastLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.length <= n ? text : `… (${lines.length - n} lines above)\n${lines.slice(-n).join('\n')}`;
}

/**
 * The verification loop of one prompt (SPEC §8). Watches the run's events for changed files; at each
 * point where the model would stop, runs the command once files have changed (and after every fix
 * attempt). A failure goes back to the model, at most MAX_FIX_ATTEMPTS times; after that `failure`
 * says what still fails and the run stops.
 */
export class Verifier {
  private changed = false;
  /** A failure was sent back to the model: its next stop is verified whatever it changed. */
  private pendingFix = false;
  /** Fix attempts asked for so far. */
  attempts = 0;
  /** Set when the last run failed and no attempt is left. */
  failure?: string;
  /** What the last run said when it failed (cleared when one passes). */
  lastFailure?: string;

  /** `skip`: no verification now (Plan Mode, where nothing but plan.md can change). */
  constructor(
    readonly command: string,
    private readonly o: { cwd: string; env: NodeJS.ProcessEnv; emit: EventSink; skip?: () => boolean },
  ) {}

  observe(ev: AgentEvent): void {
    if (ev.type !== 'tool-end' || ev.result.isError) return;
    const input = (ev.input ?? {}) as Record<string, unknown>;
    if (changesFiles(ev.name) && !isPlanFile(input.file_path, this.o.cwd)) this.changed = true;
    if (ev.name === 'Bash' && !readOnly(String(input.command ?? ''))) this.changed = true;
  }

  /** Called where the model would stop: feedback for the model, or undefined to let it stop. */
  async onStop(signal: AbortSignal): Promise<string | undefined> {
    if ((!this.changed && !this.pendingFix) || signal.aborted || this.o.skip?.()) return undefined;
    this.changed = false;
    this.pendingFix = false;
    const attempt = this.attempts;
    this.o.emit({ type: 'verify-start', command: this.command, attempt });
    const r = await runVerifyCommand(this.command, this.o.cwd, this.o.env, signal);
    this.o.emit({
      type: 'verify-end',
      command: this.command,
      attempt,
      passed: r.passed,
      exitCode: r.exitCode,
      output: r.output,
      durationMs: r.durationMs,
    });
    if (signal.aborted) return undefined;
    const how = r.timedOut
      ? `ran out of time (${VERIFY_TIMEOUT_MS / 60_000} minutes)`
      : r.exitCode === null
        ? 'could not run'
        : `exited with code ${r.exitCode}`;
    if (r.passed) {
      this.failure = undefined;
      this.lastFailure = undefined;
      return undefined;
    }
    this.lastFailure = `\`${this.command}\` ${how}. What still fails:\n${lastLines(r.output, 30)}`;
    if (this.attempts >= MAX_FIX_ATTEMPTS) {
      this.failure = `Verification failed after ${MAX_FIX_ATTEMPTS} fix attempts: ${this.lastFailure}`;
      return undefined;
    }
    this.attempts++;
    this.pendingFix = true;
    return [
      `Verification failed: \`${this.command}\` ${how} after your changes.`,
      '<verification-output>',
      lastLines(r.output, 120),
      '</verification-output>',
      `Find the cause and fix it (fix attempt ${this.attempts} of at most ${MAX_FIX_ATTEMPTS}). Do not weaken, skip or delete tests to make them pass. When you are done, answer briefly: the command will be run again.`,
    ].join('\n');
  }
}
