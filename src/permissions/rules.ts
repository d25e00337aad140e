/**
 * Permission rules as data: `Tool` or `Tool(specifier)` in allow / ask / deny lists, from every
 * settings file and the command line (SPEC §5). Parsing only; decisions live in decide.ts.
 */
export type RuleKind = 'allow' | 'ask' | 'deny';

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

const RULE = /^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$/s;

/** Parses one rule; returns an error message for a malformed one. */
export function parseRule(text: string, kind: RuleKind, source: string): Rule | string {
  const m = RULE.exec(text.trim());
  if (!m) return `"${text}" is not a rule: write Tool or Tool(specifier), e.g. Bash(git:*) or Edit(src/**)`;
  const specifier = m[2]?.trim();
  if (specifier === '') return { kind, tool: m[1], text, source };
  return { kind, tool: m[1], specifier, text, source };
}

/** Builds a rule set from lists; malformed rules are reported, never silently dropped. */
export function buildRules(lists: Array<{ kind: RuleKind; rules: string[]; source: string }>): { rules: RuleSet; errors: string[] } {
  const rules = emptyRules();
  const errors: string[] = [];
  for (const { kind, rules: texts, source } of lists) {
    for (const t of texts) {
      const r = parseRule(t, kind, source);
      if (typeof r === 'string') errors.push(`${source}: ${r}`);
      else rules[kind].push(r);
    }
  }
  return { rules, errors };
}

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
