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
