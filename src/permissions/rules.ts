/**
 * Permission rules as data: `Tool` or `Tool(specifier)` in allow / ask / deny lists, from every
 * settings file and the command line (SPEC §5). Parsing only; decisions live in decide.ts.
 */
import { closest } from '../text/did-you-mean.ts';
import { unmatchablePattern } from './paths.ts';
import type { ToolKinds } from '../tools/types.ts';

export type RuleKind = 'allow' | 'ask' | 'deny';

/** The tools rules may name, by kind (tools/kinds.ts `ruleTools`), and those a warning lists. */
export interface RuleTools {
  kinds: ToolKinds;
  listed: readonly string[];
}

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
function unknownToolWarning(rule: Rule, tools: RuleTools): string | undefined {
  if (tools.kinds.has(rule.tool) || rule.tool.startsWith('mcp__')) return undefined;
  const guess = closest(rule.tool, [...tools.kinds.keys()]);
  const fixed = guess && (rule.specifier === undefined ? guess : `${guess}(${rule.specifier})`);
  return `rule "${rule.text}" names no tool, so it never matches${fixed ? ` (did you mean "${fixed}"?)` : ''}; tools: ${tools.listed.join(', ')}`;
}

export interface RuleList {
  kind: RuleKind;
  rules: string[];
  source: string;
  /** Where rule `n` is written (`file:line:col`), for messages; `source` when not given. */
  at?: (n: number) => string;
}

/**
 * Builds a rule set from lists; malformed rules are errors and, given the `tools` rules may name,
 * rules naming an unknown tool or a path pattern that never matches are warnings, each prefixed
 * with where the rule is written. Nothing is silently dropped.
 */
export function buildRules(lists: RuleList[], tools?: RuleTools): { rules: RuleSet; errors: string[]; warnings: string[] } {
  const rules = emptyRules();
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const { kind, rules: texts, source, at } of lists) {
    texts.forEach((t, n) => {
      const where = at?.(n) ?? source;
      const r = parseRule(t, kind, source);
      if (typeof r === 'string') {
        errors.push(`${where}: ${r}`);
        return;
      }
      rules[kind].push(r);
      const w = tools && unknownToolWarning(r, tools);
      if (w) warnings.push(`${where}: ${w}`);
      const why = r.specifier !== undefined && tools?.kinds.get(r.tool)?.family ? unmatchablePattern(r.specifier) : undefined;
      if (why) warnings.push(`${where}: rule "${r.text}" never matches: ${why}`);
    });
  }
  return { rules, errors, warnings };
}

/** The rule lists of settings files (allow, ask, deny of each, in file order), with each rule's line and column. */
export function settingsRuleLists(
  sources: ReadonlyArray<{
    file: string;
    settings: { permissions?: Partial<Record<RuleKind, string[]>> };
    locate?: (path: ReadonlyArray<string | number>) => { line: number; column: number };
  }>,
): RuleList[] {
  const lists: RuleList[] = [];
  for (const s of sources) {
    for (const kind of ['allow', 'ask', 'deny'] as const) {
      const at =
        s.locate &&
        ((n: number) => {
          const { line, column } = s.locate!(['permissions', kind, n]);
          return `${s.file}:${line}:${column}`;
        });
      lists.push({ kind, rules: s.settings.permissions?.[kind] ?? [], source: s.file, at });
    }
  }
  return lists;
}

/**
 * Does a rule name this tool, directly or through the tool's rule `family` (ToolDef `family`:
 * `Edit(…)` rules cover Write, `Read(…)` rules cover Grep, Glob and LS)?
 */
export function ruleTool(rule: Rule, tool: string, family?: string): boolean {
  return rule.tool === tool || (family !== undefined && rule.tool === family);
}

/** Words of a Bash specifier: `git:*` and `git *` are the prefix `git`; `*` elsewhere is a wildcard. */
function bashPattern(spec: string): { prefix?: string; glob?: RegExp; exact?: string } {
  const s = spec.trim();
  if (s === '*' || s === ':*') return { glob: /^[\s\S]*$/ };
  if (s.endsWith(':*') && !s.slice(0, -2).includes('*')) return { prefix: s.slice(0, -2).trim() };
  if (s.endsWith(' *') && !s.slice(0, -2).includes('*')) return { prefix: s.slice(0, -2).trim() };
  if (s.includes('*')) {
    const re = s
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*');
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
