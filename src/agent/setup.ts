import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSettings, settingsFiles, type LoadedSettings } from '../config/load.ts';
import { SettingsWatch } from '../config/watch.ts';
import { firstTimeNotices } from '../config/user-state.ts';
import { loadMemory, memorySection, type MemoryResult } from '../context/memory.ts';
import { collectHooks, missingPrograms } from '../hooks/config.ts';
import type { HookSpec } from '../hooks/schema.ts';
import { openSandbox } from '../sandbox/open.ts';
import { MODES, parseMode, type PermissionMode } from '../permissions/gate.ts';
import { sessionGuards, type GuardedPath } from '../permissions/protected.ts';
import { resolveModel, type ResolveOptions } from '../providers/resolve.ts';
import type { ThinkingLevel } from '../providers/types.ts';
import { estimateTokens } from '../session/compact.ts';
import { listSessions, projectDir, transcriptWarning } from '../session/transcript.ts';
import { toolSchemas } from '../tools/registry.ts';
import type { ModelHandle } from '../providers/types.ts';
import type { AskFn, EventSink } from './events.ts';
import { Session } from './session.ts';
import { openSessionMcp } from '../mcp/session-mcp.ts';
import { rulesOf } from './settings-reload.ts';
import { BUILTIN_AGENTS } from './agent-defs.ts';
import { knownToolNames } from '../tools/kinds.ts';

