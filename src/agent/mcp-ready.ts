import type { McpManager } from '../mcp/manager.ts';

/**
 * Waits for MCP servers still starting (at most MCP_TIMEOUT, or until `signal`), so the first
 * request offers their tools. A wait that lasts is said: a hung server holds the first request up.
 */
export async function mcpReady(mcp: McpManager | undefined, signal: AbortSignal, warn: (message: string) => void): Promise<void> {
  if (!mcp || signal.aborted) return;
  const slow = setTimeout(() => {
    const names = mcp
      .statuses()
      .filter((x) => x.state === 'starting')
      .map((x) => `"${x.name}"`);
    if (names.length) warn(`waiting for the MCP server${names.length > 1 ? 's' : ''} ${names.join(', ')} to start (at most MCP_TIMEOUT)…`);
  }, 2000);
  await mcpSettled(mcp, signal);
  clearTimeout(slow);
}

/**
 * Waits until every MCP server has connected or failed (at most MCP_TIMEOUT), or until `signal`:
 * stream-json's `system/init` (`-p`, the SDK) reports the servers with their tools, as Claude Code's does.
 */
export async function mcpSettled(mcp: McpManager | undefined, signal: AbortSignal): Promise<void> {
  if (!mcp || signal.aborted) return;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    mcp.whenSettled(),
    new Promise<void>((r) => {
      onAbort = () => r();
      signal.addEventListener('abort', onAbort, { once: true });
    }),
  ]);
  if (onAbort) signal.removeEventListener('abort', onAbort);
}
