import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { protectedFile } from './protected.ts';
import type { ToolKind } from '../tools/types.ts';
import type { PermissionMode } from './mode-names.ts';

/** The modes' names are in mode-names.ts (the one table; gate.ts exports it). */
export type { PermissionMode };

export type Behavior = 'allow' | 'ask' | 'deny';
export interface Decision {
  behavior: Behavior;
  /** An ask that a hook's "allow" cannot skip: ask rules and protected files (SPEC §4, §11.4). */
  firm?: boolean;
  /** A sentence a person can read: why. */
  reason: string;
  /** What would allow it (for headless refusals). */
  remedy?: string;
}

export interface ModeContext {
  mode: PermissionMode;
  projectRoot: string;
  additionalDirs: readonly string[];
  /** `~` in a path, and where the user's own protected files are. */
  home: string;
  /** What the tool is (its ToolDef's access and rule family); absent: a tool nobody knows, which asks (and Plan Mode refuses). */
  kind?: ToolKind;
}

/** A file-reading tool (the Read family): runs without asking inside the workspace. */
const readsFiles = (k: ToolKind | undefined) => k?.access === 'read' && k.family === 'Read';
/** A file-changing tool (the Edit family): Auto-Accept accepts it inside the workspace. */
const editsFiles = (k: ToolKind | undefined) => k?.access === 'edit' && k.family === 'Edit';
/** What `--add-dir` would make readable: the directory searched, or the file's directory. */
const addDir = (k: ToolKind | undefined, path: string) => (k?.pathIs === 'dir' ? path : dirname(path));

function inside(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The path a file tool concerns, absolute (undefined: none given, i.e. the project root). */
export function toolPath(input: Record<string, unknown>, cwd: string, home: string): string | undefined {
  const raw = (input.file_path ?? input.path) as unknown;
  if (typeof raw !== 'string' || raw === '') return undefined;
  const expanded = raw === '~' || raw.startsWith('~/') ? home + raw.slice(1) : raw;
  return resolve(cwd, expanded);
}

function inWorkspace(p: string | undefined, ctx: ModeContext): boolean {
  if (p === undefined) return true;
  return [ctx.projectRoot, ...ctx.additionalDirs].some((d) => inside(d, p));
}

/** Protected paths live in protected.ts (SPEC §11.16); `protectedFile` is kept here for its callers. */
export { protectedFile };

/** The mode table of SPEC §5, before any rules: what runs, what asks, what is refused. Pure. */
export function decideByMode(tool: string, input: Record<string, unknown>, ctx: ModeContext): Decision {
  const path = toolPath(input, ctx.projectRoot, ctx.home);
  const where = path ? ` ${relative(ctx.projectRoot, path) || '.'}` : '';
  if (ctx.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode runs everything' };
  const kind = ctx.kind;
  if (ctx.mode === 'plan') {
    if (readsFiles(kind)) {
      if (inWorkspace(path, ctx)) return { behavior: 'allow', reason: 'read-only tool in Plan Mode' };
      return { behavior: 'ask', reason: `${tool} of${where} is outside the project`, remedy: `--add-dir ${addDir(kind, path!)}` };
    }
    if (editsFiles(kind) && path === resolve(ctx.projectRoot, 'plan.md'))
      return { behavior: 'allow', reason: 'Plan Mode may write plan.md' };
    // A tool that declares itself read-only (an MCP tool with readOnlyHint) may run in Plan Mode; it asks like any other.
    if (kind?.access === 'read') {
      return { behavior: 'ask', reason: `${tool} is read-only and needs approval`, remedy: `--allowed-tools "${tool}"` };
    }
    // Bash never reaches here: decide.ts splits the command and allows it when every part is read-only.
    return {
      behavior: 'deny',
      reason: `Plan Mode: ${tool}${where} is refused. In Plan Mode only reading, searching, read-only commands and writing plan.md are allowed; write the plan to plan.md and finish.`,
      remedy: 'leave Plan Mode (--permission-mode normal or auto-accept)',
    };
  }
  if (readsFiles(kind)) {
    if (inWorkspace(path, ctx)) return { behavior: 'allow', reason: 'read-only tool inside the project' };
    return { behavior: 'ask', reason: `${tool} of${where} is outside the project`, remedy: `--add-dir ${addDir(kind, path!)}` };
  }
  if (editsFiles(kind)) {
    const guarded = path && protectedFile(path, ctx.projectRoot, ctx.home);
    if (guarded) {
      return {
        behavior: 'ask',
        firm: true,
        reason: `${tool} of${where} changes ${guarded}, which always needs the user's approval`,
        remedy: '--permission-mode bypass (only in a sandbox)',
      };
    }
    if (ctx.mode === 'auto-accept' && inWorkspace(path, ctx))
      return { behavior: 'allow', reason: 'Auto-Accept accepts edits inside the project' };
    return {
      behavior: 'ask',
      reason: inWorkspace(path, ctx)
        ? `${tool} of${where} needs approval in ${ctx.mode} mode`
        : `${tool} of${where} is outside the project`,
      remedy: inWorkspace(path, ctx) ? '--permission-mode auto-accept' : '--permission-mode bypass',
    };
  }
  if (tool.startsWith('mcp__'))
    return { behavior: 'ask', reason: `${tool} (an MCP tool) needs approval in ${ctx.mode} mode`, remedy: `--allowed-tools "${tool}"` };
  return { behavior: 'ask', reason: `${tool} needs approval in ${ctx.mode} mode`, remedy: '--permission-mode bypass' };
}
