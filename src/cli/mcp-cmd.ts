import { homedir } from 'node:os';
import { relative } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { loadSettings } from '../config/load.ts';
import { checkServers, type CheckResult } from '../mcp/check.ts';
import type { McpServerEntry } from '../mcp/config.ts';
import type { McpServerStatus } from '../mcp/connection.ts';
import { McpServerSchema, SERVER_NAME, type McpServerConfig } from '../mcp/schema.ts';
import { recordMcpApproval, skippedWarning } from '../mcp/trust.ts';
import { addServer, removeServer, scopeFile, serversIn, WRITE_SCOPES, type WriteScope } from '../mcp/write.ts';
import { Exit } from './exit.ts';

type Out = (s: string) => void;

interface McpCommandContext {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  err: Out;
}

const collect = (v: string, prev: string[]) => [...prev, v];

/** `~/x` and project-relative paths, as a person reads them. */
function show(file: string, ctx: McpCommandContext): string {
  if (file.startsWith(`${ctx.cwd}/`)) return relative(ctx.cwd, file);
  if (file.startsWith(`${ctx.home}/`)) return `~/${relative(ctx.home, file)}`;
  return file;
}

const SCOPE_WORDS: Record<McpServerEntry['scope'], string> = {
  user: 'user',
  mcpjson: 'project, shared',
  project: 'project settings, shared',
  local: 'local',
  flag: '--settings',
  cli: '--mcp-config',
};

