import type { LoadedSettings } from '../config/load.ts';
import { loadMcpConfig, type McpServerEntry } from './config.ts';
import type { McpManager } from './manager.ts';
import { admission, mcpApprovals } from './trust.ts';

/**
 * A session's MCP servers (SPEC §12): configuration is read at once (a broken `.mcp.json` stops the
 * run, exit 2); when no server is configured nothing else of MCP loads, so such a session starts
 * as fast as one without MCP. Otherwise the manager (and, on the first start, the SDK) is loaded
 * and every allowed server starts in the background: the session offers their tools once they
 * are up, and the first model request waits only for the ones still starting (MCP_TIMEOUT).
 */

interface SessionMcpInput {
  projectRoot: string;
  settings: LoadedSettings;
  /** `--mcp-config` values and `--strict-mcp-config`. */
  mcpConfig?: readonly string[];
  strict?: boolean;
  /** The process's environment with settings `env` over it. */
  env: Readonly<Record<string, string | undefined>>;
  version: string;
  /** Headless: unapproved project servers are reported, one warning each. */
  interactive: boolean;
  /** Where a server that fails during the session is reported (name, cause, last output). */
  warn(message: string): void;
}

interface SessionMcp {
  manager?: McpManager;
  /** Problems of the configuration and, headless, the servers skipped for want of approval. */
  warnings: string[];
}

/** Opens the servers of a session. Throws ConfigError (exit 2) for a broken `.mcp.json` or `--mcp-config`. */
export async function openSessionMcp(input: SessionMcpInput): Promise<SessionMcp> {
  const config = loadMcpConfig({
    projectRoot: input.projectRoot,
    cwd: input.projectRoot,
    settings: input.settings,
    mcpConfig: input.mcpConfig,
    strict: input.strict,
  });
  if (config.servers.length === 0) return { warnings: config.warnings };
  const [{ McpManager }, { mcpLimits }] = await Promise.all([import('./manager.ts'), import('./limits.ts')]);
  const approvals = mcpApprovals(input.settings.sources);
  const { limits, warnings } = mcpLimits(input.env);
  const manager = new McpManager({
    config,
    approvals,
    env: input.env,
    cwd: input.projectRoot,
    clientInfo: { name: 'assistant', version: input.version },
    limits,
  });
  const reported = new Set<string>();
  manager.subscribe(() => {
    for (const s of manager.statuses()) {
      if (s.state !== 'failed') {
        reported.delete(s.name);
        continue;
      }
      if (reported.has(s.name)) continue;
      reported.add(s.name);
      const log = s.log
        .slice(-5)
        .map((l) => `\n  ${l}`)
        .join('');
      input.warn(
        `MCP server "${s.name}" failed: ${s.error}; its tools are not offered.${log ? ` Its last output:${log}` : ''} (/mcp or "assistant mcp get ${s.name}" to check it)`,
      );
    }
  });
  manager.start();
  return {
    manager,
    warnings: [...config.warnings, ...approvals.warnings, ...warnings, ...(input.interactive ? [] : manager.skippedWarnings())],
  };
}

/**
 * The project servers the user has not yet approved nor turned down: the terminal UI asks about
 * each once, before the session starts. Pure but for reading `.mcp.json` (no SDK).
 */
export function unapprovedServers(input: Pick<SessionMcpInput, 'projectRoot' | 'settings' | 'mcpConfig' | 'strict'>): McpServerEntry[] {
  const config = loadMcpConfig({
    projectRoot: input.projectRoot,
    cwd: input.projectRoot,
    settings: input.settings,
    mcpConfig: input.mcpConfig,
    strict: input.strict,
  });
  if (config.servers.length === 0) return [];
  const approvals = mcpApprovals(input.settings.sources);
  return config.servers.filter((e) => admission(e, approvals).state === 'needs-approval');
}
