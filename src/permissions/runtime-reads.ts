import { FILE_PROGRAMS, readsOperands } from './file-programs.ts';
import type { SimpleCommand } from './shell/parser.ts';

/**
 * Which parts of a Bash command open a file whose name is known only when the command runs
 * (`cat "$F"`, `xargs wc -l`, `find -exec cat {} +`): with a Read deny rule in force such a part
 * cannot be shown not to read a denied file. Only programs that open their arguments as files
 * count, and only dynamic words where such a program takes a file (not option values, not the
 * pattern of grep or the script of sed). Pure.
 */

/** Programs that open their (non-option) arguments as files. */
const OPENS_FILES = new Set([
  'cat',
  'tac',
  'nl',
  'head',
  'tail',
  'less',
  'more',
  'bat',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'wc',
  'cp',
  'mv',
  'ln',
  'install',
  'rsync',
  'scp',
  'tar',
  'zip',
  'unzip',
  'gzip',
  'gunzip',
  'zcat',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'source',
  '.',
  'diff',
  'cmp',
  'comm',
  'join',
  'paste',
  'sort',
  'uniq',
  'cut',
  'tr',
  'fold',
  'fmt',
  'expand',
  'rev',
  'iconv',
  'strings',
  'xxd',
  'od',
  'hexdump',
  'hd',
  'base64',
  'base32',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'shasum',
  'b2sum',
  'cksum',
  'sum',
  'jq',
  'yq',
  'file',
  'split',
  'csplit',
  'tee',
  'dd',
  'openssl',
  'gpg',
]);

/** Options whose next word is a value, not a file (`head -n "$N"`, `grep -m 5`, `jq --arg k "$V"`: 2 values). */
const VALUE_OPTIONS: Record<string, Record<string, number>> = {
  head: { '-n': 1, '-c': 1, '--lines': 1, '--bytes': 1 },
  tail: { '-n': 1, '-c': 1, '--lines': 1, '--bytes': 1, '-s': 1, '--pid': 1, '--sleep-interval': 1 },
  grep: {
    '-e': 1,
    '--regexp': 1,
    '-m': 1,
    '--max-count': 1,
    '-A': 1,
    '-B': 1,
    '-C': 1,
    '--context': 1,
    '--after-context': 1,
    '--before-context': 1,
    '--include': 1,
    '--exclude': 1,
    '--exclude-dir': 1,
    '--label': 1,
    '-d': 1,
    '-D': 1,
    '--color': 1,
  },
  rg: {
    '-e': 1,
    '--regexp': 1,
    '-m': 1,
    '--max-count': 1,
    '-A': 1,
    '-B': 1,
    '-C': 1,
    '-g': 1,
    '--glob': 1,
    '--iglob': 1,
    '-t': 1,
    '--type': 1,
    '-T': 1,
    '--type-not': 1,
    '-M': 1,
    '--max-columns': 1,
    '-j': 1,
    '--threads': 1,
    '-r': 1,
    '--replace': 1,
    '--max-depth': 1,
    '-d': 1,
  },
  sed: { '-e': 1, '--expression': 1, '-l': 1, '--line-length': 1 },
  awk: { '-v': 1, '-F': 1, '--assign': 1, '--field-separator': 1 },
  cut: { '-d': 1, '-f': 1, '-c': 1, '-b': 1, '--delimiter': 1, '--fields': 1, '--characters': 1, '--bytes': 1 },
  sort: { '-k': 1, '-t': 1, '-S': 1, '--key': 1, '--field-separator': 1, '--buffer-size': 1, '--parallel': 1 },
  uniq: { '-f': 1, '-s': 1, '-w': 1, '--skip-fields': 1, '--skip-chars': 1, '--check-chars': 1 },
  jq: { '--arg': 2, '--argjson': 2, '--indent': 1 },
  yq: { '--arg': 2, '--argjson': 2, '--indent': 1, '-I': 1, '-o': 1, '--output-format': 1, '-p': 1, '--input-format': 1 },
  diff: { '-U': 1, '-C': 1, '--label': 1, '-L': 1, '--unified': 1, '--context': 1 },
  xxd: { '-l': 1, '-s': 1, '-c': 1, '-g': 1, '-o': 1, '-len': 1, '-seek': 1, '-cols': 1 },
  od: { '-N': 1, '-j': 1, '-t': 1, '-A': 1, '-w': 1 },
  base64: { '-w': 1, '--wrap': 1 },
  strings: { '-n': 1, '-t': 1, '--bytes': 1 },
  tr: {},
};
VALUE_OPTIONS.egrep = VALUE_OPTIONS.grep;
VALUE_OPTIONS.fgrep = VALUE_OPTIONS.grep;
VALUE_OPTIONS.gawk = VALUE_OPTIONS.awk;
VALUE_OPTIONS.mawk = VALUE_OPTIONS.awk;
VALUE_OPTIONS.ag = VALUE_OPTIONS.rg;