/** `npx -y pkg` or `https://…`: what a server runs or where it is. */
function target(c: McpServerConfig): string {
  if (c.type === 'http' || c.type === 'sse') return `${c.url} (${c.type === 'http' ? 'HTTP' : 'SSE'})`;
  return [c.command, ...(c.args ?? [])].map((a) => (/[\s"']/.test(a ?? '') ? JSON.stringify(a) : a)).join(' ');
}

function stateLine(s: McpServerStatus, entry: McpServerEntry, ctx: McpCommandContext): string {
  switch (s.state) {
    case 'connected':
      return `✓ connected, ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
    case 'failed':
      return `✗ failed: ${s.error}`;
    case 'disabled':
      return `- disabled (${s.error})`;
    case 'needs-approval':
      return `! not started: ${skippedWarning(entry, ctx.cwd).replace(/^MCP server "[^"]+" \([^)]*\) was not started: /, '')}`;
    default:
      return s.state;
  }
}

function printServer(s: McpServerStatus, entry: McpServerEntry, r: CheckResult, out: Out, ctx: McpCommandContext): void {
  out(`${s.name}: ${target(entry.config)} - ${stateLine(s, entry, ctx)}\n`);
  out(
    `  from ${show(entry.file, ctx)}${entry.file.startsWith('--') ? '' : ` (${SCOPE_WORDS[entry.scope]})`}${entry.hides.length ? `, over ${entry.hides.map((f) => show(f, ctx)).join(', ')}` : ''}\n`,
  );
  if (s.state === 'failed' && s.log.length) {
    out('  last output:\n');
    for (const l of s.log.slice(-5)) out(`    ${l}\n`);
  }
  for (const m of r.names.filter((n) => n.server === s.name)) out(`  ${m.name}${m.changed ? `  (the server's "${m.tool}")` : ''}\n`);
}

interface LoadOpts {
  settings?: string;
  mcpConfig: string[];
  strictMcpConfig?: boolean;
}

async function check(ctx: McpCommandContext, o: LoadOpts, only?: string): Promise<CheckResult> {
  const settings = loadSettings(ctx.home, ctx.cwd, o.settings, ctx.cwd);
  const r = await checkServers({
    projectRoot: ctx.cwd,
    cwd: ctx.cwd,
    settings,
    mcpConfig: o.mcpConfig,
    strict: o.strictMcpConfig,
    env: ctx.env,
    version: pkg.version,
    only,
  });
  for (const w of [...settings.warnings, ...r.warnings]) ctx.err(`warning: ${w}\n`);
  return r;
}

/** `mcp list`: every configured server, started (approved ones), with its state and tools. */
async function list(ctx: McpCommandContext, o: LoadOpts, out: Out): Promise<number> {
  const r = await check(ctx, o);
  if (r.config.servers.length === 0) {
    out('No MCP servers are configured. Add one with: assistant mcp add NAME -- COMMAND [ARGS…]\n');
    return 0;
  }
  for (const s of r.statuses) printServer(s, r.config.servers.find((e) => e.name === s.name)!, r, out, ctx);
  return 0;
}

/** `mcp get NAME`: one server's definition and state. */
async function get(ctx: McpCommandContext, name: string, o: LoadOpts, out: Out): Promise<number> {
  const r = await check(ctx, o, name);
  const entry = r.config.servers.find((e) => e.name === name);
  const s = r.statuses[0];
  if (!entry || !s)
    throw new Exit(
      1,
      `No MCP server named "${name}". ${r.config.servers.length ? `Configured: ${r.config.servers.map((e) => e.name).join(', ')}.` : 'None is configured.'}`,
    );
  const c = entry.config;
  out(`${name}:\n`);
  out(`  Defined in: ${show(entry.file, ctx)}${entry.file.startsWith('--') ? '' : ` (${SCOPE_WORDS[entry.scope]})`}\n`);
  if (entry.hides.length) out(`  Hides the same name in: ${entry.hides.map((f) => show(f, ctx)).join(', ')}\n`);
  out(`  Status: ${stateLine(s, entry, ctx)}\n`);
  out(`  Type: ${c.type ?? 'stdio'}\n`);
  if (c.url !== undefined) out(`  URL: ${c.url}\n`);
  for (const [k, v] of Object.entries(c.headers ?? {})) out(`  Header: ${k}: ${v}\n`);
  if (c.command !== undefined) out(`  Command: ${c.command}\n  Args: ${(c.args ?? []).join(' ')}\n`);
  if (c.cwd !== undefined) out(`  Working directory: ${c.cwd}\n`);
  if (c.env && Object.keys(c.env).length)
    out(
      `  Environment:\n${Object.entries(c.env)
        .map(([k, v]) => `    ${k}=${v}\n`)
        .join('')}`,
    );
  if (s.serverInfo) out(`  Server: ${s.serverInfo.name} ${s.serverInfo.version}\n`);
  if (s.state === 'failed' && s.log.length)
    out(
      `  Last output:\n${s.log
        .slice(-10)
        .map((l) => `    ${l}\n`)
        .join('')}`,
    );
  const names = r.names.filter((n) => n.server === name);
  if (names.length) out(`  Tools:\n${names.map((m) => `    ${m.name}${m.changed ? `  (the server's "${m.tool}")` : ''}\n`).join('')}`);
  const scope = entry.scope === 'mcpjson' ? 'project' : entry.scope;
  if ((WRITE_SCOPES as readonly string[]).includes(scope)) out(`\nTo remove it: assistant mcp remove ${name} --scope ${scope}\n`);
  return 0;
}

function parseScope(v: string): WriteScope {
  if ((WRITE_SCOPES as readonly string[]).includes(v)) return v as WriteScope;
  throw new Exit(
    2,
    `--scope "${v}" is not a scope. Use local (this project, you only; the default), project (.mcp.json, shared) or user (every project).`,
  );
}

function checkName(name: string): void {
  if (name.startsWith('-'))
    throw new Exit(2, `unknown option "${name}": options come before the server's name (assistant mcp add --help).`);
  if (!SERVER_NAME.test(name)) {
    const hint = name.includes('=') ? ` (to set several variables write -e A=1 -e B=2)` : '';
    throw new Exit(2, `"${name}" is not a server name: use letters, digits, _ and -${hint}.`);
  }
}

function pairs(values: string[], sep: '=' | ':', flag: string): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf(sep);
    if (i <= 0) throw new Exit(2, `${flag} "${v}" is not ${sep === '=' ? 'KEY=value' : '"Name: value"'}.`);
    out[v.slice(0, i).trim()] = v.slice(i + 1).trim();
  }
  return out;
}

/** Writes the server and says where; a project server is approved for the person who added it. */
function write(ctx: McpCommandContext, scope: WriteScope, name: string, server: McpServerConfig, out: Out): number {
  const file = addServer(scope, ctx.cwd, ctx.home, name, server);
  const kind = server.type === 'http' ? 'HTTP' : server.type === 'sse' ? 'SSE' : 'stdio';
  const where = { local: 'this project, for you only', project: 'shared with everyone who clones the project', user: 'every project' }[
    scope
  ];
  out(`Added ${kind} MCP server "${name}" to ${show(file, ctx)} (${where}).\n`);
  if (scope === 'project') {
    const local = recordMcpApproval(ctx.cwd, { approve: name });
    out(`Approved it for you in ${show(local, ctx)}; others who clone the project are asked first.\n`);
  }
  return 0;
}

function add(
  ctx: McpCommandContext,
  name: string,
  commandOrUrl: string,
  args: string[],
  o: { scope: string; transport: string; env: string[]; header: string[] },
  out: Out,
): number {
  checkName(name);
  const scope = parseScope(o.scope);
  const env = pairs(o.env, '=', '--env');
  const headers = pairs(o.header, ':', '--header');
  let server: McpServerConfig;
  if (o.transport === 'stdio') {
    if (/^https?:\/\//i.test(commandOrUrl))
      throw new Exit(2, `"${commandOrUrl}" looks like a URL: add --transport http (or --transport sse) before the name.`);
    if (headers) throw new Exit(2, '--header is for http and sse servers; a stdio server takes --env.');
    server = { command: commandOrUrl, args, ...(env ? { env } : {}) };
  } else {
    if (args.length) throw new Exit(2, `a ${o.transport} server takes a URL and nothing after it (got: ${args.join(' ')}).`);
    if (env) throw new Exit(2, `--env is for stdio servers; a ${o.transport} server takes --header.`);
    server = { type: o.transport as 'http' | 'sse', url: commandOrUrl, ...(headers ? { headers } : {}) };
  }
  const checked = McpServerSchema.safeParse(server);
  if (!checked.success) throw new Exit(2, `${checked.error.issues[0].path.join('.') || 'the server'} ${checked.error.issues[0].message}`);
  return write(ctx, scope, name, server, out);
}

function addJson(ctx: McpCommandContext, name: string, json: string, o: { scope: string }, out: Out): number {
  checkName(name);
  const scope = parseScope(o.scope);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new Exit(2, `the server JSON is not valid JSON: ${(e as Error).message}`);
  }
  const checked = McpServerSchema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Exit(2, `the server JSON: ${issue.path.length ? `"${issue.path.join('.')}": ` : ''}${issue.message}`);
  }
  return write(ctx, scope, name, value as McpServerConfig, out);
}

function remove(ctx: McpCommandContext, name: string, o: { scope?: string }, out: Out): number {
  const scopes = o.scope ? [parseScope(o.scope)] : WRITE_SCOPES.filter((s) => name in serversIn(s, ctx.cwd, ctx.home));
  if (scopes.length === 0 || (o.scope && !(name in serversIn(scopes[0], ctx.cwd, ctx.home)))) {
    const where = o.scope ? ` in ${show(scopeFile(scopes[0], ctx.cwd, ctx.home), ctx)}` : '';
    throw new Exit(
      1,
      `No MCP server named "${name}"${where}. assistant mcp list shows where each is defined (servers of --mcp-config and of .assistant/settings.json are edited in those files).`,
    );
  }
  if (scopes.length > 1)
    throw new Exit(1, `"${name}" is defined in several scopes (${scopes.join(', ')}): say which with --scope ${scopes.join('|')}.`);
  const file = removeServer(scopes[0], ctx.cwd, ctx.home, name);
  out(`Removed MCP server "${name}" from ${show(file, ctx)}.\n`);
  return 0;
}

const loadOptions = (c: Command) =>
  c
    .option('--settings <file-or-json>', 'an extra settings file (or inline JSON), as for a run')
    .option('--mcp-config <file-or-json>', 'servers for this check only, as for a run (repeatable)', collect, [])
    .option('--strict-mcp-config', 'only the servers of --mcp-config');

/** `assistant mcp …` (SPEC §12). Returns the exit code. */
export async function mcpCommand(
  argv: string[],
  out: Out = (s) => {
    process.stdout.write(s);
  },
  context: Partial<McpCommandContext> = {},
): Promise<number> {
  const ctx: McpCommandContext = {
    cwd: process.cwd(),
    home: homedir(),
    env: process.env,
    err: (s) => {
      process.stderr.write(s);
    },
    ...context,
  };
  let code = 0;
  const program = new Command('assistant mcp')
    .description('Add, list, check and remove MCP servers (docs/mcp.md)')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: ctx.err });
  const scopeOption = () =>
    new Option('-s, --scope <scope>', 'local (this project, you only) | project (.mcp.json, shared) | user (every project)').default(
      'local',
    );
  program
    .command('add')
    .description('add a server: mcp add NAME -- COMMAND [ARGS…], or mcp add --transport http NAME URL')
    .argument('<name>')
    .argument('<command-or-url>')
    .argument('[args...]')
    .addOption(scopeOption())
    .addOption(new Option('-t, --transport <transport>', 'stdio | http | sse').choices(['stdio', 'http', 'sse']).default('stdio'))
    .option('-e, --env <KEY=value>', 'a variable for a stdio server (repeatable)', collect, [])
    .option('-H, --header <"Name: value">', 'a header for an http or sse server (repeatable)', collect, [])
    .allowUnknownOption(true)
    .action((name: string, cmd: string, args: string[], o) => {
      code = add(ctx, name, cmd, args, o, out);
    });
  program
    .command('add-json')
    .description('add a server from its JSON, as written in .mcp.json')
    .argument('<name>')
    .argument('<json>')
    .addOption(scopeOption())
    .action((name: string, json: string, o) => {
      code = addJson(ctx, name, json, o, out);
    });
  loadOptions(program.command('list').description('every configured server, started, with its state and tools')).action(
    async (o: LoadOpts) => {
      code = await list(ctx, o, out);
    },
  );
  loadOptions(
    program.command('get').description('one server: where it is defined, its settings, its state and tools').argument('<name>'),
  ).action(async (name: string, o: LoadOpts) => {
    code = await get(ctx, name, o, out);
  });
  program
    .command('remove')
    .description('remove a server from the file of its scope')
    .argument('<name>')
    .option('-s, --scope <scope>', 'local | project | user (needed when the name is in several)')
    .action((name: string, o: { scope?: string }) => {
      code = remove(ctx, name, o, out);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.help' ? 0 : 2;
    throw e; // Exit and ConfigError carry their exit code to main.ts
  }
  if (argv.length === 0) {
    program.outputHelp();
    return 2;
  }
  return code;
}
