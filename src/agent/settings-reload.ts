import { loadSettings } from '../config/load.ts';
import { collectHooks } from '../hooks/config.ts';
import type { HookSpec } from '../hooks/schema.ts';
import { buildRules, type Rule, type RuleKind, type RuleSet } from '../permissions/rules.ts';
import type { Setup } from './setup.ts';

/**
 * What the settings files say now, compared with what the running session uses (SPEC §4: a change
 * during a session is shown and applied only once the user accepts it, with `/hooks`).
 */
export interface SettingsProposal {
  hooks: HookSpec[];
  rules: RuleSet;
  addedHooks: HookSpec[];
  removedHooks: HookSpec[];
  addedRules: Rule[];
  removedRules: Rule[];
  warnings: string[];
}

const hookKey = (h: HookSpec) => JSON.stringify([h.event, h.matcher ?? '', h.command, h.timeoutMs, h.failClosed, h.source]);
const ruleKey = (r: Rule) => JSON.stringify([r.kind, r.text, r.source]);

/** The rules a session of this set-up starts with: every settings file, then the command line. */
export function rulesOf(sources: Setup['settings']['sources'], opts: Setup['opts']): { rules: RuleSet; errors: string[] } {
  const lists: Array<{ kind: RuleKind; rules: string[]; source: string }> = [];
  for (const s of sources) {
    for (const kind of ['allow', 'ask', 'deny'] as const) lists.push({ kind, rules: s.settings.permissions?.[kind] ?? [], source: s.file });
  }
  lists.push({ kind: 'allow', rules: opts.allowedTools, source: '--allowed-tools' }, { kind: 'deny', rules: opts.disallowedTools, source: '--disallowed-tools' });
  return buildRules(lists);
}

/**
 * Reads the settings files again and lists what differs from `current`. Returns `{error}` when a
 * file is now broken or holds a malformed rule (nothing can be accepted until it is fixed). Pure
 * apart from reading the files.
 */
export function proposeReload(setup: Setup, current: { hooks: readonly HookSpec[]; rules: RuleSet }): SettingsProposal | { error: string } {
  let loaded;
  try { loaded = loadSettings(setup.home, setup.cwd, setup.opts.settings, setup.cwd); } catch (e) { return { error: (e as Error).message }; }
  const { hooks, warnings } = collectHooks(loaded.sources);
  const built = rulesOf(loaded.sources, setup.opts);
  if (built.errors.length) return { error: `Bad permission rules:\n  ${built.errors.join('\n  ')}` };
  const diff = <T>(a: readonly T[], b: readonly T[], key: (x: T) => string) => {
    const keys = new Set(b.map(key));
    return a.filter((x) => !keys.has(key(x)));
  };
  const flat = (r: RuleSet) => [...r.allow, ...r.ask, ...r.deny];
  return {
    hooks, rules: built.rules, warnings: [...loaded.warnings, ...warnings],
    addedHooks: diff(hooks, current.hooks, hookKey), removedHooks: diff(current.hooks, hooks, hookKey),
    addedRules: diff(flat(built.rules), flat(current.rules), ruleKey), removedRules: diff(flat(current.rules), flat(built.rules), ruleKey),
  };
}
