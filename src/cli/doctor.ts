import { homedir } from 'node:os';
import { nodeWarning } from './node-support.ts';
import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { loadSettings, type LoadedSettings } from '../config/load.ts';
import { skippedWarning } from '../mcp/trust.ts';
import { collectHooks, missingPrograms } from '../hooks/config.ts';
import { buildRules, settingsRuleLists } from '../permissions/rules.ts';
import { ruleTools } from '../tools/kinds.ts';
import { anthropicBaseUrl, resolveModel } from '../providers/resolve.ts';
import type { ModelHandle } from '../providers/types.ts';
import { ripgrepPath } from '../fs/rg.ts';
import { runGroup } from '../process/run.ts';
import { findShell } from '../process/shell.ts';
import { sandboxDoctor } from '../sandbox/doctor.ts';

type Out = (s: string) => void;

export interface DoctorContext {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Usage errors. */
  err: Out;
  /** How long the provider may take to answer the reachability check. */
  probeTimeoutMs: number;
}

const defaultContext = (): DoctorContext => ({
  cwd: process.cwd(),
  home: homedir(),
  env: process.env,
  err: (s) => {
    process.stderr.write(s);
  },
  probeTimeoutMs: 3000,
});

/** The request that shows a provider answers, without sending a prompt: its model list. */
function probeRequest(m: ModelHandle, env: NodeJS.ProcessEnv): { url: string; headers: Record<string, string> } | undefined {
  const trim = (u: string) => u.trim().replace(/\/+$/, '');
  switch (m.provider) {
    case 'anthropic': {
      const base = anthropicBaseUrl(env.ANTHROPIC_BASE_URL?.trim()) ?? 'https://api.anthropic.com/v1';
      const auth: Record<string, string> = env.ANTHROPIC_API_KEY
        ? { 'x-api-key': env.ANTHROPIC_API_KEY }
        : env.ANTHROPIC_AUTH_TOKEN
          ? { authorization: `Bearer ${env.ANTHROPIC_AUTH_TOKEN}` }
          : {};
      return { url: `${base}/models`, headers: { 'anthropic-version': '2023-06-01', ...auth } };
    }
    case 'openai':
    case 'openai-chat':
    case 'openai-compatible': {
      const base =
        m.provider === 'openai-compatible'
          ? env.OPENAI_COMPATIBLE_BASE_URL || env.OPENAI_BASE_URL
          : env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1';
      const key = m.provider === 'openai-compatible' ? env.OPENAI_COMPATIBLE_API_KEY || env.OPENAI_API_KEY : env.OPENAI_API_KEY;
      return base ? { url: `${trim(base)}/models`, headers: key ? { authorization: `Bearer ${key}` } : {} } : undefined;
    }
    case 'google': {
      const base = env.GOOGLE_GEMINI_BASE_URL || 'https://generativelanguage.googleapis.com/v1beta';
      const key = env.GEMINI_API_KEY || env.GOOGLE_GENERATIVE_AI_API_KEY || env.GOOGLE_API_KEY || '';
      return { url: `${trim(base)}/models`, headers: { 'x-goog-api-key': key } };
    }
    case 'ollama': {
      let host = env.OLLAMA_HOST?.trim() || '127.0.0.1:11434';
      if (!/^https?:\/\//.test(host)) host = `http://${host}`;
      return { url: `${trim(host)}/api/tags`, headers: {} };
    }
    default:
      return undefined;
  }
}

/**
 * Is the provider there? A GET of its model list with a short timeout: no prompt is sent, nothing
 * is billed. No answer, or a refused key, is a problem; any other answer (a proxy without the
 * list answers 404) shows the server is reachable.
 */
async function probeProvider(m: ModelHandle, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ ok: boolean; message: string }> {
  const req = probeRequest(m, env);
  if (!req) return { ok: true, message: `${m.label}: no network check for this provider` };
  try {
    const res = await fetch(req.url, { headers: req.headers, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    if (res.status === 401 || res.status === 403)
      return { ok: false, message: `${m.label}: ${req.url} refused the key (HTTP ${res.status}): check the API key` };
    return { ok: true, message: `${m.label}: reachable at ${new URL(req.url).origin} (HTTP ${res.status})` };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why =
      err.name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : err.cause?.code === 'ECONNREFUSED'
          ? 'connection refused'
          : (err.cause?.code ?? err.cause?.message ?? err.message);
    return {
      ok: false,
      message: `${m.label}: cannot reach ${new URL(req.url).origin} (${why}): check the base URL variable, or that the server runs`,
    };
  }
}

function parseOptions(argv: string[], out: Out, err: Out): { settings?: string; model?: string; mcpConfig: string[] } | number {
  const program = new Command('assistant doctor')
    .description(
      'Check settings, permission rules, hooks, the model and its provider, and the tools; print what is wrong. Exit 0 when all is well, 1 when a problem was found, 2 on bad usage.',
    )
    .option('--settings <file-or-json>', 'an extra settings file (or inline JSON), as for a run')
    .option('--model <provider:model>', 'the model to check instead of the configured one')
    .option(
      '--mcp-config <file-or-json>',
      'MCP servers to check as well, as for a run (repeatable)',
      (v: string, prev: string[]) => [...prev, v],
      [],
    )
    .helpOption('-h, --help', 'show this help')
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: err });
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.help' ? 0 : 2;
    throw e;
  }
  return program.opts();
}

/**
 * MCP servers (SPEC §12): each configured server that may start is started, its tools listed and
 * its error reported with its last stderr lines; a project server nobody approved is named with
 * the setting that would approve it.
 */
