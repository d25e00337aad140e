import { randomUUID } from 'node:crypto';
import type { AgentEvent, AskFn, RunOutcome } from '../agent/events.ts';
import type { Session } from '../agent/session.ts';
import { toolTitle } from '../agent/tool-title.ts';
import { initJson, resultJson, streamJsonEvent } from './format.ts';

/** A remedy is a flag to run again with, or (a protected file) a sentence of its own. */
const howTo = (remedy: string) => (remedy.startsWith('-') ? `run again with ${remedy}` : remedy);
type OutputFormat = 'text' | 'json' | 'stream-json';

export interface HeadlessIO {
  out(text: string): void;
  err(text: string): void;
  /** Standard error is a terminal: a retry's wait counts down on one line. */
  errIsTTY?: boolean;
}

/** A retry's wait on stderr: a line that counts down each second on a terminal, else one line. */
function retryCountdown(io: HeadlessIO, ev: { message: string; delayMs: number; attempt: number; maxRetries: number }): () => void {
  const line = (ms: number) =>
    `${ev.message}; retrying in ${io.errIsTTY ? `${Math.ceil(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`} (attempt ${ev.attempt} of ${ev.maxRetries})`;
  if (!io.errIsTTY || ev.delayMs < 1500) {
    io.err(`${line(ev.delayMs)}\n`);
    return () => {};
  }
  const until = Date.now() + ev.delayMs;
  io.err(line(ev.delayMs));
  const timer = setInterval(() => io.err(`\r\x1b[K${line(Math.max(0, until - Date.now()))}`), 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    io.err('\n');
  };
}

const tail = (text: string, n: number) => text.split('\n').slice(-n).join('\n');
const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

/** Headless runs cannot ask: what would ask is refused, naming what would allow it (SPEC §5). */
export const refuseAsk: AskFn = async (req) => ({
  allow: false,
  message: `Permission to use ${req.tool} was not granted: ${req.reason}. This is a headless run, which cannot ask for approval.${req.remedy ? ` To allow it, ${howTo(req.remedy)}.` : ''}`,
});

/** A remedy as a program using query() applies it: its options, not the command line's flags. */
export function sdkRemedy(remedy: string): string {
  return remedy
    .replace(/--allowed-tools "([^"]+)"/g, (_, t: string) => `add ${JSON.stringify(t)} to the allowedTools option`)
    .replace(/--add-dir (\S+)/g, (_, d: string) => `add ${JSON.stringify(d)} to the addDirs option`)
    .replace(
      /--permission-mode ([\w-]+)(?: or ([\w-]+))?/g,
      (_, m: string, n?: string) => `permissionMode: '${m}'${n ? ` or '${n}'` : ''}`,
    );
}

/** query() without canUseTool: the same refusal, worded for the program's options (SPEC §15). */
export const sdkRefuseAsk: AskFn = async (req) => ({
  allow: false,
  message: `Permission to use ${req.tool} was not granted: ${req.reason}. No canUseTool callback was given, so nobody can approve it.${req.remedy ? ` To allow it, ${sdkRemedy(req.remedy)}.` : ''}`,
});

/**
 * Prints events as they happen for the chosen format. Returned function is the session's event sink.
 * Text output names each tool call on stderr in one line as it ends (`● Bash(npm test): exit 0, 12
 * lines of output`), so a run never looks like it did nothing; `--verbose` shows the input and the
 * result's first line, each result under its own call even when read-only calls ran together.
 */
export function headlessPrinter(
  format: OutputFormat,
  io: HeadlessIO,
  verbose: boolean,
  sessionId: () => string,
  model: () => string | undefined = () => undefined,
  cwd = process.cwd(),
) {
  let apiStart = 0;
  let apiMs = 0;
  // Warnings, waits, retries and verification go to stderr in every format (SPEC §11.3, §3, §8);
  // stream-json has them as events on stdout too.
  let endCountdown: (() => void) | undefined;
  /** The call whose header stderr shows last (verbose): a result under another call repeats its own. */
  let shown: string | undefined;
  const header = (id: string, name: string, input: unknown, note = '') => {
    if (shown !== id) io.err(`● ${name}(${JSON.stringify(input).slice(0, 200)})${note}\n`);
    shown = id;
  };
  const sink = (ev: AgentEvent) => {
    endCountdown?.();
    endCountdown = undefined;
    if (ev.type === 'request') apiStart = performance.now();
    if (ev.type === 'message' && ev.message.role === 'assistant') apiMs += performance.now() - apiStart;
    if (ev.type === 'warning') io.err(`warning: ${ev.message}\n`);
    if (ev.type === 'hook-running') io.err(`… waiting for ${ev.event} hook "${ev.command}"\n`);
    if (ev.type === 'retry') endCountdown = retryCountdown(io, ev);
    if (ev.type === 'verify-start') io.err(`verifying: ${ev.command}${ev.attempt ? ` (after fix attempt ${ev.attempt})` : ''}\n`);
    if (ev.type === 'verify-end') {
      io.err(
        ev.passed
          ? `verification passed: ${ev.command} (${(ev.durationMs / 1000).toFixed(1)} s)\n`
          : `verification failed: ${ev.command} exited with ${ev.exitCode ?? 'no code'} (${(ev.durationMs / 1000).toFixed(1)} s)\n${indent(tail(ev.output, 15))}\n`,
      );
    }
    if (format === 'stream-json') {
      const line = streamJsonEvent(ev, sessionId(), model());
      if (line) io.out(`${JSON.stringify({ ...line, uuid: line.uuid ?? randomUUID() })}\n`);
    } else if (verbose) {
      if (ev.type === 'subagent' && (ev.event.type === 'tool-end' || ev.event.type === 'tool-denied')) {
        const inner = ev.event;
        io.err(
          `  ⎿ ${ev.agent}: ${inner.name}(${JSON.stringify(inner.input).slice(0, 200)}) ${inner.type === 'tool-denied' ? `refused: ${inner.reason}` : `${inner.result.isError ? 'error: ' : ''}${(inner.result.display ?? inner.result.output).split('\n')[0].slice(0, 200)}`}\n`,
        );
      }
      if (ev.type === 'tool-start')
        header(ev.id, ev.name, ev.input, ev.sandboxed ? ` — sandboxed${ev.reason ? ', allowed without asking' : ''}` : '');
      if (ev.type === 'tool-end') {
        header(ev.id, ev.name, ev.input);
        io.err(`  ⎿ ${ev.result.isError ? 'error: ' : ''}${(ev.result.display ?? ev.result.output).split('\n')[0].slice(0, 200)}\n`);
      }
      if (ev.type === 'tool-denied') {
        header(ev.id, ev.name, ev.input);
        io.err(`  ⎿ refused: ${ev.reason}\n`);
      }
      if (ev.type === 'hook')
        io.err(
          `  ⎿ ${ev.event} hook "${ev.command}": exit ${ev.exitCode ?? '—'} (${ev.durationMs} ms)${ev.outcome === 'block' ? ' — blocked' : ''}\n`,
        );
    } else if (format === 'text') {
      if (ev.type === 'tool-end')
        io.err(
          `● ${toolTitle(ev.name, ev.input, cwd, 100)}${ev.result.isError ? ': failed' : ev.result.display ? `: ${ev.result.display.split('\n')[0].slice(0, 80)}` : ''}\n`,
        );
      if (ev.type === 'tool-denied') io.err(`● ${toolTitle(ev.name, ev.input, cwd, 100)}: refused\n`);
      // A subagent's calls, under the Task call that runs it.
      const inner = ev.type === 'subagent' ? ev.event : undefined;
      if (ev.type === 'subagent' && (inner?.type === 'tool-end' || inner?.type === 'tool-denied')) {
        io.err(
          `  ⎿ ${ev.agent}: ${toolTitle(inner.name, inner.input, cwd, 100)}${inner.type === 'tool-denied' ? ': refused' : inner.result.isError ? ': failed' : ''}\n`,
        );
      }
    }
  };
  return { sink, apiMs: () => apiMs };
}

/**
 * Headless refusals, summed up once at the end (stderr, every format): how many calls were refused
 * and the flags that would allow the ones a question would have allowed. `ask` wraps the asker to
 * learn those flags.
 */
export function refusalSummary(ask: AskFn) {
  const remedies = new Set<string>();
  let asked = 0;
  return {
    ask: (async (req, signal) => {
      const answer = await ask(req, signal);
      if (!answer.allow) {
        asked++;
        if (req.remedy) remedies.add(req.remedy);
      }
      return answer;
    }) as AskFn,
    print(io: HeadlessIO, denials: ReadonlyArray<{ tool_name: string }>) {
      const n = denials.length;
      if (n === 0) return;
      const tools = [...new Set(denials.map((d) => d.tool_name))].join(', ');
      const others = n - asked;
      const allow = remedies.size
        ? ` To allow ${others > 0 ? 'those a question would have decided' : n === 1 ? 'it' : 'them'}, ${[...remedies].map(howTo).join(', or ')}.`
        : '';
      const byRules = others > 0 && asked > 0 ? ` ${others} of them by a deny rule, Plan Mode or a hook.` : '';
      const refused = `${n} tool call${n === 1 ? ' was' : 's were'} refused (${tools})`;
      // Nothing was asked: the run being headless is not why (SPEC §5).
      if (asked === 0 && !allow) {
        io.err(`${refused} by a deny rule, Plan Mode or a hook.\n`);
        return;
      }
      io.err(`${refused}: a headless run cannot ask.${byRules}${allow}\n`);
    },
  };
}

export function printInit(format: OutputFormat, io: HeadlessIO, session: Session, info: { cwd: string; model: string; mode: string }) {
  if (format !== 'stream-json') return;
  io.out(`${JSON.stringify(initJson(session, info))}\n`);
}

/** Prints the final result; returns the exit code (SPEC §1, §11.2). */
export function printResult(
  format: OutputFormat,
  io: HeadlessIO,
  session: Session,
  outcome: RunOutcome,
  durationMs: number,
  apiMs: number,
): number {
  const code = outcome.status === 'done' || outcome.status === 'stopped' ? 0 : outcome.status === 'aborted' ? 130 : 1;
  if (outcome.status === 'stopped') io.err(`Stopped by a hook: ${outcome.error}\n`);
  if (outcome.status === 'blocked') io.err(`Prompt blocked by a UserPromptSubmit hook: ${outcome.error}\n`);
  if (format === 'text') {
    if (outcome.status === 'done' || (outcome.status === 'stopped' && outcome.text))
      io.out(outcome.text.endsWith('\n') ? outcome.text : `${outcome.text}\n`);
    else if (outcome.status === 'aborted') io.err('Interrupted.\n');
    else if (outcome.status === 'verify-failed') {
      // The answer, then the honest verdict (SPEC §8).
      if (outcome.text) io.out(outcome.text.endsWith('\n') ? outcome.text : `${outcome.text}\n`);
      io.err(`error: ${outcome.error}\n`);
    } else if (outcome.status === 'blocked' || outcome.status === 'stopped') {
      /* said above */
    } else io.err(`error: ${outcome.error ?? outcome.status}\n`);
    return code;
  }
  const json = resultJson({
    outcome,
    sessionId: session.id,
    durationMs,
    durationApiMs: apiMs,
    costUsd: session.costUsd,
    denials: session.denials,
  });
  io.out(`${JSON.stringify(json)}\n`);
  if (!['done', 'stopped', 'blocked'].includes(outcome.status) && outcome.error) io.err(`error: ${outcome.error}\n`);
  return code;
}
