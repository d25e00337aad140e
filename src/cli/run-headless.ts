import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { CliOptions } from './args.ts';
import { Exit } from './exit.ts';
import type { Session } from '../agent/session.ts';
import type { AskFn } from '../agent/events.ts';
import { createSession, loadSetup } from '../agent/setup.ts';
import { setupDispatchContext } from '../agent/dispatch-context.ts';
import { dispatchHeadless } from '../agent/headless-builtins.ts';
import { mcpSettled } from '../agent/mcp-ready.ts';
import { CLAUDE_MODE_NAMES } from '../agent/modes.ts';
import { commandModel, failedOutcome, runCompact, runPrompt } from '../agent/run-prompt.ts';
import { headlessPrinter, printInit, printResult, refusalSummary, refuseAsk, type HeadlessIO } from '../headless/run.ts';
import { resultJson } from '../headless/format.ts';
import { holdYoungGeneration } from './gc-tuning.ts';
import { promptWithStdin } from './stdin.ts';

const io: HeadlessIO = {
  out: (s) => {
    process.stdout.write(s);
  },
  err: (s) => {
    process.stderr.write(s);
  },
  errIsTTY: Boolean(process.stderr.isTTY),
};

/**
 * A headless run (`-p`). Returns the exit code; throws Exit or a config error for exit 2.
 * `ask`: who answers permission questions; by default nobody (refused, SPEC §5). `recipes run` in
 * a terminal passes a y/N question on the terminal.
 */
export async function runHeadless(
  opts: CliOptions,
  firstPrompt: string | undefined,
  VERSION: string,
  ask: AskFn = refuseAsk,
): Promise<number> {
  const started = performance.now();
  try {
    return await run(opts, firstPrompt, VERSION, ask);
  } catch (e) {
    // A JSON reader gets a result too, not an empty stdout: bad settings, a missing @path, no model…
    const code = (e as { exitCode?: unknown })?.exitCode;
    if (typeof code === 'number' && opts.outputFormat !== 'text') {
      const outcome = failedOutcome((e as Error).message);
      io.out(
        `${JSON.stringify(resultJson({ outcome, sessionId: '', durationMs: performance.now() - started, durationApiMs: 0, costUsd: 0, denials: [] }))}\n`,
      );
    }
    throw e;
  }
}

async function run(opts: CliOptions, firstPrompt: string | undefined, VERSION: string, ask: AskFn): Promise<number> {
  const prompt = await promptWithStdin(firstPrompt, opts.ignoreStdin);

  const cwd = process.cwd();
  let setup = loadSetup(opts, cwd, homedir());
  const { resume } = setup;
  const controller = new AbortController();
  // Chosen now: a command's `!` commands meet the PreToolUse hooks of the session they open.
  const sessionId = resume?.sessionId ?? randomUUID();
  const hookWarnings: string[] = [];
  const d = await dispatchHeadless(
    prompt,
    setupDispatchContext(setup, sessionId, controller.signal, (m) => hookWarnings.push(m)),
    setup,
  );
  if (d.kind === 'error') throw new Exit(2, d.message);
  if (d.kind === 'print') {
    io.out(d.text.endsWith('\n') ? d.text : `${d.text}\n`);
    return 0;
  }
  if (d.kind === 'compact' && !resume) throw new Exit(2, '/compact needs a conversation: continue one with -c or -r ID.');
  const command = d.kind === 'prompt' ? d : undefined;
  // A command's `model:` that cannot be used stops the run before anything is sent, naming the command.
  if (command?.model) {
    const m = await commandModel(setup, command.model);
    if ('error' in m) throw new Exit(2, `${command.of}: ${m.error} Nothing was sent.`);
  }
  setup = { ...setup, warnings: [...setup.warnings, ...hookWarnings, ...(command?.warnings ?? [])] };
  // `/recipe N …` runs in the recipe's mode unless --permission-mode says otherwise (SPEC §7).
  if (command?.mode && !opts.permissionMode) setup = { ...setup, mode: command.mode };

  let session: Session | undefined;
  const printer = headlessPrinter(
    opts.outputFormat,
    io,
    !!opts.verbose,
    () => session?.id ?? '',
    // Messages carry the model's own id, as the API returns it (Claude Code prints that); a replay keeps its label.
    () => (session && session.model.provider !== 'replay' ? session.model.model : session?.model.id),
    cwd,
  );
  // Refused calls are summed up at the end, with what would allow them (nobody was there to ask).
  const refusals = refusalSummary(ask);
  let warnings: string[];
  ({ session, warnings } = await createSession(setup, {
    sessionId,
    emit: printer.sink,
    ask: ask === refuseAsk ? refusals.ask : ask,
    interactive: ask !== refuseAsk,
    version: VERSION,
    modelSpec: command?.model,
    // A command's allowed-tools are granted for its one turn (SPEC §6); a headless run is one turn.
    extraAllow: command?.grant,
  }));
  holdYoungGeneration();
  const model = session.model;
  let interrupts = 0;
  let abortedBy: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    interrupts++;
    if (interrupts > 1) process.exit(sig === 'SIGTERM' ? 143 : 130);
    abortedBy = sig;
    controller.abort(new Error(`interrupted (${sig})`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // As in Claude Code, system/init reports the MCP servers once they connected (or failed), with
  // their tools; the first request waits for them anyway (MCP_TIMEOUT), so this costs nothing.
  if (opts.outputFormat === 'stream-json' && session.mcp) {
    const out = io.out;
    const held: string[] = []; // init stays the first line: a failed server's warning follows it
    io.out = (s) => {
      held.push(s);
    };
    await mcpSettled(session.mcp, controller.signal);
    io.out = out;
    printInit(opts.outputFormat, io, session, { cwd, model: model.label, mode: CLAUDE_MODE_NAMES[setup.mode] });
    for (const s of held) out(s);
  } else printInit(opts.outputFormat, io, session, { cwd, model: model.label, mode: CLAUDE_MODE_NAMES[setup.mode] });
  for (const message of warnings) printer.sink({ type: 'warning', message });
  let started = performance.now();
  if (d.kind === 'compact') {
    // The session's hooks fire as in any run (SessionStart resume, PreCompact, SessionEnd), and the
    // result is printed like any result, so `--output-format json` stays JSON.
    await session.start(controller.signal);
    const c = await runCompact(session, d.instructions, controller.signal);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await session.end('other', AbortSignal.timeout(60_000));
    return printResult(opts.outputFormat, io, session, c.outcome, performance.now() - started, c.apiMs);
  }
  // The command's grant and model were given to the session as it opened (one run, one turn).
  const run = await runPrompt(session, { prompt: d.prompt, mcp: d.mcp }, controller.signal, async () => {
    started = performance.now();
    await session!.start(controller.signal);
  });
  if (!run.sent && run.cause === 'mcp') {
    await session.mcp?.close();
    throw new Exit(2, `Nothing was sent: ${run.errors.join('; ')}`);
  }
  if (!run.sent) throw new Exit(2, `Nothing was sent:\n  ${run.errors.join('\n  ')}`);
  const { outcome } = run;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  // SessionEnd runs even after an interrupt, with a fresh signal: it is the user's clean-up.
  await session.end('other', AbortSignal.timeout(60_000));
  if (ask === refuseAsk) refusals.print(io, session.denials);
  const code = printResult(opts.outputFormat, io, session, outcome, performance.now() - started, printer.apiMs());
  return code === 130 && abortedBy === 'SIGTERM' ? 143 : code;
}
