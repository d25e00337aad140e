import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { parseArgs, type CliOptions } from './args.ts';
import { ConfigError } from '../config/errors.ts';
import { loadSettings } from '../config/load.ts';
import { ModelConfigError, resolveModel } from '../providers/resolve.ts';
import { CLAUDE_MODE_NAMES, parseMode, type PermissionMode } from '../permissions/modes.ts';
import { Session } from '../agent/session.ts';
import { headlessPrinter, printInit, printResult, refuseAsk, type HeadlessIO } from '../headless/run.ts';
import { listSessions, projectDir } from '../session/transcript.ts';
import { simpleRules } from '../permissions/simple-rules.ts';

const VERSION = pkg.version;

class Exit extends Error { constructor(readonly code: number, message?: string) { super(message ?? ''); } }

const io: HeadlessIO = {
  out: (s) => { process.stdout.write(s); },
  err: (s) => { process.stderr.write(s); },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').slice(0, 10 * 1024 * 1024);
}

function chooseMode(flag: string | undefined, fromSettings: string | undefined): PermissionMode {
  const raw = flag ?? fromSettings ?? 'normal';
  const mode = parseMode(raw);
  if (!mode) throw new Exit(2, `--permission-mode "${raw}" is not a mode. Use one of: plan, normal, auto-accept, bypass.`);
  return mode;
}

function findResume(opts: CliOptions, home: string, cwd: string): { sessionId: string; path: string } | undefined {
  if (!opts.continue && opts.resume === undefined) return undefined;
  const sessions = listSessions(projectDir(home, cwd));
  if (opts.continue) {
    if (!sessions[0]) throw new Exit(1, `No earlier session to continue in ${cwd}.`);
    return sessions[0];
  }
  if (opts.resume === true) {
    const list = sessions.slice(0, 10).map((s) => `  ${s.sessionId}  ${new Date(s.mtimeMs).toISOString().slice(0, 16)}  ${s.firstPrompt}`).join('\n');
    throw new Exit(2, `--resume needs a session id in headless runs. Recent sessions:\n${list || '  (none)'}`);
  }
  const found = sessions.find((s) => s.sessionId === opts.resume || s.sessionId.startsWith(String(opts.resume)));
  if (!found) throw new Exit(1, `No session "${opts.resume}" in this project. Run "assistant -r" to list them.`);
  return found;
}

async function run(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv, VERSION);
  if (parsed.kind === 'exit') return parsed.code;
  const { opts } = parsed;
  let prompt = parsed.prompt;
  if (!opts.print) {
    throw new Exit(2, 'The interactive terminal UI is not available yet. Run a prompt headless: assistant -p "your prompt"');
  }
  if (prompt === undefined && !process.stdin.isTTY) prompt = (await readStdin()).trim();
  if (!prompt) throw new Exit(2, 'No prompt given. Usage: assistant -p "your prompt"   (or pipe the prompt on standard input)');

  const cwd = process.cwd();
  const home = homedir();
  const settings = loadSettings(home, cwd, opts.settings, cwd);
  for (const w of settings.warnings) io.err(`warning: ${w}\n`);
  const mode = chooseMode(opts.permissionMode, settings.merged.permissions?.defaultMode);
  const additionalDirs = [...opts.addDir, ...(settings.merged.permissions?.additionalDirectories ?? [])].map((d) => resolve(cwd, d));
  for (const d of opts.addDir.map((x) => resolve(cwd, x))) {
    if (!existsSync(d) || !statSync(d).isDirectory()) throw new Exit(2, `--add-dir ${d}: no such directory.`);
  }
  const resume = findResume(opts, home, cwd);
  const env = { ...(settings.merged.env ?? {}) };
  const model = await resolveModel({ spec: opts.model ?? settings.merged.model, env: { ...process.env, ...env }, cwd });

  const controller = new AbortController();
  let session: Session | undefined;
  const printer = headlessPrinter(opts.outputFormat, io, !!opts.verbose, () => session?.id ?? '');
  const rules = simpleRules(
    [...(settings.merged.permissions?.allow ?? []), ...opts.allowedTools],
    [...(settings.merged.permissions?.deny ?? []), ...opts.disallowedTools],
  );
  for (const w of rules.warnings) io.err(`warning: ${w}\n`);
  session = new Session({
    cwd, home, model, mode, additionalDirs, env, emit: printer.sink, ask: refuseAsk, version: VERSION,
    maxTurns: opts.maxTurns, resume, rules: rules.rules,
  });
  let interrupts = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    interrupts++;
    if (interrupts > 1) process.exit(sig === 'SIGTERM' ? 143 : 130);
    controller.abort(new Error(`interrupted (${sig})`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  printInit(opts.outputFormat, io, session, { cwd, model: model.label, mode: CLAUDE_MODE_NAMES[mode] });
  const started = performance.now();
  const outcome = await session.prompt(prompt, controller.signal);
  return printResult(opts.outputFormat, io, session, outcome, performance.now() - started, printer.apiMs());
}

/** The only place that decides exit codes and calls process.exit. */
async function main(): Promise<void> {
  let code: number;
  try {
    code = await run(process.argv.slice(2));
  } catch (e) {
    if (e instanceof Exit) { if (e.message) io.err(`${e.message}\n`); code = e.code; }
    else if (e instanceof ConfigError || e instanceof ModelConfigError) { io.err(`error: ${e.message}\n`); code = 2; }
    else { io.err(`assistant crashed: ${(e as Error)?.stack ?? String(e)}\n`); code = 1; }
  }
  process.exitCode = code;
  // Let stdout drain, then leave even if a stray handle (a hung socket) is still open.
  setImmediate(() => process.exit(code));
}

void main();