/** Programs whose first operand is a pattern or script, unless one is given by an option (`-e`, `-f`). */
const FIRST_IS_SCRIPT: Record<string, RegExp> = {
  grep: /^(-e|--regexp|-f|--file)(=|$)/,
  egrep: /^(-e|--regexp|-f|--file)(=|$)/,
  fgrep: /^(-e|--regexp|-f|--file)(=|$)/,
  rg: /^(-e|--regexp|-f|--file|--files|--type-list)(=|$)/,
  ag: /^(-e|--regexp|-f|--file)(=|$)/,
  sed: /^(-e|--expression|-f|--file)(=|$)/,
  awk: /^(-f|--file)(=|$)/,
  gawk: /^(-f|--file)(=|$)/,
  mawk: /^(-f|--file)(=|$)/,
  jq: /^(-f|--from-file)(=|$)/,
  yq: /^(-f|--from-file)(=|$)/,
  tr: /^$/,
};

/** `$(pwd)`, `` `pwd` ``, `$(git rev-parse --show-toplevel)`: substitutions that print no file name a rule could cover. */
const HARMLESS_SUBSTITUTION =
  /^\$\(\s*(pwd|date(\s+[+\w%:-]+)*|whoami|hostname|uname(\s+-\w+)*|nproc|id(\s+-\w+)*|git\s+rev-parse(\s+--[\w-]+)*(\s+HEAD)?|git\s+branch\s+--show-current)\s*\)$|^`\s*pwd\s*`$/;

/** Is a dynamic word harmless as a file name: only harmless substitutions, then a literal path (its tail is checked elsewhere)? */
function harmless(word: string): boolean {
  const w = word.replace(/^"|"$/g, '');
  const m = /^(\$\([^()]*\)|`[^`]*`)(\/[^$`]*)?$/.exec(w);
  return !!m && HARMLESS_SUBSTITUTION.test(m[1]);
}

/**
 * The first argument of `c` that is a file name known only at run time, or why the files come at
 * run time (`xargs`, `find -exec`); undefined when the part opens no such file.
 */
export function runtimeFileWord(c: SimpleCommand): string | undefined {
  if (!OPENS_FILES.has(c.program) && !readsOperands(c.program)) return undefined;
  if (c.wrappers.includes('xargs')) return 'xargs input';
  const values = VALUE_OPTIONS[c.program] ?? tableValues(c.program);
  const scriptOpt = FIRST_IS_SCRIPT[c.program];
  let needScript = !!scriptOpt && !c.args.some((a) => scriptOpt.test(a));
  let operands = 0;
  let endOfOptions = false;
  for (let i = 0; i < c.args.length; i++) {
    const a = c.args[i];
    const dyn = c.argKinds?.[i]?.dynamic ?? /[$`]/.test(a);
    if (!endOfOptions && a === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && a.startsWith('-') && a !== '-') {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (eq < 0 && values[name]) {
        i += values[name];
        continue;
      }
      // `--file="$F"`: a value that may be a file unless the option is known to take another value.
      if (eq > 0 && dyn && !values[name] && /[$`]/.test(a.slice(eq + 1))) return a;
      continue;
    }
    operands++;
    if (needScript) {
      needScript = false;
      continue;
    } // grep's pattern, sed's script
    if ((c.program === 'source' || c.program === '.') && operands > 1) break; // the script's own arguments
    if (dyn && !harmless(a)) return a;
  }
  return undefined;
}

/** The options that take a value, from the program's entry in file-programs.ts. */
function tableValues(program: string): Record<string, number> {
  const o = Object.hasOwn(FILE_PROGRAMS, program) ? FILE_PROGRAMS[program].options : undefined;
  return Object.fromEntries(
    [...(o?.shortArg ?? '')].map((c) => [`-${c}`, 1] as const).concat((o?.longArg ?? []).map((n) => [`--${n}`, 1] as const)),
  );
}
