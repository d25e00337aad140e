import type { SettingsSource } from '../config/load.ts';
import { updateLocalSettings } from '../config/local-rules.ts';
import type { McpServerEntry } from './config.ts';

/**
 * Trust for servers a project defines (SPEC §12): a server of `.mcp.json` or of the project's
 * shared `.assistant/settings.json` starts only once the user approved it, so a cloned repository
 * never runs a command the user did not accept. Servers of the user's own files and of the
 * command line need no approval.
 */

export interface McpApprovals {
  /** `enabledMcpjsonServers` of the user's own files. */
  enabled: ReadonlySet<string>;
  /** `disabledMcpjsonServers` of any file: turning a server down is safe from anywhere. */
  disabled: ReadonlySet<string>;
  /** `enableAllProjectMcpServers` of the user's own files. */
  all: boolean;
  warnings: string[];
}

/**
 * The approvals in force. Only the user's own files count for approving (user, local,
 * `--settings`): a project's shared settings that approve its own servers are ignored, with a
 * warning, as Claude Code ignores them.
 */
export function mcpApprovals(sources: readonly SettingsSource[]): McpApprovals {
  const enabled = new Set<string>();
  const disabled = new Set<string>();
  let all = false;
  const warnings: string[] = [];
  for (const s of sources) {
    for (const n of s.settings.disabledMcpjsonServers ?? []) disabled.add(n);
    const approves = s.settings.enabledMcpjsonServers?.length || s.settings.enableAllProjectMcpServers !== undefined;
    if (s.scope === 'project') {
      if (approves)
        warnings.push(
          `${s.file}: "enabledMcpjsonServers" and "enableAllProjectMcpServers" are ignored in the project's shared settings (a repository cannot approve its own servers); put them in .assistant/settings.local.json`,
        );
      continue;
    }
    for (const n of s.settings.enabledMcpjsonServers ?? []) enabled.add(n);
    if (s.settings.enableAllProjectMcpServers !== undefined) all = s.settings.enableAllProjectMcpServers;
  }
  return { enabled, disabled, all, warnings };
}

type Admission = { state: 'allowed' } | { state: 'disabled'; reason: string } | { state: 'needs-approval' };

/** May this server start? A turned-down server never starts; a shared one needs an approval. Pure. */
export function admission(entry: Pick<McpServerEntry, 'name' | 'shared'>, approvals: McpApprovals): Admission {
  if (!entry.shared) return { state: 'allowed' };
  if (approvals.disabled.has(entry.name)) return { state: 'disabled', reason: `turned down in "disabledMcpjsonServers"` };
  if (approvals.all || approvals.enabled.has(entry.name)) return { state: 'allowed' };
  return { state: 'needs-approval' };
}

/**
 * The warning a headless run writes for a server it did not start because nobody approved it:
 * which server, from where, and the setting that would approve it.
 */
export function skippedWarning(entry: Pick<McpServerEntry, 'name' | 'file'>, projectRoot: string): string {
  const where = entry.file.startsWith(`${projectRoot}/`) ? entry.file.slice(projectRoot.length + 1) : entry.file;
  return (
    `MCP server "${entry.name}" (${where}) was not started: the project defines it and it is not approved. ` +
    `To approve it, add "enabledMcpjsonServers": ["${entry.name}"] (or "enableAllProjectMcpServers": true) to .assistant/settings.local.json, ` +
    `or answer the question in an interactive session.`
  );
}

type ApprovalChoice = { approve: string } | { approveAll: true } | { reject: string };

/**
 * Records an answer to the approval question in `.assistant/settings.local.json` (created and
 * gitignored if need be): approving moves the name into `enabledMcpjsonServers` (out of
 * `disabledMcpjsonServers`), rejecting the other way; "all of this project" sets
 * `enableAllProjectMcpServers`. Returns the file. Throws ConfigError if the file is broken.
 */
export function recordMcpApproval(projectRoot: string, choice: ApprovalChoice): string {
  return updateLocalSettings(projectRoot, (json) => {
    const list = (key: string) => (Array.isArray(json[key]) ? json[key] : []) as string[];
    const move = (name: string, into: string, outOf: string) => {
      json[into] = [...new Set([...list(into), name])];
      const rest = list(outOf).filter((n) => n !== name);
      if (rest.length) json[outOf] = rest;
      else delete json[outOf];
    };
    if ('approveAll' in choice) json.enableAllProjectMcpServers = true;
    else if ('approve' in choice) move(choice.approve, 'enabledMcpjsonServers', 'disabledMcpjsonServers');
    else move(choice.reject, 'disabledMcpjsonServers', 'enabledMcpjsonServers');
  });
}
