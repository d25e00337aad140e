import { homedir } from 'node:os';
import { holdYoungGeneration } from './gc-tuning.ts';
import type { CliOptions } from './args.ts';
import { Exit } from './exit.ts';
import { loadSetup, type Setup } from '../agent/setup.ts';
import { loadCommands } from '../commands/loader.ts';
import { isTrusted, projectRunnables, trustFolder } from '../config/trust.ts';
import { listSessions, projectDir, readEntries } from '../session/transcript.ts';

/** Exit codes for the signals that end a session: 128 + the signal's number. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * The interactive session (`assistant` without -p). Set-up errors (bad settings, no model) end
 * with their exit code before the screen is drawn; `-r` without an id shows a picker first.
 * The UI modules load only here, so `--version` and `-p` never pay for React and Ink.
 */
export async function runInteractive(opts: CliOptions, firstPrompt: string | undefined, version: string): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new Exit(2, 'The interactive session needs a terminal. Run headless instead: assistant -p "your prompt"');
  }
  // Raw mode from the first moment: keys typed while the session starts are neither echoed nor
  // cooked (Enter stays Enter); the input box reads them once it is drawn.
  holdKeys();
  // chalk (Ink, marked-terminal) ignores NO_COLOR; FORCE_COLOR=0 before they load turns colour off.
  if (process.env.NO_COLOR && process.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = '0';
  const cwd = process.cwd();
  const home = homedir();
  const { ui, Controller, runSlash } = await loadUi();
  ui.guardTerminal();
  let options = opts;
  if (opts.resume === true) {
    const sessions = listSessions(projectDir(home, cwd));
    if (sessions.length === 0) throw new Exit(1, `No earlier session to resume in ${cwd}.`);
    const id = await ui.pick(
      'Resume which session?',
      sessions.slice(0, 30).map((s) => ({
        label: `${new Date(s.mtimeMs).toLocaleString()}  ${(s.firstPrompt || '(no prompt)').replace(/\s+/g, ' ').slice(0, 60)}`,
        value: s.sessionId,
      })),
    );
    if (!id) return 0;
    holdKeys(); // the picker gave the terminal back in cooked mode
    options = { ...opts, resume: id };
  }
  let setup = loadSetup(options, cwd, home);
  if (!(await trusted(ui, setup))) {
    process.stdout.write('Nothing was run. Start assistant again in a folder you trust.\n');
    return 1;
  }
  setup = await approveMcpServers(ui, setup);
  const idle = Number(process.env.ASSISTANT_IDLE_NOTIFY_MS);
  const ctrl = new Controller({
    setup,
    version,
    verbose: opts.verbose,
    idleMs: Number.isFinite(idle) && process.env.ASSISTANT_IDLE_NOTIFY_MS ? idle : undefined,
  });
  ctrl.slash = runSlash;
  await ctrl.create();
  // A signal stops the running turn (its tools' process groups die), runs SessionEnd, gives the
  // terminal back and exits 128+n. A second signal, or 10 s, ends it at once.
  let signalled: number | undefined;
  for (const [name, code] of Object.entries(SIGNAL_EXIT)) {
    process.on(name, () => {
      if (signalled !== undefined) process.exit(signalled);
      signalled = code;
      setTimeout(() => process.exit(code), 10_000).unref();
      void ctrl.terminate();
    });
  }
  await ui.startUi(ctrl, firstPrompt);
  // Nothing to come back to in a session without a single message (-c and -r skip it too).
  const path = ctrl.session.conversation.transcript.path;
  if (readEntries(path).some((e) => e.type === 'message'))
    process.stdout.write(`Resume this session with: assistant -r ${ctrl.session.id}\n`);
  return signalled ?? 0;
}

/**
 * The UI modules. Ink and chalk read CI / CONTINUOUS_INTEGRATION when they load and then draw only
 * a last frame, in no colour: right for a CI log, wrong for a person at a terminal who happens to
 * have CI set (a CI job's shell, a tmux pane started from one). We are at a terminal here, so the
 * two are hidden while the modules load and put back at once: tools and hooks still see them.
 */
