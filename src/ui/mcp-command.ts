import type { Session } from '../agent/session.ts';
import type { Controller } from './controller.ts';

/** The session's MCP servers (SPEC §12). */
type McpManager = NonNullable<Session['mcp']>;

/**
 * `/mcp` in the terminal UI (SPEC §12): each server with its state, where it is defined, its tools
 * and, for a failed one, the cause and its last output. `/mcp reconnect NAME` ends it and starts
 * it again.
 */
function mcpStatusText(mcp: McpManager | undefined, projectRoot = ''): string {
  if (!mcp) return 'No MCP servers are configured. Add one with: assistant mcp add NAME -- COMMAND [ARGS…] (docs/mcp.md)';
  const names = mcp.toolNames();
  const lines: string[] = [];
  for (const s of mcp.statuses()) {
    const state =
      s.state === 'connected'
        ? `✓ connected, ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`
        : s.state === 'failed'
          ? `✗ failed: ${s.error}`
          : s.state === 'needs-approval'
            ? '! not approved (restart assistant to be asked, or see docs/mcp.md#trust-servers-a-project-defines)'
            : s.state === 'disabled'
              ? `- disabled (${s.error})`
              : '… starting';
    const file = projectRoot && s.file.startsWith(`${projectRoot}/`) ? s.file.slice(projectRoot.length + 1) : s.file;
    lines.push(`${s.name} (${s.transport}, ${file}): ${state}`);
    if (s.state === 'failed' && s.log.length) lines.push('  last output:', ...s.log.slice(-5).map((l) => `    ${l}`));
    const tools = names.filter((n) => n.server === s.name).map((n) => n.name);
    if (tools.length) lines.push(`  tools: ${tools.join(', ')}`);
  }
  lines.push(
    '',
    'Reconnect one with /mcp reconnect NAME. Run a server prompt with /mcp__SERVER__PROMPT, attach a resource with @SERVER:URI.',
  );
  return lines.join('\n');
}

/** `/mcp [reconnect NAME]`. */
export async function mcpCommand(ctrl: Controller, args: string): Promise<void> {
  const mcp = ctrl.session.mcp;
  const [verb, name] = args.trim().split(/\s+/);
  if (verb === 'reconnect' && mcp) {
    if (!mcp.statuses().some((s) => s.name === name)) {
      ctrl.notice('error', `No MCP server named "${name ?? ''}".`);
      return;
    }
    ctrl.add({ kind: 'output', text: `Reconnecting ${name}…` });
    await mcp.reconnect(name);
  }
  // Servers still starting get a moment (5 s at most): the list is what the user came for.
  await mcp?.whenSettled(5000);
  ctrl.add({ kind: 'output', text: mcpStatusText(mcp, ctrl.setup.cwd) });
}