/** A failure of set-up that ends the program with `exitCode` (2: bad usage or configuration). */
export class SetupError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The command-line choices set-up reads (a subset of the CLI's options). */
export interface SetupOptions {
  model?: string;
  maxTurns?: number;
  permissionMode?: string;
  settings?: string;
  addDir: string[];
  continue?: boolean;
  resume?: string | true;
  allowedTools: string[];
  disallowedTools: string[];
  /** What the two lists are called for messages (the SDK: its option names; default the flags). */
  toolListNames?: { allow: string; deny: string };
  verify?: string;
  appendSystemPrompt?: string;
  /** `--sandbox` (true) / `--no-sandbox` (false): the OS sandbox for this run, over `sandbox.enabled` (SPEC §13). */
  sandbox?: boolean;
  /** `--thinking off|low|medium|high`, over settings `thinking`. */
  thinking?: ThinkingLevel;
  /** `--mcp-config FILE|JSON` (repeatable) and `--strict-mcp-config` (SPEC §12). */
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
}

/**
 * What a session is made from: settings, memory and choices, read once at start (SPEC §11.9). An
 * immutable value: a change (the mode kept across /clear, a resumed session, settings read again)
 * is a new Setup made with `{ ...setup, field }`.
 */
export interface Setup {
  readonly cwd: string;
  readonly home: string;
  readonly opts: Readonly<SetupOptions>;
  readonly settings: LoadedSettings;
  readonly memory: MemoryResult;
  readonly mode: PermissionMode;
  readonly additionalDirs: readonly string[];
  readonly resume?: { readonly sessionId: string; readonly path: string };
  readonly env: Readonly<Record<string, string>>;
  /** The verification command (SPEC §8): `--verify`, else settings `verify`. */
  readonly verify?: string;
  /** Problems found while loading, to show once the session's output is ready. */
  readonly warnings: readonly string[];
}

/**
 * `permissions.defaultMode` of the settings files, later files winning (SPEC §2). Bypass is taken
 * only from the user's own settings or `--settings` (SPEC §11.16): a project's settings file
 * (`.assistant/settings.json`, `settings.local.json`) that asks for it gets a warning instead, so a
 * cloned repository cannot switch off the checks for whoever runs it.
 */
function settingsMode(settings: LoadedSettings, warnings: string[]): string | undefined {
  let mode: string | undefined;
  for (const s of settings.sources) {
    const m = s.settings.permissions?.defaultMode;
    if (!m) continue;
    if ((s.scope === 'project' || s.scope === 'local') && parseMode(m) === 'bypass') {
      const at = s.locate?.(['permissions', 'defaultMode']);
      warnings.push(
        `${s.file}${at ? `:${at.line}:${at.column}` : ''}: "permissions.defaultMode": "${m}" is ignored: a project's settings cannot make Bypass the default; set it in ~/.assistant/settings.json or pass --permission-mode bypass`,
      );
      continue;
    }
    mode = m;
  }
  return mode;
}

function chooseMode(flag: string | undefined, fromSettings: string | undefined): PermissionMode {
  const raw = flag ?? fromSettings ?? 'normal';
  const mode = parseMode(raw);
  if (!mode) throw new SetupError(2, `--permission-mode "${raw}" is not a mode. Use one of: ${MODES.join(', ')}.`);
  return mode;
}

/**
 * `-c`: the newest session; `-r ID`: that one (an id prefix is enough). `-r` without an id lists
 * the recent ones and fails: the terminal UI shows its picker first and passes the chosen id.
 */
function findResume(opts: SetupOptions, home: string, cwd: string): Setup['resume'] {
  if (!opts.continue && opts.resume === undefined) return undefined;
  const sessions = listSessions(projectDir(home, cwd));
  if (opts.continue) {
    if (!sessions[0]) throw new SetupError(1, `No earlier session to continue in ${cwd}.`);
    return sessions[0];
  }
  if (opts.resume === true) {
    const list = sessions
      .slice(0, 10)
      .map((s) => `  ${s.sessionId}  ${new Date(s.mtimeMs).toISOString().slice(0, 16)}  ${s.firstPrompt.replace(/\s+/g, ' ').slice(0, 60)}`)
      .join('\n');
    throw new SetupError(2, `--resume needs a session id in headless runs. Recent sessions:\n${list || '  (none)'}`);
  }
  const found = sessions.find((s) => s.sessionId === opts.resume || s.sessionId.startsWith(String(opts.resume)));
  if (!found) throw new SetupError(2, `No session "${opts.resume}" in this project. Run "assistant -r" to list them.`);
  return found;
}

/** Reads settings, memory and the command line into a Setup. Throws ConfigError / SetupError (exit 2). */
export function loadSetup(opts: SetupOptions, cwd: string, home: string): Setup {
  const settings = loadSettings(home, cwd, opts.settings, cwd);
  const warnings = [...settings.warnings];
  const memory = loadMemory({ cwd, home });
  // "Using AGENTS.md instead" is news once per file, not on every run.
  warnings.push(...firstTimeNotices(home, memory.notices), ...memory.warnings);
  const mode = chooseMode(opts.permissionMode, settingsMode(settings, warnings));
  const additionalDirs = [...opts.addDir, ...(settings.merged.permissions?.additionalDirectories ?? [])].map((d) => resolve(cwd, d));
  for (const d of opts.addDir.map((x) => resolve(cwd, x))) {
    if (!existsSync(d) || !statSync(d).isDirectory()) throw new SetupError(2, `--add-dir ${d}: no such directory.`);
  }
  const resume = findResume(opts, home, cwd);
  const fromSettings = settings.merged.verify;
  const verify = opts.verify ?? (typeof fromSettings === 'string' ? fromSettings : fromSettings?.command);
  return Object.freeze({
    cwd,
    home,
    opts,
    settings,
    memory,
    mode,
    additionalDirs,
    resume,
    env: { ...(settings.merged.env ?? {}) },
    verify: verify?.trim() || undefined,
    warnings,
  });
}

/** The protected paths a set-up adds (SPEC §11.16): its hook scripts, `--settings FILE`, git's directories. */
export function setupGuards(setup: Setup): GuardedPath[] {
  return sessionGuards(setup.cwd, setup.home, collectHooks(setup.settings.sources).hooks, flagSettingsFiles(setup.settings));
}

const flagSettingsFiles = (s: LoadedSettings) => s.sources.filter((x) => x.scope === 'flag' && x.file !== '--settings').map((x) => x.file);

export interface SessionWiring {
  emit: EventSink;
  ask: AskFn;
  /** A person answers questions (terminal UI). */
  interactive?: boolean;
  version: string;
  /** A command's `model:` front matter, over `--model` and settings. */
  modelSpec?: string;
  /** Extra allow rules with their source (a command's allowed-tools for a headless run). */
  extraAllow?: { rules: string[]; source: string };
  /** The new session's id, when chosen before it opens (hooks of a command's `!` saw it). */
  sessionId?: string;
  /** Hooks beyond the settings' (the SDK's JavaScript hooks), run with them. */
  extraHooks?: HookSpec[];
}

/**
 * How to set up a model for this run: `spec` (a command's `model:` front matter, a switch), else
 * `--model`, else settings `model`; thinking, the context-window setting and Ollama's cap from the
 * command line and settings. Every place that resolves a model uses this, so they all agree.
 */
export function resolveOptions(setup: Setup, spec?: string): ResolveOptions {
  const s = setup.settings.merged;
  return {
    spec: spec ?? setup.opts.model ?? s.model,
    env: { ...process.env, ...setup.env },
    cwd: setup.cwd,
    contextWindow: s.modelContextWindow,
    thinking: setup.opts.thinking ?? s.thinking,
    ollamaMaxContext: s.ollamaMaxContext,
  };
}

/** A session just opened, and what to show once its output is ready: the set-up's warnings, then those of opening it. */
interface OpenedSession {
  session: Session;
  warnings: string[];
}

/** Resolves the model, rules and hooks of a Setup and opens its Session. Throws SetupError/ConfigError. */
export async function createSession(setup: Setup, w: SessionWiring): Promise<OpenedSession> {
  const { cwd, home, opts, settings } = setup;
  const warnings = [...setup.warnings];
  const rules = rulesOf(settings.sources, opts, w.extraAllow);
  if (rules.errors.length) throw new SetupError(2, `Bad permission rules:\n  ${rules.errors.join('\n  ')}`);
  const hooks = collectHooks(settings.sources);
  // The sandbox's check (a tiny sandbox, when asked for) runs beside the model's resolution.
  // MCP servers start in the background (nothing of MCP loads when none is configured, SPEC §12).
  const mcp = await openSessionMcp({
    projectRoot: cwd,
    settings,
    mcpConfig: opts.mcpConfig,
    strict: opts.strictMcpConfig,
    env: { ...process.env, ...setup.env },
    version: w.version,
    interactive: w.interactive === true,
    warn: (message) => w.emit({ type: 'warning', message }),
  });
  warnings.push(...mcp.warnings);
  const [sandbox, model] = await Promise.all([
    openSandbox({
      flag: opts.sandbox,
      settings: settings.merged.sandbox,
      projectRoot: cwd,
      home,
      additionalDirs: setup.additionalDirs,
      rules: rules.rules,
      env: process.env,
      // Hook scripts run outside the sandbox: commands inside may not change them (SPEC §11.16).
      protectedExtra: sessionGuards(cwd, home, hooks.hooks, flagSettingsFiles(settings)),
    }),
    resolveModel(resolveOptions(setup, w.modelSpec)),
  ]).catch(async (e) => {
    await mcp.manager?.close();
    throw e;
  });
  warnings.push(...rules.warnings);
  warnings.push(...hooks.warnings, ...missingPrograms(hooks.hooks, cwd, { ...process.env, ...setup.env }));
  if (sandbox.kind === 'unavailable') {
    if (sandbox.fatal) throw new SetupError(2, sandbox.message);
    warnings.push(sandbox.message);
  } else if (sandbox.kind === 'on') warnings.push(...sandbox.warnings);
  // The agent files need the YAML parser (a lazy chunk): loaded only where there are some.
  const agentDirs = [cwd, home].flatMap((r) => [resolve(r, '.assistant', 'agents'), resolve(r, '.claude', 'agents')]);
  const agents = agentDirs.some((d) => existsSync(d))
    ? (await import('./agents.ts')).loadAgents({ projectRoot: cwd, home, known: knownToolNames() })
    : { agents: BUILTIN_AGENTS, problems: [], notices: [] };
  warnings.push(...agents.problems, ...firstTimeNotices(home, agents.notices));
  const watch = new SettingsWatch([
    ...settingsFiles(home, cwd).map((f) => f.file),
    ...settings.sources.filter((s) => s.scope === 'flag' && s.file !== '--settings').map((s) => s.file),
  ]);
  const session = new Session({
    cwd,
    home,
    model,
    mode: setup.mode,
    additionalDirs: setup.additionalDirs,
    env: setup.env,
    emit: w.emit,
    ask: w.ask,
    interactive: w.interactive,
    version: w.version,
    maxTurns: opts.maxTurns,
    resume: setup.resume,
    id: w.sessionId,
    rules: rules.rules,
    hooks: [...hooks.hooks, ...(w.extraHooks ?? [])],
    watch,
    memory: memorySection(setup.memory.files),
    appendSystemPrompt: opts.appendSystemPrompt,
    settingsFiles: flagSettingsFiles(settings),
    verify: setup.verify,
    sandbox: sandbox.kind === 'on' ? sandbox.sandbox : undefined,
    mcp: mcp.manager,
    agents: agents.agents,
    resolveModel: (spec) => resolveModel(resolveOptions(setup, spec)),
    autoCompact: settings.merged.compaction?.auto === false ? false : { threshold: settings.merged.compaction?.threshold ?? 0.8 },
  });
  const tight = contextTooSmall(model, estimateTokens(session.systemPrompt() + JSON.stringify(toolSchemas(session.tools)), []));
  if (tight) warnings.push(tight);
  // `"continue": false` from SessionStart: shown to a person who is there, else it stops the run (docs/hooks.md).
  session.hooks.interactive = w.interactive === true;
  const damaged = setup.resume && transcriptWarning(setup.resume.path);
  if (damaged) warnings.push(damaged);
  return { session, warnings };
}

/** Room a request needs beyond the system prompt and tools: a prompt, a few tool results, an answer. */
const WORKING_ROOM = 4_096;

/**
 * A warning when the model's window cannot hold what every request carries (the system prompt and
 * the tools' definitions) with room to work: such a model would get its prompt cut (Ollama does so
 * silently) or fail on the first long answer. Undefined when it fits.
 */
function contextTooSmall(
  model: Pick<ModelHandle, 'provider' | 'label' | 'contextWindow' | 'contextSource'>,
  fixedTokens: number,
): string | undefined {
  if (model.provider === 'replay' || fixedTokens + WORKING_ROOM <= model.contextWindow) return undefined;
  const how =
    model.provider === 'ollama'
      ? 'raise it with the setting ollamaMaxContext (when the model takes more) or a num_ctx PARAMETER in its Modelfile'
      : 'choose a model with a larger window, or set modelContextWindow if this figure is wrong';
  return (
    `The model ${model.label} has a ${model.contextWindow}-token context window (from ${model.contextSource ?? 'the provider'}), ` +
    `but the system prompt and tool definitions alone take about ${fixedTokens} tokens, leaving ${Math.max(0, model.contextWindow - fixedTokens)} for the conversation: ${how}.`
  );
}