async function loadUi() {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    const [ui, { Controller }, { runSlash }] = await Promise.all([
      import('../ui/start.tsx'),
      import('../ui/controller.ts'),
      import('../ui/commands.ts'),
    ]);
    holdYoungGeneration();
    return { ui, Controller, runSlash };
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
}

/**
 * SPEC §11.15: before anything of the project runs (hooks, `!cmd`, MCP servers), a folder not yet
 * trusted asks the user. The answer is kept in ~/.assistant/state.json (for the home directory,
 * for this session only). Headless runs never ask.
 */
async function trusted(ui: Awaited<ReturnType<typeof loadUi>>['ui'], setup: Setup): Promise<boolean> {
  if (isTrusted(setup.home, setup.cwd)) return true;
  const commands = loadCommands({ projectRoot: setup.cwd, home: setup.home }).commands.filter((c) => c.scope === 'project');
  const runs = projectRunnables(setup.cwd, setup.settings.sources, commands);
  const body = [
    setup.cwd,
    '',
    'assistant can read, change and run files here. A folder you did not write yourself (a cloned repository, a download) may hold settings that run commands on your machine.',
    ...(runs.length
      ? [
          '',
          'This folder can run:',
          ...runs.slice(0, 8).map((r) => `  • ${r}`),
          ...(runs.length > 8 ? [`  • …and ${runs.length - 8} more`] : []),
        ]
      : []),
  ].join('\n');
  const answer = await ui.pick(
    'Do you trust the files in this folder?',
    [
      { label: 'Yes, I trust this folder', value: 'yes' },
      { label: 'No, exit', value: 'no' },
    ],
    body,
  );
  holdKeys(); // the question gave the terminal back in cooked mode
  if (answer !== 'yes') return false;
  trustFolder(setup.home, setup.cwd);
  return true;
}

/**
 * SPEC §12: each MCP server the project defines (`.mcp.json`) that the user has neither approved
 * nor turned down is asked about once, before the session starts it: approve it, approve every
 * server of this project, or not. The answer goes to `.assistant/settings.local.json`.
 */
async function approveMcpServers(ui: Awaited<ReturnType<typeof loadUi>>['ui'], setup: Setup): Promise<Setup> {
  const { unapprovedServers } = await import('../mcp/session-mcp.ts');
  const pending = unapprovedServers({
    projectRoot: setup.cwd,
    settings: setup.settings,
    mcpConfig: setup.opts.mcpConfig,
    strict: setup.opts.strictMcpConfig,
  });
  if (pending.length === 0) return setup;
  const { recordMcpApproval } = await import('../mcp/trust.ts');
  for (const entry of pending) {
    const c = entry.config;
    const what =
      c.type === 'http' || c.type === 'sse'
        ? `${c.type.toUpperCase()} server at ${c.url}`
        : `runs: ${[c.command, ...(c.args ?? [])].join(' ')}`;
    const answer = await ui.pick(
      `This project defines the MCP server "${entry.name}". Use it?`,
      [
        { label: 'Yes, use this server', value: 'yes' },
        { label: 'Yes, use every MCP server of this project', value: 'all' },
        { label: 'No, do not start it', value: 'no' },
      ],
      `${entry.file}
${what}

An MCP server runs with your permissions. Your answer is kept in .assistant/settings.local.json.`,
    );
    holdKeys();
    if (answer === undefined) continue; // Esc: not started this time, asked again next time
    if (answer === 'all') {
      recordMcpApproval(setup.cwd, { approveAll: true });
      break;
    }
    recordMcpApproval(setup.cwd, answer === 'yes' ? { approve: entry.name } : { reject: entry.name });
  }
  // The answers are in settings.local.json now: read the settings again so the session sees them.
  const { loadSettings } = await import('../config/load.ts');
  return { ...setup, settings: loadSettings(setup.home, setup.cwd, setup.opts.settings, setup.cwd) };
}

function holdKeys(): void {
  try {
    process.stdin.setRawMode(true);
  } catch {
    /* not a terminal after all */
  }
}
