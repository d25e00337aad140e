import { existsSync, fstatSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { CliOptions } from './args.ts';
import { Exit } from './exit.ts';
import { loadSettings, settingsFiles } from '../config/load.ts';
import { resolveModel } from '../providers/resolve.ts';
import { CLAUDE_MODE_NAMES, parseMode, type PermissionMode } from '../permissions/modes.ts';
import { Session } from '../agent/session.ts';
import { headlessPrinter, printInit, printResult, refuseAsk, type HeadlessIO } from '../headless/run.ts';
import { listSessions, projectDir, readEntries } from '../session/transcript.ts';
import { buildRules, type RuleKind } from '../permissions/rules.ts';
import { collectHooks, missingPrograms } from '../hooks/config.ts';
import { SettingsWatch } from '../config/watch.ts';
import { loadMemory, memorySection } from '../context/memory.ts';
import { expandSlash } from './slash.ts';

const io: HeadlessIO = {
  out: (s) => { process.stdout.write(s); },
  err: (s) => { process.stderr.write(s); },
};

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

/** A headless run (`-p`). Returns the exit code; throws Exit or a config error for exit 2. */
export async function runHeadless(opts: CliOptions, firstPrompt: string | undefined, VERSION: string): Promise<number> {
  let prompt = firstPrompt;
  if (!opts.print) {
    throw new Exit(2, 'The interactive terminal UI is not available yet. Run a prompt headless: assistant -p "your prompt"');
  }
  if (!process.stdin.isTTY) {
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
  const settings = loadSettings(home, cwd, opts.settings, cwd);
  const startupWarnings = [...settings.warnings];
  if (opts.verify || settings.merged.verify) {
    startupWarnings.push('verification (--verify / settings "verify") is not implemented yet: no verification command will run; run your tests yourself.');
  }
  const memory = loadMemory({ cwd, home });
  startupWarnings.push(...memory.notices, ...memory.warnings);
  const mode = chooseMode(opts.permissionMode, settings.merged.permissions?.defaultMode);
  const additionalDirs = [...opts.addDir, ...(settings.merged.permissions?.additionalDirectories ?? [])].map((d) => resolve(cwd, d));
  for (const d of opts.addDir.map((x) => resolve(cwd, x))) {
    if (!existsSync(d) || !statSync(d).isDirectory()) throw new Exit(2, `--add-dir ${d}: no such directory.`);
  }
  const resume = findResume(opts, home, cwd);
  const env = { ...(settings.merged.env ?? {}) };
  const controller = new AbortController();
  const slash = await expandSlash(prompt, {
    cwd, home, signal: controller.signal,
    cost: () => sessionCost(resume?.path),
    memory: () => (memory.files.length ? `${memory.files.map((f) => `${f.path} (${f.scope})`).join('\n')}\nEdit these files to change the instructions.` : 'No ASSISTANT.md yet: run "assistant -p /init" to write one, or create ASSISTANT.md yourself.'),
    status: () => `cwd: ${cwd}\nmode: ${mode}\nsettings: ${settings.sources.map((s) => s.file).join(', ') || 'none'}\nmemory: ${memory.files.map((f) => f.path).join(', ') || 'none'}\n`,
  });
  if (slash.kind === 'print') { io.out(slash.text.endsWith('\n') ? slash.text : `${slash.text}\n`); return 0; }
  if (slash.kind === 'compact' && !resume) throw new Exit(2, '/compact needs a conversation: continue one with -c or -r ID.');
  if (slash.kind === 'prompt') { prompt = slash.prompt; startupWarnings.push(...slash.warnings); }
  const command = slash.kind === 'prompt' ? slash : undefined;
  const model = await resolveModel({ spec: command?.model ?? opts.model ?? settings.merged.model, env: { ...process.env, ...env }, cwd });

  let session: Session | undefined;
  const printer = headlessPrinter(opts.outputFormat, io, !!opts.verbose, () => session?.id ?? '');
  const lists: Array<{ kind: RuleKind; rules: string[]; source: string }> = [];
  for (const s of settings.sources) {
    for (const kind of ['allow', 'ask', 'deny'] as const) lists.push({ kind, rules: s.settings.permissions?.[kind] ?? [], source: s.file });
  }
  lists.push({ kind: 'allow', rules: opts.allowedTools, source: '--allowed-tools' }, { kind: 'deny', rules: opts.disallowedTools, source: '--disallowed-tools' });
  // A command's allowed-tools are granted for its one turn (SPEC §6); a headless run is one turn.
  if (command?.source) lists.push({ kind: 'allow', rules: command.allowedTools, source: `${command.source} allowed-tools` });
  const rules = buildRules(lists);
  if (rules.errors.length) throw new Exit(2, `Bad permission rules:\n  ${rules.errors.join('\n  ')}`);
  const hooks = collectHooks(settings.sources);
  startupWarnings.push(...hooks.warnings, ...missingPrograms(hooks.hooks, cwd, { ...process.env, ...env }));
  const watch = new SettingsWatch([...settingsFiles(home, cwd).map((f) => f.file), ...settings.sources.filter((s) => s.scope === 'flag' && s.file !== '--settings').map((s) => s.file)]);
  session = new Session({
    cwd, home, model, mode, additionalDirs, env, emit: printer.sink, ask: refuseAsk, version: VERSION,
    maxTurns: opts.maxTurns, resume, rules: rules.rules, hooks: hooks.hooks, watch, memory: memorySection(memory.files),
    appendSystemPrompt: opts.appendSystemPrompt,
    autoCompact: settings.merged.compaction?.auto === false ? false : { threshold: settings.merged.compaction?.threshold ?? 0.8 },
  });
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

  printInit(opts.outputFormat, io, session, { cwd, model: model.label, mode: CLAUDE_MODE_NAMES[mode] });
  for (const message of startupWarnings) printer.sink({ type: 'warning', message });
  if (slash.kind === 'compact') {
    const c = await session.compact('manual', slash.instructions || undefined, controller.signal);
    if (!c.ok) { io.err(`error: compaction failed: ${c.error}\n`); return 1; }
    io.out(`Compacted ${c.before} messages into a summary.\n`);
    return 0;
  }
  const expansion = await session.expandReferences(prompt, controller.signal);
  if (!expansion.ok) throw new Exit(2, `Nothing was sent:\n  ${expansion.errors.join('\n  ')}`);
  const started = performance.now();
  await session.start(controller.signal);
  const outcome = await session.prompt(prompt, controller.signal, expansion);
  // SessionEnd runs even after an interrupt, with a fresh signal: it is the user's clean-up.
  await session.end('other', AbortSignal.timeout(60_000));
  const code = printResult(opts.outputFormat, io, session, outcome, performance.now() - started, printer.apiMs());
  return code === 130 && abortedBy === 'SIGTERM' ? 143 : code;
}

