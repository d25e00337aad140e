import type { Word } from './words.ts';

/**
 * Bash evaluates some values as arithmetic or variable names, and an array subscript in such a
 * value runs `$(…)`: with `f='a[$(rm -rf ~)]'` (a file name from `for f in *`, a line from
 * `read`), `$((f))`, `[[ $f -eq 1 ]]`, `${!f}`, `printf -v "$f"` and `declare -i x=$f` all run rm.
 * The splitter cannot see such values, so a command that both reads values at run time and
 * evaluates values is unanalysable. These two tests say which commands do either.
 */

const TEST_EVALUATES = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-v', '-R']);
const NAME_BUILTINS = new Set(['read', 'unset', 'export', 'declare', 'typeset', 'local', 'readonly', 'mapfile', 'readarray', 'wait']);

/** The command evaluates a value as arithmetic or as a variable name (see above). */
export function evaluates(program: string, args: Word[]): boolean {
  if (program === 'let') return true;
  if (program === '[' || program === '[[' || program === 'test') return args.some((a) => !a.dynamic && TEST_EVALUATES.has(a.value));
  if (['declare', 'typeset', 'local'].includes(program) && args.some((a) => !a.dynamic && /^-[a-zA-Z]*[in]/.test(a.value))) return true;
  if (program === 'printf') return args.some((a, i) => a.dynamic && args[i - 1]?.value === '-v');
  if (NAME_BUILTINS.has(program)) return args.some((a) => a.dynamic);
  return false;
}

/** The command puts values only known at run time into variables (file names, input lines). */
export function readsValues(program: string, args: Word[]): boolean {
  if (['read', 'mapfile', 'readarray', 'getopts'].includes(program)) return true;
  return program === 'printf' && args.some((a) => !a.dynamic && /^-v/.test(a.value));
}

/**
 * Values the splitter cannot know, where bash evaluates them (SPEC §11.5: such a command is not
 * read-only). An evaluation site is a place bash reads a value as arithmetic or as a variable
 * name: `(( ))`, `$(( ))`, `$[ ]`, `for (( ))`, the operands of `[[ … -eq … ]]`, `test -v`,
 * array subscripts, substring offsets `${x:o:l}`, `${!x}`, `let`, integer variables, and the
 * names given to `read`, `printf -v`, `declare`… A name used there is unknown when bash sets it
 * behind the command's back (`$_`, `$BASH_COMMAND`, positional and special parameters,
 * `BASH_REMATCH`, `REPLY`, `PWD`…) or when the command assigns it a value that is not a plain
 * number (a file name from a loop, a line from `read`, text, `$(…)` output). Pure data and tests.
 */

/** Variables bash sets itself from text the command controls (its own words, file names, matches, directories). */
const IMPLICIT = new Set([
  '_',
  'BASH_COMMAND',
  'BASH_EXECUTION_STRING',
  'BASH_REMATCH',
  'BASH_ARGV',
  'BASH_ARGV0',
  'BASH_ARGC',
  'BASH_SOURCE',
  'BASH_LINENO',
  'BASH_ALIASES',
  'BASH_CMDS',
  'FUNCNAME',
  'REPLY',
  'MAPFILE',
  'COPROC',
  'DIRSTACK',
  'PWD',
  'OLDPWD',
  'OPTARG',
  'COMP_WORDS',
  'COMP_LINE',
  'COMP_WORDBREAKS',
  'READLINE_LINE',
  'READLINE_ARGUMENT',
  'HISTCMD',
  'PROMPT_COMMAND',
  'PS0',
  'PS1',
  'PS2',
  'PS4',
  'BASH_XTRACEFD',
]);
/** The variables of the Bash tool's own wrapper (src/tools/bash.ts): they hold the command's text. */
const WRAPPER_PREFIX = '__assistant';

/** What `namesIn` gives for a command substitution: its output is as unknown as a variable's value. */
const SUBSTITUTION = '$(…)';

/** Is a variable name (or `@`, `*`, a digit, a substitution) one whose value the splitter cannot know from the command alone? */
function implicitValue(name: string): boolean {
  return IMPLICIT.has(name) || /^[0-9@*]$/.test(name) || /^[0-9]+$/.test(name) || name.startsWith(WRAPPER_PREFIX) || name === SUBSTITUTION;
}

/** The variable names a piece of text may refer to: identifiers, `$1`, `$@`, `$*`, `$_`, and `$(…)` for a command substitution. */
function namesIn(text: string): string[] {
  const names = new Set<string>();
  if (/\$\((?!\()|`|<\(/.test(text)) names.add(SUBSTITUTION);
  for (const m of text.matchAll(/\$\{?[#!]?([0-9]+|[@*])/g)) names.add(m[1]);
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) names.add(m[0]);
  return [...names];
}

/** A value that is always a plain number: a literal number, `$((…))`, `$#`, `$?`, `${#x}`, `$RANDOM`… */
function numericValue(text: string): boolean {
  const t = text.replace(/^"(.*)"$/s, '$1');
  return (
    /^([+-]?[0-9]+|0[xX][0-9a-fA-F]+|[0-9]+#[0-9A-Za-z@_]+)$/.test(t) ||
    /^\$\(\([^()]*(\([^()]*\)[^()]*)*\)\)$/.test(t) ||
    /^\$\[[^\]]*\]$/.test(t) ||
    /^\$([#?$!]|\{[#?$!]\}|\{#[A-Za-z_][A-Za-z0-9_]*(\[[@*]\])?\})$/.test(t) ||
    /^\$\{?(RANDOM|SRANDOM|SECONDS|LINENO|EPOCHSECONDS|BASHPID|PPID|UID|EUID|OPTIND)\}?$/.test(t) ||
    t === ''
  );
}

/** Sites and assignments collected by one analysis; `reasons()` says which sites evaluate unknown values. */
export class Evaluations {
  private sites: Array<{ where: string; names: string[] }> = [];
  private tainted = new Map<string, string>();

  /** A place bash evaluates `text` as arithmetic or as a name. */
  site(where: string, text: string): void {
    if (this.sites.length < 200) this.sites.push({ where, names: namesIn(text) });
  }

  /** `name` gets a value at run time that is not a plain number (`why`: where). */
  taint(name: string, why: string): void {
    if (!this.tainted.has(name)) this.tainted.set(name, why);
  }

  /** `name=value`: a value that is not a plain number taints the name. */
  assign(name: string, value: string | undefined, where: string): void {
    if (value !== undefined && !numericValue(value)) this.taint(name, where);
  }

  reasons(): string[] {
    const out: string[] = [];
    for (const s of this.sites) {
      const name = s.names.find((n) => implicitValue(n) || this.tainted.has(n));
      if (!name) continue;
      const what =
        name === SUBSTITUTION
          ? 'the output of a command'
          : implicitValue(name)
            ? /^[0-9@*_]$|^[0-9]+$/.test(name)
              ? `$${name}`
              : name
            : `${name} (set by ${this.tainted.get(name)})`;
      out.push(
        `${s.where} evaluates ${what} as arithmetic or a variable name, and its value is not known before the command runs (a value like a[$(…)] runs the command in it)`,
      );
      if (out.length >= 3) break;
    }
    return out;
  }
}
