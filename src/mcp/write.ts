import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSettings } from '../config/load.ts';
import { updateLocalSettings } from '../config/local-rules.ts';
import { mcpJsonPath, parseMcpJson } from './config.ts';
import type { McpServerConfig } from './schema.ts';
import { replaceFileSync } from '../fs/atomic-write.ts';

/**
 * Where `assistant mcp add|remove --scope` writes (SPEC §12, Claude Code's scopes): `local` (the
 * default) is this project for this user only, `.assistant/settings.local.json` (gitignored);
 * `project` is `.mcp.json`, shared with the team; `user` is `~/.assistant/settings.json`, every
 * project.
 */
export type WriteScope = 'local' | 'project' | 'user';
export const WRITE_SCOPES: readonly WriteScope[] = ['local', 'project', 'user'];

export function scopeFile(scope: WriteScope, projectRoot: string, home: string): string {
  return scope === 'project'
    ? mcpJsonPath(projectRoot)
    : scope === 'user'
      ? join(home, '.assistant', 'settings.json')
      : join(projectRoot, '.assistant', 'settings.local.json');
}

type Servers = Record<string, unknown>;

/**
 * Reads, changes and writes the file of `scope`, keeping every other key. A broken file is
 * reported (ConfigError, exit 2), never overwritten. Returns the file.
 */
function edit(scope: WriteScope, projectRoot: string, home: string, change: (servers: Servers) => void): string {
  if (scope === 'local') {
    return updateLocalSettings(projectRoot, (json) => {
      const servers = (json.mcpServers ?? {}) as Servers;
      change(servers);
      json.mcpServers = servers;
    });
  }
  const file = scopeFile(scope, projectRoot, home);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (scope === 'project') parseMcpJson(file, text || '{}', []);
  else parseSettings(file, text || '{}', []);
  const body = text.replace(/^\uFEFF/, '');
  const json = (body.trim() === '' ? {} : JSON.parse(body)) as Record<string, unknown>;
  const servers = (json.mcpServers ?? {}) as Servers;
  change(servers);
  json.mcpServers = servers;
  mkdirSync(dirname(file), { recursive: true });
  replaceFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return file;
}

/** The servers written in the file of `scope` (for `mcp remove` and `mcp add`'s duplicate check). */
export function serversIn(scope: WriteScope, projectRoot: string, home: string): Record<string, McpServerConfig> {
  const file = scopeFile(scope, projectRoot, home);
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  return scope === 'project' ? parseMcpJson(file, text, []) : (parseSettings(file, text, []).mcpServers ?? {});
}

/** Adds a server to the file of `scope`; an existing name there is an error (remove it first). */
export function addServer(scope: WriteScope, projectRoot: string, home: string, name: string, server: McpServerConfig): string {
  const file = scopeFile(scope, projectRoot, home);
  if (name in serversIn(scope, projectRoot, home)) {
    throw Object.assign(
      new Error(
        `an MCP server named "${name}" is already in ${file}: remove it first (assistant mcp remove ${name} --scope ${scope}), or choose another name.`,
      ),
      { exitCode: 1 },
    );
  }
  return edit(scope, projectRoot, home, (servers) => {
    servers[name] = server;
  });
}

/** Removes a server from the file of `scope`. Returns the file. */
export function removeServer(scope: WriteScope, projectRoot: string, home: string, name: string): string {
  return edit(scope, projectRoot, home, (servers) => {
    delete servers[name];
  });
}
