import { randomUUID } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { join } from 'node:path';
import { bangCommandHook } from '../agent/hook-seams.ts';
import { HookEngine } from '../hooks/engine.ts';
import { collectHooks } from '../hooks/config.ts';
import { projectDir } from '../session/transcript.ts';
import { homedir } from 'node:os';
import type { CliOptions } from './args.ts';
import { Exit } from './exit.ts';
import { CLAUDE_MODE_NAMES, parseMode } from '../permissions/gate.ts';
import type { Session } from '../agent/session.ts';
import type { AskFn } from '../agent/events.ts';
import { createSession, loadSetup, resolveOptions, setupGuards, type Setup } from '../agent/setup.ts';
import { headlessPrinter, printInit, printResult, refusalSummary, refuseAsk, type HeadlessIO } from '../headless/run.ts';
import { readEntries } from '../session/transcript.ts';
import { resultJson } from '../headless/format.ts';
import { modelFactsText } from '../providers/facts-text.ts';
import { resolveModel } from '../providers/resolve.ts';
import { emptyUsage } from '../providers/types.ts';
import { expandSlash } from './slash.ts';
import { parsePromptCommand, runPromptCommand } from '../mcp/prompts.ts';
import { holdYoungGeneration } from './gc-tuning.ts';
import { rulesOf } from '../agent/settings-reload.ts';

const io: HeadlessIO = {
  out: (s) => { process.stdout.write(s); },
  err: (s) => { process.stderr.write(s); },
  errIsTTY: Boolean(process.stderr.isTTY),
};

/** The rules of the session about to open, for a custom command's `!` commands (run before it opens). */
function headlessRules(setup: Parameters<typeof createSession>[0]) {
  const built = rulesOf(setup.settings.sources, setup.opts);
  if (built.errors.length) throw new Exit(2, `Bad permission rules:\n  ${built.errors.join('\n  ')}`);
  return built.rules;
}

const STDIN_LIMIT = 10 * 1024 * 1024;

/**
 * Reads piped standard input (at most 10 MB). With `firstByteMs`, gives up when nothing arrives
 * that soon: a prompt was given on the command line and stdin is merely an open, silent pipe
 * (CI runners, editors), which must not hang the run.
 */
