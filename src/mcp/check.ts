import type { LoadedSettings } from '../config/load.ts';
import { loadMcpConfig, type McpConfig } from './config.ts';
import type { McpServerStatus } from './connection.ts';
import { mcpLimits } from './limits.ts';
import { McpManager } from './manager.ts';
import type { ToolNameMapping } from './names.ts';
import { mcpApprovals } from './trust.ts';

interface CheckInput {
  projectRoot: string;
  cwd: string;
  settings: LoadedSettings;
  mcpConfig?: readonly string[];
  strict?: boolean;
  /** The process environment (settings `env` is laid over it). */
  env: Readonly<Record<string, string | undefined>>;
  version: string;
  /** Only these servers (`mcp get NAME`). */
  only?: string;
}

export interface CheckResult {
  config: McpConfig;
  statuses: McpServerStatus[];
  names: ToolNameMapping[];
  warnings: string[];
}

/**
 * Starts every configured server that may start (approved ones; a check never approves), waits
 * for them (MCP_TIMEOUT), and ends them: what `mcp list`, `mcp get` and `doctor` show. Throws
 * ConfigError for a broken `.mcp.json` or `--mcp-config`.
 */
export async function checkServers(input: CheckInput): Promise<CheckResult> {
  const config = loadMcpConfig(input);
  const servers = input.only === undefined ? config.servers : config.servers.filter((s) => s.name === input.only);
  const env = { ...input.env, ...input.settings.merged.env };
  const { limits, warnings } = mcpLimits(env);
  const approvals = mcpApprovals(input.settings.sources);
  const mcp = new McpManager({
    config: { ...config, servers },
    approvals,
    env,
    cwd: input.projectRoot,
    clientInfo: { name: 'assistant', version: input.version },
    limits,
  });
  try {
    mcp.start();
    await mcp.whenSettled(limits.startTimeoutMs + 1000);
    return { config, statuses: mcp.statuses(), names: mcp.toolNames(), warnings: [...config.warnings, ...approvals.warnings, ...warnings] };
  } finally {
    await mcp.close();
  }
}
