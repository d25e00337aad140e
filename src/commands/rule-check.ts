import { decide, type RuledDecision } from '../permissions/decide.ts';
import { fsLookup } from '../permissions/look.ts';
import type { PermissionMode } from '../permissions/modes.ts';
import type { GuardedPath } from '../permissions/protected.ts';
import { buildRules, type RuleSet } from '../permissions/rules.ts';
import { initShellParser, splitCommand } from '../permissions/shell/parser.ts';
import type { ExpandContext } from './expand.ts';

/** The session's permissions a `` !`cmd` `` is decided under. */
export interface SessionPermissions {
  /** Project root: where the command runs. */
  cwd: string;
  home: string;
  mode: PermissionMode;
  additionalDirs: readonly string[];
  /** The merged rules of every settings file and the command line. */
  rules: RuleSet;
  /** The session's protected hook scripts and git directories (SPEC §11.16). */
  guarded?: readonly GuardedPath[];
}

/**
 * The real permission check `expandCommand` needs (SPEC §5, §6): a `` !`cmd` `` is decided like a
 * Bash call of the session, in its mode, under its rules with the command's allowed-tools added to
 * allow. So deny rules (settings, --disallowed-tools), then Plan Mode, then ask rules, then allow
 * rules apply, and `Bash(git status:*)` does not cover `git status && rm x`.
 */
export async function bashRuleCheck(p: SessionPermissions): Promise<ExpandContext['check']> {
  await initShellParser();
  return (command, cmd): RuledDecision => {
    const granted = buildRules([{ kind: 'allow', rules: cmd.allowedTools, source: `${cmd.file} allowed-tools` }]).rules;
    const rules: RuleSet = { allow: [...p.rules.allow, ...granted.allow], ask: p.rules.ask, deny: p.rules.deny };
    return decide(
      'Bash',
      { command },
      {
        mode: p.mode,
        projectRoot: p.cwd,
        additionalDirs: p.additionalDirs,
        home: p.home,
        rules,
        shell: splitCommand(command),
        guarded: p.guarded,
        look: fsLookup,
      },
    );
  };
}