async function checkMcp(ctx: DoctorContext, settings: LoadedSettings, mcpConfig: string[], ok: Out, bad: Out, warn: Out): Promise<void> {
  try {
    const { checkServers } = await import('../mcp/check.ts');
    const r = await checkServers({ projectRoot: ctx.cwd, cwd: ctx.cwd, settings, mcpConfig, env: ctx.env, version: pkg.version });
    for (const w of r.warnings) warn(w);
    for (const s of r.statuses) {
      const label = `MCP server "${s.name}"`;
      if (s.state === 'connected') ok(`${label}: connected, ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`);
      else if (s.state === 'disabled') ok(`${label}: disabled (${s.error})`);
      else if (s.state === 'needs-approval')
        warn(skippedWarning(r.config.servers.find((e) => e.name === s.name)!, ctx.cwd).replace('was not started', 'is not started'));
      else {
        bad(
          `${label}: ${s.error}${
            s.log.length
              ? `\n    last output:\n${s.log
                  .slice(-5)
                  .map((l) => `      ${l}`)
                  .join('\n')}`
              : ''
          }`,
        );
      }
    }
  } catch (e) {
    bad((e as Error).message);
  }
}

/**
 * `assistant doctor`: checks Node, settings, permission rules (exactly as a session's set-up does),
 * hooks, the model configuration and whether its provider answers, and the tools, and prints what
 * is wrong with the fix. Exit 0 when all is well, 1 otherwise, 2 on bad usage. Sends no prompt.
 */
export async function doctorCommand(
  argv: string[],
  out: Out = (s) => {
    process.stdout.write(s);
  },
  context: Partial<DoctorContext> = {},
): Promise<number> {
  const ctx = { ...defaultContext(), ...context };
  const opts = parseOptions(argv, out, ctx.err);
  if (typeof opts === 'number') return opts;
  const { cwd } = ctx;
  let problems = 0;
  const ok = (s: string) => out(`✓ ${s}\n`);
  const bad = (s: string) => {
    problems++;
    out(`✗ ${s}\n`);
  };
  const warn = (s: string) => out(`! ${s}\n`);

  const old = nodeWarning();
  if (old) warn(old);
  else ok(`Node ${process.versions.node}`);

  let env: Record<string, string> = {};
  let model: string | undefined;
  let settings: LoadedSettings | undefined;
  let sandbox: Parameters<typeof sandboxDoctor>[0] | undefined;
  try {
    settings = loadSettings(ctx.home, cwd, opts.settings, cwd);
    ok(`settings: ${settings.sources.length ? settings.sources.map((s) => s.file).join(', ') : 'none (defaults)'}`);
    for (const w of settings.warnings) warn(w);
    env = settings.merged.env ?? {};
    model = settings.merged.model;
    const rules = buildRules(settingsRuleLists(settings.sources), ruleTools);
    for (const e of rules.errors) bad(`permission rule: ${e}`);
    for (const w of rules.warnings) warn(w);
    const count = rules.rules.allow.length + rules.rules.ask.length + rules.rules.deny.length;
    if (rules.errors.length === 0) ok(`permission rules: ${count} in settings, all well-formed`);
    const { hooks, warnings } = collectHooks(settings.sources);
    for (const w of warnings) warn(w);
    const missing = missingPrograms(hooks, cwd, { ...ctx.env, ...env });
    for (const m of missing) bad(`hook: ${m}`);
    if (missing.length === 0) ok(`hooks: ${hooks.length} configured, every program found`);
    const additionalDirs = (settings.merged.permissions?.additionalDirectories ?? []).map((d) => resolve(cwd, d));
    sandbox = { settings: settings.merged.sandbox, projectRoot: cwd, home: ctx.home, additionalDirs, rules: rules.rules, env: ctx.env };
  } catch (e) {
    bad((e as Error).message);
  }

  try {
    const runEnv = { ...ctx.env, ...env };
    const m = await resolveModel({ spec: opts.model ?? model, env: runEnv, cwd });
    ok(`model: ${m.label}`);
    if (m.provider !== 'replay') {
      const probe = await probeProvider(m, runEnv, ctx.probeTimeoutMs);
      if (probe.ok) ok(`provider: ${probe.message}`);
      else bad(`provider: ${probe.message}`);
    }
  } catch (e) {
    bad((e as Error).message);
  }

  if (settings) await checkMcp(ctx, settings, opts.mcpConfig, ok, bad, warn);

  const rg = await ripgrepPath();
  const probe = (command: string | string[]) =>
    runGroup({ command, cwd, timeoutMs: 10_000, signal: new AbortController().signal, maxBytes: 4096 });
  const r = await probe([rg, '--version']);
  if (r.code === 0) ok(`ripgrep: ${r.stdout.headOnly().text.split('\n')[0]}`);
  else bad(`ripgrep (${rg}) does not run: ${r.spawnError?.message ?? r.stderr.headOnly().text}`);
  const bash = await probe('echo ok');
  if (findShell().endsWith('/bash') && bash.stdout.headOnly().text.trim() === 'ok') ok('bash');
  else bad('bash is not available: the Bash tool and hooks need it');
  if (sandbox) for (const l of await sandboxDoctor(sandbox)) (l.level === 'ok' ? ok : l.level === 'bad' ? bad : warn)(l.text);

  out(problems ? `${problems} problem${problems > 1 ? 's' : ''} found.\n` : 'All good.\n');
  return problems ? 1 : 0;
}
