import type { Decision } from './modes.ts';

/**
 * Whole-tool rules (`Read`, `Bash`) until the permissions issue brings specifiers and the shell
 * splitter. A rule with a specifier is not applied yet, and the user is told so rather than
 * trusting a guard that does nothing.
 */
export interface SimpleRules { allow: Set<string>; deny: Set<string> }

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export function simpleRules(allow: string[], deny: string[]): { rules: SimpleRules; warnings: string[] } {
  const warnings: string[] = [];
  const pick = (list: string[], kind: string) => {
    const out = new Set<string>();
    for (const r of list) {
      if (TOOL_NAME.test(r)) out.add(r);
      else warnings.push(`${kind} rule "${r}" is not applied: rules with a specifier are not supported in this version; only whole-tool rules like "Read" or "Bash" are.`);
    }
    return out;
  };
  return { rules: { allow: pick(allow, 'allow'), deny: pick(deny, 'deny') }, warnings };
}

/** deny → mode's refusal (Plan Mode) → allow → mode default (SPEC §11.5). */
export function applySimpleRules(tool: string, byMode: Decision, rules: SimpleRules | undefined): Decision {
  if (rules?.deny.has(tool)) return { behavior: 'deny', reason: `${tool} is denied by a permission rule ("${tool}").` };
  if (byMode.behavior === 'deny') return byMode;
  if (rules?.allow.has(tool)) return { behavior: 'allow', reason: `allowed by the rule "${tool}"` };
  return byMode;
}
