/**
 * Which Bash commands are read-only (SPEC §11.5: Plan Mode runs them, no rule needed inside the
 * workspace), and how a `Bash(…)` rule covers one part of a command.
 */
import { commandText } from './bash-deny.ts';
import { programName } from './paths.ts';
import { matchesBash, type Rule } from './rules.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

/** Read-only commands of SPEC §11.5 (Plan Mode runs them). git only with these subcommands. */
const READ_ONLY = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'rg',
  'find',
  'pwd',
  'echo',
  'which',
  'file',
  'stat',
  'du',
  'tree',
  // Conditions, which change nothing: `[ -d node_modules ] || npm install` needs only npm's rule.
  '[',
  '[[',
  'test',
  'true',
  'false',
  ':',
  // `while read l; do …; done < file`: read only fills a variable (the loop's body is checked on its own).
  'read',
]);
const READ_ONLY_GIT = new Set(['status', 'log', 'diff', 'show', 'branch', 'blame']);
const FIND_WRITES = /^-(exec|execdir|ok|okdir|delete|fprint.*|fls)$/;
/** Version control needs an explicit grant naming it (SPEC §5). */
export const VCS = new Set(['git', 'gh']);

/** Wrappers that run the command as another user (root): an allow rule covers them only when it names them. */
const PRIVILEGED = new Set(['sudo', 'doas', 'pkexec', 'run0', 'su', 'runuser']);

/** The wrapper that runs `c` as another user (`sudo`, `doas`…), if any. */
export function privilegedWrapper(c: SimpleCommand): string | undefined {
  return c.wrappers.map((w) => programName(w.split(/\s+/)[0])).find((w) => PRIVILEGED.has(w));
}

/** Whether a Bash rule covers one part of a command (wrappers seen through, except one that runs as another user). */
export function bashRuleMatches(rule: Rule, c: SimpleCommand): boolean {
  if (rule.tool !== 'Bash') return false;
  // `sudo ls` is not covered by `Bash(ls:*)` (nor by a bare `Bash`): only by a rule naming sudo (`Bash(sudo ls:*)`).
  const priv = rule.kind === 'allow' ? privilegedWrapper(c) : undefined;
  if (rule.specifier === undefined) return (!VCS.has(c.program) && !priv) || rule.kind !== 'allow';
  const [first, ...rest] = rule.specifier.trim().split(/\s+/);
  const spec = [programName(first.replace(/:\*$/, '')) + (first.endsWith(':*') ? ':*' : ''), ...rest].join(' ');
  if (priv) return new RegExp(`^${priv}(\\s|:|$)`).test(spec) && matchesBash(spec, `${priv} ${commandText(c)}`);
  if (rule.kind === 'allow' && VCS.has(c.program) && !new RegExp(`^${c.program}(\\s|:|$)`).test(spec)) return false;
  return matchesBash(spec, commandText(c));
}

/**
 * Variables a read-only command may be given (`LANG=C grep …`): any other can make it write a
 * file (`GIT_TRACE=/tmp/x git status`, `LESSHISTFILE`) or run code, so it is then not read-only.
 */
const HARMLESS_ENV =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|TERM|COLUMNS|LINES|GREP_COLOR|GREP_COLORS|LS_COLORS|TIME_STYLE|POSIXLY_CORRECT)=/;
const READ_ONLY_WRAPPERS = new Set(['time', 'command']);

/** A part on the read-only list of SPEC §11.5, with no writing redirection, wrapper or option. */
export function isReadOnly(c: SimpleCommand): boolean {
  if (c.redirects.some((r) => r.writes && r.target !== '/dev/null')) return false;
  if (c.code || c.inPlace) return false;
  if (!c.wrappers.every((w) => READ_ONLY_WRAPPERS.has(w) || HARMLESS_ENV.test(w))) return false;
  if (c.program === 'git') {
    const sub = c.args.find((a) => !a.startsWith('-')) ?? '';
    if (!READ_ONLY_GIT.has(sub) || c.args.some((a) => a.startsWith('--output') || a === '--ext-diff' || a.startsWith('--textconv')))
      return false;
    // `git branch NAME` creates, `-d/-D/-m/-c` delete, move or copy: only listing is read-only.
    if (sub === 'branch')
      return c.args
        .slice(c.args.indexOf('branch') + 1)
        .every((a) =>
          /^(-a|-r|-v|-vv|--all|--remotes|--list|--show-current|--contains|--merged|--no-merged|--verbose|--color|--no-color)$/.test(a),
        );
    return true;
  }
  // `tree -o F` writes F; `tree -R` runs itself again in every directory with `-o 00Tree.html`.
  if (c.program === 'tree' && c.args.some((a) => a === '-o' || a.startsWith('-o') || /^-[a-zA-Z]*R/.test(a))) return false;
  if (c.program === 'file' && c.args.some((a) => /^-[a-zA-Z]*C/.test(a) || a === '--compile')) return false;
  if (c.program === 'find') return !c.args.some((a) => FIND_WRITES.test(a));
  return READ_ONLY.has(c.program);
}

/** A part that runs without asking when it reads only the workspace: read-only (SPEC §11.5), not version control. */
export const isReadOnlyPart = (c: SimpleCommand): boolean => !VCS.has(c.program) && isReadOnly(c);

/** Whether every part of a split command is on the read-only list (SPEC §11.5), with nothing unanalysable. */
export function isReadOnlyCommand(a: ShellAnalysis): boolean {
  return a.unanalysable.length === 0 && a.commands.every(isReadOnly);
}
