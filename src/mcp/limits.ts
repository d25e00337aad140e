/** The limits a user sets through the environment, with Claude Code's names (SPEC §12). */
export interface McpLimits {
  /** MCP_TIMEOUT, ms: starting a server (spawn, initialize, the first tools/list). */
  startTimeoutMs: number;
  /** MCP_TOOL_TIMEOUT, ms: one tool call. */
  toolTimeoutMs: number;
  /** MAX_MCP_OUTPUT_TOKENS: what one tool result may give the model. */
  maxOutputTokens: number;
}

export const DEFAULT_LIMITS: McpLimits = { startTimeoutMs: 30_000, toolTimeoutMs: 10 * 60_000, maxOutputTokens: 25_000 };

/**
 * Reads the limits from `env` (the process's, with settings `env` over it). A value that is not a
 * positive number is reported and the default used: a typo must not turn a limit off.
 */
export function mcpLimits(env: Readonly<Record<string, string | undefined>>): { limits: McpLimits; warnings: string[] } {
  const warnings: string[] = [];
  const read = (key: string, fallback: number): number => {
    const raw = env[key]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (Number.isFinite(n) && n > 0) return n;
    warnings.push(`${key}="${raw}" is not a positive number; using ${fallback}`);
    return fallback;
  };
  return {
    limits: {
      startTimeoutMs: read('MCP_TIMEOUT', DEFAULT_LIMITS.startTimeoutMs),
      toolTimeoutMs: read('MCP_TOOL_TIMEOUT', DEFAULT_LIMITS.toolTimeoutMs),
      maxOutputTokens: Math.floor(read('MAX_MCP_OUTPUT_TOKENS', DEFAULT_LIMITS.maxOutputTokens)),
    },
    warnings,
  };
}
