import { decide } from '../permissions/decide.ts';
import { buildRules } from '../permissions/rules.ts';
import { initShellParser, splitCommand } from '../permissions/shell/parser.ts';
import type { ExpandContext } from './expand.ts';

/**
 * The real permission check `expandCommand` needs: whether one Bash rule of a command's
 * allowed-tools (from `source`, its file) allows a `` !`cmd` `` — split and decided as in Normal
 * mode, so `Bash(git status:*)` does not cover `git status && rm x`.
 */
export async function bashRuleCheck(source: string, cwd: string, home: string): Promise<ExpandContext['isAllowed']> {
  await initShellParser();
  return (rule, command) => {
    const { rules } = buildRules([{ kind: 'allow', rules: [rule], source }]);
    return decide('Bash', { command }, { mode: 'normal', projectRoot: cwd, additionalDirs: [], home, rules, shell: splitCommand(command) }).behavior === 'allow';
  };
}
