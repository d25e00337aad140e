/**
 * Tools known by kind: what each ToolDef says it does (access, rule family), as a name → kind map
 * for permissions, modes, verification and the UI, which ask it instead of listing tool names.
 */
import { builtinTools } from './registry.ts';
import { todoWriteTool } from './todo-write.ts';
import type { ToolDef, ToolKind, ToolKinds } from './types.ts';
import { WEB_FETCH_KIND } from './web-fetch.ts';
import { WEB_SEARCH_KIND } from './web-search.ts';

/** The kind a definition declares (no `access`: `other`). */
export function kindOf(def: ToolDef): ToolKind {
  return {
    access: def.access ?? 'other',
    ...(def.family ? { family: def.family } : {}),
    ...(def.pathIs ? { pathIs: def.pathIs } : {}),
    ...(def.noApproval ? { noApproval: true } : {}),
  };
}

/** The Task tool's kind (agent/subagent.ts makes it per session): each of its subagent's calls is decided on its own. */
export const TASK_KIND: ToolKind = { access: 'other', noApproval: true };

/**
 * Tools each session makes for itself (SPEC §14), named here so that rules and agent files may
 * name them before a session exists (WebSearch only where the session's provider has a search tool).
 */
const SESSION_KINDS: ReadonlyArray<[string, ToolKind]> = [
  ['Task', TASK_KIND],
  [todoWriteTool.name, kindOf(todoWriteTool)],
  ['WebFetch', WEB_FETCH_KIND],
  ['WebSearch', WEB_SEARCH_KIND],
];

/** Name → kind of these tools (the session's: built-in, its own and its MCP servers'), in their order. */
export function toolKinds(tools: readonly ToolDef[]): ToolKinds {
  return new Map(tools.map((t) => [t.name, kindOf(t)]));
}

/** Every tool a rule or an agent file may name without a session: the built-in tools, then the session's own. */
export const knownKinds: ToolKinds = new Map([...toolKinds(builtinTools), ...SESSION_KINDS]);

/** Their names, built-in first. */
export const knownToolNames = (): string[] => [...knownKinds.keys()];

/** What rules are checked against (permissions/rules.ts `buildRules`): every known tool; a warning lists the built-in ones. */
export const ruleTools = { kinds: knownKinds, listed: builtinTools.map((t) => t.name) } as const;

/** A read of files whose calls the UI shows as one group ("Read 3 files, searched 2 patterns"). */
export const groupedRead = (kind: ToolKind | undefined): boolean => kind?.access === 'read' && kind.family === 'Read';
