import { loadSettings, type LoadedSettings } from '../config/load.ts';
import type { SettingsWatch } from '../config/watch.ts';
import { collectHooks } from '../hooks/config.ts';
import type { HookSpec } from '../hooks/schema.ts';
import { buildRules, settingsRuleLists, type Rule, type RuleList, type RuleSet } from '../permissions/rules.ts';
import { ruleTools } from '../tools/kinds.ts';

/** What the rules come from: the settings files and the command line (a Setup has both). */
interface RuleSources {
  readonly home: string;
  readonly cwd: string;
  readonly opts: {
    readonly settings?: string;
    readonly allowedTools: readonly string[];
    readonly disallowedTools: readonly string[];
    /** What those two lists are called where they came from (the SDK's options; default the flags). */
    readonly toolListNames?: { readonly allow: string; readonly deny: string };
  };
}

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

/**
 * The rules a session of this set-up starts with: every settings file (each rule located at its
 * file:line:col), then the command line, then `extra` (a custom command's allowed-tools).
 */
export function rulesOf(sources: LoadedSettings['sources'], opts: RuleSources['opts'], extra?: { rules: string[]; source: string }) {
  const lists: RuleList[] = settingsRuleLists(sources);
  lists.push(
    { kind: 'allow', rules: [...opts.allowedTools], source: opts.toolListNames?.allow ?? '--allowed-tools' },
    { kind: 'deny', rules: [...opts.disallowedTools], source: opts.toolListNames?.deny ?? '--disallowed-tools' },
  );
  if (extra) lists.push({ kind: 'allow', ...extra });
  return buildRules(lists, ruleTools);
}

/**
 * Reads the settings files again and lists what differs from `current`. Returns `{error}` when a
 * file is now broken or holds a malformed rule (nothing can be accepted until it is fixed). Pure
 * apart from reading the files.
 */
export function proposeReload(
  setup: RuleSources,
  current: { hooks: readonly HookSpec[]; rules: RuleSet },
): SettingsProposal | { error: string } {
  let loaded;
  try {
    loaded = loadSettings(setup.home, setup.cwd, setup.opts.settings, setup.cwd);
  } catch (e) {
    return { error: (e as Error).message };
  }
  const { hooks, warnings } = collectHooks(loaded.sources);
  const built = rulesOf(loaded.sources, setup.opts);
  if (built.errors.length) return { error: `Bad permission rules:\n  ${built.errors.join('\n  ')}` };
  const diff = <T>(a: readonly T[], b: readonly T[], key: (x: T) => string) => {
    const keys = new Set(b.map(key));
    return a.filter((x) => !keys.has(key(x)));
  };
  const flat = (r: RuleSet) => [...r.allow, ...r.ask, ...r.deny];
  return {
    hooks,
    rules: built.rules,
    warnings: [...loaded.warnings, ...warnings],
    addedHooks: diff(hooks, current.hooks, hookKey),
    removedHooks: diff(current.hooks, hooks, hookKey),
    addedRules: diff(flat(built.rules), flat(current.rules), ruleKey),
    removedRules: diff(flat(current.rules), flat(built.rules), ruleKey),
  };
}

/**
 * Settings files changed during a session (SPEC §4, §11.9): each change is reported once, as a
 * warning, and never applied here: the user reviews it with `/hooks` (interactive), or it waits
 * for the next session (headless).
 */
export class SettingsNotices {
  constructor(
    private readonly watch: SettingsWatch | undefined,
    private readonly interactive: boolean,
    private readonly warn: (message: string) => void,
  ) {}

  report(): void {
    for (const f of this.watch?.changed() ?? []) {
      this.warn(
        this.interactive
          ? `${f} changed during the session; hooks and rules stay as they were until you review the change with /hooks.`
          : `${f} changed during the session; the change is ignored until the next session (hooks and rules stay as they were at start).`,
      );
    }
  }

  /** Reports changes as they happen (a terminal session may sit idle). Returns a function that stops it. */
  follow(intervalMs?: number): () => void {
    return this.watch?.follow(() => this.report(), intervalMs) ?? (() => {});
  }
  /** The user reviewed the changes with `/hooks` and kept the session's settings: not reported again. */
  reviewed(): void {
    this.watch?.reviewed();
  }
  /** The session itself wrote `files` (all: the user accepted what the files say now): not an outside change. */
  acknowledge(files?: string[]): void {
    this.watch?.acknowledge(files);
  }
}