function readStdin(firstByteMs?: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => { clearTimeout(timer); process.stdin.pause(); process.stdin.removeAllListeners('data'); resolve(Buffer.concat(chunks).toString('utf8').slice(0, STDIN_LIMIT)); };
    const timer = firstByteMs === undefined ? undefined : setTimeout(() => { if (size === 0) done(); }, firstByteMs);
    process.stdin.on('data', (c: Buffer) => { chunks.push(c); size += c.length; if (size >= STDIN_LIMIT) done(); });
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

/** `/cost`: the totals of the continued session, from its transcript. */
function sessionCost(path: string | undefined): string {
  if (!path) return 'No cost yet: this is a new conversation (continue one with -c to see its cost).';
  let cost = 0; let input = 0; let output = 0; let turns = 0;
  for (const e of readEntries(path)) {
    if (e.type !== 'result') continue;
    cost += e.costUsd; input += e.usage.inputTokens; output += e.usage.outputTokens; turns += e.turns;
  }
  return `Total cost: $${cost.toFixed(4)}\nTokens: ${input} in, ${output} out\nModel turns: ${turns}`;
}

/** `/status`: the model and its context window with where that figure comes from (SPEC §11.14). */
async function modelStatus(setup: Setup): Promise<string> {
  try {
    const m = await resolveModel(resolveOptions(setup));
    return `model: ${m.label}\ncontext window: ${m.contextWindow} tokens (from ${m.contextSource ?? 'the provider'})\n${modelFactsText(m)}`;
  } catch (e) {
    return `model: none usable (${(e as Error).message.split('\n')[0]})\n`;
  }
}

/**
 * A headless run (`-p`). Returns the exit code; throws Exit or a config error for exit 2.
 * `ask`: who answers permission questions; by default nobody (refused, SPEC §5). `recipes run` in
 * a terminal passes a y/N question on the terminal.
 */
export async function runHeadless(opts: CliOptions, firstPrompt: string | undefined, VERSION: string, ask: AskFn = refuseAsk): Promise<number> {
  const started = performance.now();
  try {
    return await run(opts, firstPrompt, VERSION, ask);
  } catch (e) {
    // A JSON reader gets a result too, not an empty stdout: bad settings, a missing @path, no model…
    const code = (e as { exitCode?: unknown })?.exitCode;
    if (typeof code === 'number' && opts.outputFormat !== 'text') {
      const outcome = { status: 'error' as const, text: '', turns: 0, usage: emptyUsage(), error: (e as Error).message };
      io.out(`${JSON.stringify(resultJson({ outcome, sessionId: '', durationMs: performance.now() - started, durationApiMs: 0, costUsd: 0, denials: [] }))}\n`);
    }
    throw e;
  }
}

async function run(opts: CliOptions, firstPrompt: string | undefined, VERSION: string, ask: AskFn): Promise<number> {
  let prompt = firstPrompt;
  if (!process.stdin.isTTY && !opts.ignoreStdin) {
    // `cat log | assistant -p "explain"`: piped text comes before the prompt, as with claude -p.
    // A pipe or file is read to its end (`npm test 2>&1 | assistant -p "why"`); anything else
    // (a socket left open by a parent) is given a moment, so a silent stdin cannot hang the run.
    const kind = fstatSync(0);
    const finite = kind.isFIFO() || kind.isFile();
    const piped = (await readStdin(prompt === undefined || finite ? undefined : 200)).trim();
    if (piped) prompt = prompt === undefined ? piped : `${piped}\n\n${prompt}`;
  }
  if (!prompt) throw new Exit(2, 'No prompt given. Usage: assistant -p "your prompt"   (or pipe the prompt on standard input)');

  const cwd = process.cwd();
  const home = homedir();
  let setup = loadSetup(opts, cwd, home);
  const { memory, mode, resume } = setup;
  const controller = new AbortController();
  // Chosen now: a command's `!` commands meet the PreToolUse hooks of the session they open.
  const sessionId = resume?.sessionId ?? randomUUID();
  let bangHooks: HookEngine | undefined;
  // `/mcp__SERVER__PROMPT args`: a server's prompt, got once the session's servers are up (SPEC §12).
  const mcpPrompt = parsePromptCommand(prompt);
  const slash: Awaited<ReturnType<typeof expandSlash>> = mcpPrompt ? { kind: 'prompt', prompt, allowedTools: [], warnings: [] } : await expandSlash(prompt, {
    cwd, home, signal: controller.signal,
    hook: (command, signal) => {
      bangHooks ??= new HookEngine(collectHooks(setup.settings.sources).hooks, {
        projectDir: cwd, sessionId, transcriptPath: join(projectDir(home, cwd), `${sessionId}.jsonl`), env: setup.env,
        permissionMode: () => CLAUDE_MODE_NAMES[setup.mode], emit: (r) => { if (r.type === 'warning') setup = { ...setup, warnings: [...setup.warnings, r.message] }; },
      });
      return bangCommandHook(bangHooks, command, signal);
    },
    permissions: () => ({ mode: setup.mode, additionalDirs: setup.additionalDirs, rules: headlessRules(setup), guarded: setupGuards(setup) }),
    cost: () => sessionCost(resume?.path),
    memory: () => (memory.files.length ? `${memory.files.map((f) => `${f.path} (${f.scope})`).join('\n')}\nEdit these files to change the instructions.` : 'No ASSISTANT.md yet: run "assistant -p /init" to write one, or create ASSISTANT.md yourself.'),
    status: async () => `cwd: ${cwd}\n${await modelStatus(setup)}mode: ${mode}\nsettings: ${setup.settings.sources.map((s) => s.file).join(', ') || 'none'}\nmemory: ${memory.files.map((f) => f.path).join(', ') || 'none'}\n`,
  });
  if (slash.kind === 'print') { io.out(slash.text.endsWith('\n') ? slash.text : `${slash.text}\n`); return 0; }
  if (slash.kind === 'compact' && !resume) throw new Exit(2, '/compact needs a conversation: continue one with -c or -r ID.');
  if (slash.kind === 'prompt') { prompt = slash.prompt; setup = { ...setup, warnings: [...setup.warnings, ...slash.warnings] }; }
  const command = slash.kind === 'prompt' ? slash : undefined;
  // `/recipe N …` runs in the recipe's mode unless --permission-mode says otherwise (SPEC §7).
  const recipeMode = command?.recipeMode ? parseMode(command.recipeMode) : undefined;
  if (recipeMode && !opts.permissionMode) setup = { ...setup, mode: recipeMode };

  let session: Session | undefined;
  const printer = headlessPrinter(opts.outputFormat, io, !!opts.verbose, () => session?.id ?? '',
    // Messages carry the model's own id, as the API returns it (Claude Code prints that); a replay keeps its label.
    () => (session && session.model.provider !== 'replay' ? session.model.model : session?.model.id), cwd);
  // Refused calls are summed up at the end, with what would allow them (nobody was there to ask).
  const refusals = refusalSummary(ask);
  let warnings: string[];
  ({ session, warnings } = await createSession(setup, {
    sessionId, emit: printer.sink, ask: ask === refuseAsk ? refusals.ask : ask, interactive: ask !== refuseAsk, version: VERSION, modelSpec: command?.model,
    // A command's allowed-tools are granted for its one turn (SPEC §6); a headless run is one turn.
    extraAllow: command?.source ? { rules: command.allowedTools, source: `${command.source} allowed-tools` } : undefined,
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
    const stop = new Promise<void>((r) => controller.signal.addEventListener('abort', () => r(), { once: true }));
    const out = io.out;
    const held: string[] = []; // init stays the first line: a failed server's warning follows it
    io.out = (s) => { held.push(s); };
    await Promise.race([session.mcp.whenSettled(), stop]);
    io.out = out;
    printInit(opts.outputFormat, io, session, { cwd, model: model.label, mode: CLAUDE_MODE_NAMES[setup.mode] });
    for (const s of held) out(s);
  } else printInit(opts.outputFormat, io, session, { cwd, model: model.label, mode: CLAUDE_MODE_NAMES[setup.mode] });
  for (const message of warnings) printer.sink({ type: 'warning', message });
  if (slash.kind === 'compact') {
    // The session's hooks fire as in any run (SessionStart resume, PreCompact, SessionEnd), and the
    // result is printed like any result, so `--output-format json` stays JSON.
    const started = performance.now();
    await session.start(controller.signal);
    const stop = session.hooks.stopReason; // a SessionStart hook said `continue: false`
    const asked = performance.now();
    const c = stop === undefined ? await session.compact('manual', slash.instructions || undefined, controller.signal) : undefined;
    const apiMs = c ? performance.now() - asked : 0; // the summary is one model request (PreCompact hooks included)
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await session.end('other', AbortSignal.timeout(60_000));
    const outcome = !c ? { status: 'stopped' as const, text: '', turns: 0, usage: emptyUsage(), error: stop }
      : c.ok ? { status: 'done' as const, text: `Compacted ${c.before} messages into a summary.`, turns: 1, usage: c.usage }
        : { status: 'error' as const, text: '', turns: 1, usage: emptyUsage(), error: `compaction failed: ${c.error}` };
    return printResult(opts.outputFormat, io, session, outcome, performance.now() - started, apiMs);
  }
  if (mcpPrompt) {
    const got = session.mcp ? await runPromptCommand(mcpPrompt, session.mcp, controller.signal) : { ok: false as const, error: `/mcp__${mcpPrompt.server}__${mcpPrompt.prompt}: no MCP server is configured` };
    if (!got.ok) { await session.mcp?.close(); throw new Exit(2, `Nothing was sent: ${got.error}`); }
    prompt = got.prompt;
  }
  const expansion = await session.expandReferences(prompt, controller.signal);
  if (!expansion.ok) throw new Exit(2, `Nothing was sent:\n  ${expansion.errors.join('\n  ')}`);
  const started = performance.now();
  await session.start(controller.signal);
  const outcome = await session.prompt(prompt, controller.signal, expansion);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  // SessionEnd runs even after an interrupt, with a fresh signal: it is the user's clean-up.
  await session.end('other', AbortSignal.timeout(60_000));
  if (ask === refuseAsk) refusals.print(io, session.denials);
  const code = printResult(opts.outputFormat, io, session, outcome, performance.now() - started, printer.apiMs());
  return code === 130 && abortedBy === 'SIGTERM' ? 143 : code;
}

