import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { SettingsSource } from './load.ts';
import { readState, updateState } from './user-state.ts';

/**
 * Folder trust (SPEC §11.15): the first interactive start in a folder asks whether to trust it
 * before any project hook, `` !`cmd` `` of a project command or `.mcp.json` server runs. The answer
 * lives in the user's own state, `~/.assistant/state.json`, never in the project, so a cloned
 * repository cannot declare itself trusted.
 */

/**
 * Whether `dir` is trusted: it, or a folder above it, was trusted by the user (as in Claude Code,
 * trusting a parent covers what is below it). The home directory itself is never remembered (see
 * `trustFolder`), so trusting it does not trust every project.
 */
export function isTrusted(home: string, dir: string): boolean {
  const target = resolve(dir);
  return (readState(home).trustedFolders ?? []).some((f) => target === f || target.startsWith(f.endsWith(sep) ? f : f + sep));
}

/**
 * Remembers that the user trusts `dir`. Returns false (and remembers nothing) for the home
 * directory or the file system root: that answer holds for this session only, as in Claude Code.
 */
export function trustFolder(home: string, dir: string): boolean {
  const target = resolve(dir);
  if (target === resolve(home) || target === dirname(target)) return false;
  updateState(home, (s) => ({ ...s, trustedFolders: [...new Set([...(s.trustedFolders ?? []), target])].sort() }));
  return true;
}

/**
 * What the folder itself can make run, for the trust question: hook commands from the project's
 * settings files, project commands with `` !`cmd` ``, and `.mcp.json` servers. Each line is short
 * and names where it comes from.
 */
export function projectRunnables(
  projectRoot: string,
  sources: readonly SettingsSource[],
  commandFiles: readonly { file: string; body: string }[],
): string[] {
  const out: string[] = [];
  for (const s of sources) {
    if (s.scope !== 'project' && s.scope !== 'local') continue;
    for (const [event, groups] of Object.entries(s.settings.hooks ?? {})) {
      for (const g of groups ?? []) for (const h of g.hooks ?? []) out.push(`${event} hook: ${h.command}  (${rel(projectRoot, s.file)})`);
    }
  }
  for (const c of commandFiles) if (/!`[^`]+`/.test(c.body)) out.push(`a command that runs shell code: ${rel(projectRoot, c.file)}`);
  const mcp = join(projectRoot, '.mcp.json');
  if (existsSync(mcp)) out.push('MCP servers defined in .mcp.json (each still needs its own approval)');
  return out;
}

const rel = (root: string, file: string) => (file.startsWith(root + sep) ? file.slice(root.length + 1) : file);
