import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { BUILTIN_COMMANDS } from '../commands/builtins.ts';
import type { LoadedCommands } from '../commands/loader.ts';
import type { Session } from '../agent/session.ts';

/** The session's MCP servers (SPEC §12). */
type McpManager = NonNullable<Session['mcp']>;

/** What Tab offers for the word before the cursor: full replacements for it, and their notes. */
export interface Candidate {
  value: string;
  hint?: string;
  /** Directories are completed without a trailing space. */
  partial?: boolean;
  /** A command that takes arguments: Enter completes it and waits for them instead of running it. */
  args?: boolean;
  /** The command's `argument-hint` (`[file]`), shown in the input once the command is completed. */
  argHint?: string;
}

const MAX = 50;

/** `/he` → `/help`; custom commands by plain name, and `/project:…` `/user:…` when typed so. */
export function slashCandidates(token: string, loaded: LoadedCommands): Candidate[] {
  const typed = token.slice(1);
  const all: Candidate[] = BUILTIN_COMMANDS.map((b) => ({
    value: `/${b.name}`,
    hint: b.description,
    args: !!b.argumentHint,
    argHint: b.argumentHint,
  }));
  const seen = new Set(all.map((c) => c.value));
  for (const c of loaded.commands) {
    for (const name of typed.startsWith(`${c.scope}:`) ? [`${c.scope}:${c.name}`] : [c.name]) {
      if (seen.has(`/${name}`)) continue;
      seen.add(`/${name}`);
      all.push({
        value: `/${name}`,
        hint: `${c.description || '(custom command)'} (${c.scope})`,
        args: !!c.argumentHint,
        argHint: c.argumentHint,
      });
    }
  }
  return all.filter((c) => c.value.startsWith(token)).slice(0, MAX);
}

function gitignores(root: string, dir: string): Array<{ base: string; ig: Ignore }> {
  const out: Array<{ base: string; ig: Ignore }> = [];
  const rel = relative(root, dir);
  const inside = !rel.startsWith('..') && !isAbsolute(rel);
  const dirs = inside
    ? [
        root,
        ...rel
          .split('/')
          .filter(Boolean)
          .map((_, i, parts) => join(root, ...parts.slice(0, i + 1))),
      ]
    : [dir];
  for (const d of dirs) {
    const f = join(d, '.gitignore');
    try {
      if (existsSync(f)) out.push({ base: d, ig: ignore().add(readFileSync(f, 'utf8')) });
    } catch {
      /* unreadable: ignore it */
    }
  }
  return out;
}

/**
 * `@src/co` → `@src/components/`, `@src/config.ts`: entries of the directory typed so far whose
 * names start with the rest, hidden when a .gitignore (from the project root down) ignores them;
 * `.git` is never offered. Never throws.
 */
export function pathCandidates(token: string, cwd: string, home: string): Candidate[] {
  const typed = token.slice(1);
  if (typed.startsWith('"')) return [];
  const slash = typed.lastIndexOf('/');
  const dirPart = slash >= 0 ? typed.slice(0, slash + 1) : '';
  const prefix = slash >= 0 ? typed.slice(slash + 1) : typed;
  const expanded = dirPart.startsWith('~/') ? join(home, dirPart.slice(2)) : dirPart;
  const dir = resolve(cwd, expanded || '.');
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const rules = gitignores(cwd, dir);
  const out: Candidate[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.name.startsWith(prefix) || e.name === '.git') continue;
    if (e.name.startsWith('.') && !prefix.startsWith('.')) continue;
    const isDir = e.isDirectory() || (e.isSymbolicLink() && existsSync(join(dir, e.name)) && safeIsDir(join(dir, e.name)));
    const abs = join(dir, e.name);
    if (
      rules.some(({ base, ig }) => {
        const r = relative(base, abs);
        return r !== '' && !r.startsWith('..') && ig.ignores(r + (isDir ? '/' : ''));
      })
    )
      continue;
    out.push({ value: `@${dirPart}${e.name}${isDir ? '/' : ''}`, partial: isDir });
    if (out.length >= MAX) break;
  }
  return out;
}

function safeIsDir(p: string): boolean {
  try {
    return readdirSync(p) !== undefined;
  } catch {
    return false;
  }
}

/** `@gi` → `@github:`: the connected MCP servers whose name starts with what is typed (their resources follow). */
export function mcpServerCandidates(typed: string, mcp: McpManager | undefined): Candidate[] {
  if (!mcp || !/^[A-Za-z0-9_-]*$/.test(typed)) return [];
  return mcp
    .statuses()
    .filter((s) => s.state === 'connected' && s.name.startsWith(typed))
    .map((s) => ({ value: `@${s.name}:`, hint: 'resources of this MCP server', partial: true }));
}

/**
 * `@github:repo://a` → the resources of the MCP server `github` whose URI starts with what is
 * typed (listed on the first use, `resources/list`, then kept). Undefined when the token names no
 * connected server. Never rejects.
 */
export async function mcpResourceCandidates(token: string, mcp: McpManager | undefined): Promise<Candidate[] | undefined> {
  const m = /^@([A-Za-z0-9_-]+):(.*)$/s.exec(token);
  if (!mcp || !m || !mcp.statuses().some((s) => s.name === m[1] && s.state === 'connected')) return undefined;
  try {
    const list = await mcp.listResources(m[1]);
    return list
      .filter((r) => r.uri.startsWith(m[2]))
      .slice(0, MAX)
      .map((r) => ({ value: `@${m[1]}:${r.uri}`, hint: r.title ?? r.name }));
  } catch {
    return [];
  }
}
