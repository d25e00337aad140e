/**
 * Permission rules as data: `Tool` or `Tool(specifier)` in allow / ask / deny lists, from every
 * settings file and the command line (SPEC §5). Parsing only; decisions live in decide.ts.
 */
import { closest } from '../text/did-you-mean.ts';
import { unmatchablePattern } from './paths.ts';

export type RuleKind = 'allow' | 'ask' | 'deny';

/** The tools rules can name (tools/registry.ts's builtinTools; a test keeps the two equal). */
export const TOOL_NAMES: readonly string[] = ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob', 'LS'];
/** Tools each session makes for itself (SPEC §14): rules may name them too. */
export const SESSION_TOOL_NAMES: readonly string[] = ['Task', 'TodoWrite', 'WebFetch', 'WebSearch'];

export interface Rule {
  kind: RuleKind;
  tool: string;
  /** Undefined: the whole tool. */
  specifier?: string;
  /** The rule as written, and where (a settings file or a command-line flag). */
  text: string;
  source: string;
}

export interface RuleSet {
  allow: Rule[];
  ask: Rule[];
  deny: Rule[];
}

export const emptyRules = (): RuleSet => ({ allow: [], ask: [], deny: [] });

const RULE = /^([A-Za-z][A-Za-z0-9_-]*\*?)(?:\((.*)\))?$/s;

/** Parses one rule; returns an error message for a malformed one. */
export function parseRule(text: string, kind: RuleKind, source: string): Rule | string {
  const m = RULE.exec(text.trim());
  if (!m) return `"${text}" is not a rule: write Tool or Tool(specifier), e.g. Bash(git:*) or Edit(src/**)`;
  const specifier = m[2]?.trim();
  if (specifier === '') return { kind, tool: m[1], text, source };
  return { kind, tool: m[1], specifier, text, source };
}

/**
 * A warning for a well-formed rule that names no tool we have (`Frob`, `bash(ls:*)`): it would
 * never match, silently. MCP tools (`mcp__server__tool`) are left alone.
 */
export function unknownToolWarning(rule: Rule): string | undefined {
  if (TOOL_NAMES.includes(rule.tool) || SESSION_TOOL_NAMES.includes(rule.tool) || rule.tool.startsWith('mcp__')) return undefined;
  const guess = closest(rule.tool, [...TOOL_NAMES, ...SESSION_TOOL_NAMES]);
  const fixed = guess && (rule.specifier === undefined ? guess : `${guess}(${rule.specifier})`);
  return `rule "${rule.text}" names no tool, so it never matches${fixed ? ` (did you mean "${fixed}"?)` : ''}; tools: ${TOOL_NAMES.join(', ')}`;
}

export interface RuleList {
  kind: RuleKind;
  rules: string[];
  source: string;
  /** Where rule `n` is written (`file:line:col`), for messages; `source` when not given. */
  at?: (n: number) => string;
}

/**
 * Builds a rule set from lists; malformed rules are errors and rules naming an unknown tool are
 * warnings, each prefixed with where the rule is written. Nothing is silently dropped.
 */
export function buildRules(lists: RuleList[]): { rules: RuleSet; errors: string[]; warnings: string[] } {
  const rules = emptyRules();
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const { kind, rules: texts, source, at } of lists) {
    texts.forEach((t, n) => {
      const where = at?.(n) ?? source;
      const r = parseRule(t, kind, source);
      if (typeof r === 'string') { errors.push(`${where}: ${r}`); return; }
      rules[kind].push(r);
      const w = unknownToolWarning(r);
      if (w) warnings.push(`${where}: ${w}`);
      const why = r.specifier !== undefined && PATH_TOOLS.has(r.tool) ? unmatchablePattern(r.specifier) : undefined;
      if (why) warnings.push(`${where}: rule "${r.text}" never matches: ${why}`);
    });
  }
  return { rules, errors, warnings };
}

/** The rule lists of settings files (allow, ask, deny of each, in file order), with each rule's line and column. */
export function settingsRuleLists(sources: ReadonlyArray<{
  file: string;
  settings: { permissions?: Partial<Record<RuleKind, string[]>> };
  locate?: (path: ReadonlyArray<string | number>) => { line: number; column: number };
}>): RuleList[] {
  const lists: RuleList[] = [];
  for (const s of sources) {
    for (const kind of ['allow', 'ask', 'deny'] as const) {
      const at = s.locate && ((n: number) => { const { line, column } = s.locate!(['permissions', kind, n]); return `${s.file}:${line}:${column}`; });
      lists.push({ kind, rules: s.settings.permissions?.[kind] ?? [], source: s.file, at });
    }
  }
  return lists;
}

/** Tools whose specifier is a path pattern. */
const PATH_TOOLS = new Set(['Read', 'Edit', 'Write', 'Grep', 'Glob', 'LS']);

/** Tools whose rules share path patterns: Edit rules cover Write; Read rules cover the read-only file tools. */
export const EDIT_FAMILY = new Set(['Edit', 'Write']);
export const READ_FAMILY = new Set(['Read', 'Grep', 'Glob', 'LS']);

/** Does a rule name this tool (directly or through its family)? */
export function ruleTool(rule: Rule, tool: string): boolean {
  if (rule.tool === tool) return true;
  if (rule.tool === 'Edit' && EDIT_FAMILY.has(tool)) return true;
  if (rule.tool === 'Read' && READ_FAMILY.has(tool)) return true;
  return false;
}

/** Words of a Bash specifier: `git:*` and `git *` are the prefix `git`; `*` elsewhere is a wildcard. */
export function bashPattern(spec: string): { prefix?: string; glob?: RegExp; exact?: string } {
  const s = spec.trim();
  if (s === '*' || s === ':*') return { glob: /^[\s\S]*$/ };
  if (s.endsWith(':*') && !s.slice(0, -2).includes('*')) return { prefix: s.slice(0, -2).trim() };
  if (s.endsWith(' *') && !s.slice(0, -2).includes('*')) return { prefix: s.slice(0, -2).trim() };
  if (s.includes('*')) {
    const re = s.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*');
    return { glob: new RegExp(`^${re}$`) };
  }
  return { exact: s };
}

/** Matches one simple command's normalised text (`program arg…`) against a Bash specifier. */
export function matchesBash(spec: string, text: string): boolean {
  const p = bashPattern(spec);
  if (p.prefix !== undefined) return text === p.prefix || text.startsWith(`${p.prefix} `);
  if (p.glob) return p.glob.test(text);
  return text === p.exact;
}

/**
 * Does a rule's tool name select this tool (SPEC §12)? Exact names, and for MCP tools:
 * `mcp__github` (every tool of the server), `mcp__github__*` (a prefix), `mcp__github__create_issue`.
 */
export function ruleNamesTool(ruleTool: string, tool: string): boolean {
  if (ruleTool === tool) return true;
  if (!ruleTool.startsWith('mcp__') || !tool.startsWith('mcp__')) return false;
  if (ruleTool.endsWith('*')) return tool.startsWith(ruleTool.slice(0, -1));
  return !ruleTool.slice(5).includes('__') && tool.startsWith(`${ruleTool}__`);
}
