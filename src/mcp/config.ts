import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/errors.ts';
import { parseJsonSource, type LoadedSettings, type SettingsSource } from '../config/load.ts';
import { McpJsonSchema, type McpServerConfig } from './schema.ts';

/**
 * Where a server is defined (SPEC §12), lowest precedence first: the user's settings, the
 * project's `.mcp.json`, the project's shared settings, the local settings, `--settings`, and
 * `--mcp-config`. A name defined in several places takes the entry of the highest.
 */
type McpScope = 'user' | 'mcpjson' | 'project' | 'local' | 'flag' | 'cli';

const RANK: Record<McpScope, number> = { user: 0, mcpjson: 1, project: 2, local: 3, flag: 4, cli: 5 };

export interface McpServerEntry {
  name: string;
  scope: McpScope;
  /** The file it is written in (`--mcp-config (inline JSON)` for inline JSON). */
  file: string;
  /** As written; `${VAR}` is expanded when the server starts (mcp/expand.ts). */
  config: McpServerConfig;
  /** Written by the project for everyone who clones it: it starts only once approved (mcp/trust.ts). */
  shared: boolean;
  /** Files whose entry of the same name this one hides. */
  hides: string[];
}

export interface McpConfig {
  servers: McpServerEntry[];
  warnings: string[];
}

interface McpConfigInput {
  projectRoot: string;
  cwd: string;
  settings: LoadedSettings;
  /** `--mcp-config` values: each a file, or inline JSON starting with `{`. */
  mcpConfig?: readonly string[];
  /** `--strict-mcp-config`: only the servers of `--mcp-config`. */
  strict?: boolean;
}

export const mcpJsonPath = (projectRoot: string) => join(projectRoot, '.mcp.json');

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(file, 1, 1, `cannot be read: ${(e as Error).message}`, 'check the file permissions');
  }
}

/** Parses a `.mcp.json`-shaped text; throws ConfigError naming the file, the server and the field (exit 2). */
export function parseMcpJson(file: string, text: string, warnings: string[]): Record<string, McpServerConfig> {
  return parseJsonSource(file, text, warnings, McpJsonSchema, 'the MCP configuration').value.mcpServers ?? {};
}

/** One `--mcp-config` value: a file, or inline JSON. */
function readMcpConfigFlag(value: string, cwd: string, warnings: string[]): { file: string; servers: Record<string, McpServerConfig> } {
  if (value.trim().startsWith('{')) {
    const file = '--mcp-config (inline JSON)';
    return { file, servers: parseMcpJson(file, value, warnings) };
  }
  const file = resolve(cwd, value);
  const text = readIfExists(file);
  if (text === undefined)
    throw new ConfigError(
      file,
      1,
      1,
      'the --mcp-config file does not exist',
      'check the path given to --mcp-config, or pass the JSON itself',
    );
  return { file, servers: parseMcpJson(file, text, warnings) };
}

const SETTINGS_SCOPE: Record<SettingsSource['scope'], McpScope> = { user: 'user', project: 'project', local: 'local', flag: 'flag' };

/**
 * Every configured server, one entry per name (the highest-precedence definition), in the order
 * of first definition. Throws ConfigError for a broken `.mcp.json` or `--mcp-config`; settings
 * files were checked when they were loaded.
 */
export function loadMcpConfig(input: McpConfigInput): McpConfig {
  const warnings: string[] = [];
  const found: Array<Omit<McpServerEntry, 'hides'>> = [];
  const add = (scope: McpScope, file: string, servers: Record<string, McpServerConfig> | undefined) => {
    for (const [name, config] of Object.entries(servers ?? {}))
      found.push({ name, scope, file, config, shared: scope === 'mcpjson' || scope === 'project' });
  };
  if (!input.strict) {
    for (const s of input.settings.sources) add(SETTINGS_SCOPE[s.scope], s.file, s.settings.mcpServers);
    const file = mcpJsonPath(input.projectRoot);
    const text = readIfExists(file);
    if (text !== undefined) add('mcpjson', file, parseMcpJson(file, text, warnings));
  }
  for (const value of input.mcpConfig ?? []) {
    const { file, servers } = readMcpConfigFlag(value, input.cwd, warnings);
    add('cli', file, servers);
  }
  const byName = new Map<string, McpServerEntry>();
  const order: string[] = [];
  for (const f of found) {
    const prev = byName.get(f.name);
    if (!prev) {
      order.push(f.name);
      byName.set(f.name, { ...f, hides: [] });
      continue;
    }
    const [win, lose] = RANK[f.scope] >= RANK[prev.scope] ? [f, prev] : [prev, f];
    byName.set(f.name, { ...win, hides: [...prev.hides, lose.file] });
  }
  return { servers: order.map((n) => byName.get(n)!), warnings };
}
