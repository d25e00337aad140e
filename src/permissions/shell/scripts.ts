import { mayBeLong, scanArgs, type OptionSpec } from './options.ts';
import { awkScript, sedScript } from './script-parsers.ts';
import type { Word } from './words.ts';

/**
 * Programs that run a script of their own given on the command line (SPEC §5, §11.5): sed's `e`,
 * awk's `system()` and pipes, an interpreter's `-e`/`-c` code. What the script does is read here:
 * - `reasons`: it runs commands the rules cannot see (sed `e`, awk `system()`, `less +!cmd`): the
 *   part is unanalysable;
 * - `code`: it is a program's own code (`python -c`, `perl -e`, `node -e`, `vim -c`), which can
 *   do anything: the part asks while any Bash deny rule is in force and is refused in Plan Mode;
 * - `writes` / `reads`: files the script names (`sed 'w out'`, `awk '{print > "out"}'`).
 */
interface ScriptFacts {
  reasons: string[];
  code?: { why: string; text: string };
  writes: string[];
  reads: string[];
  /** The program edits its file operands in place (`sed -i`, `perl -pi`, `gawk -i inplace`). */
  inPlace?: boolean;
}

const none = (): ScriptFacts => ({ reasons: [], writes: [], reads: [] });

const SED: OptionSpec = {
  shortArg: 'efl',
  shortOptional: 'i',
  shortFlag: 'nrsuzEb',
  longArg: ['expression', 'file', 'line-length'],
  longOptional: ['in-place'],
  longFlag: [
    'quiet',
    'silent',
    'regexp-extended',
    'separate',
    'unbuffered',
    'null-data',
    'posix',
    'debug',
    'sandbox',
    'follow-symlinks',
    'binary',
    'help',
    'version',
  ],
  permute: true,
};

function sedFacts(args: string[]): ScriptFacts {
  const facts = none();
  const scanned = scanArgs(args, SED);
  const scripts = scanned.filter((a) => a.option === '-e' || a.option === '--expression').map((a) => a.value);
  const files = scanned.filter((a) => a.option === '-f' || a.option === '--file');
  if (scripts.length === 0 && files.length === 0) {
    const first = scanned.find((a) => !a.option);
    if (first) scripts.push(first.value);
  }
  facts.inPlace = scanned.some((a) => a.option === '-i' || a.option === '--in-place');
  const sandbox = scanned.some((a) => a.option === '--sandbox');
  if (files.length && !sandbox)
    facts.code = { why: `sed -f ${files[0].value} runs a script file, which can run commands (e) and write files (w)`, text: '' };
  const parsed = sedScript(scripts.join('\n'));
  if (parsed.error) facts.reasons.push(`the sed script could not be read (${parsed.error}), so it may run commands`);
  else if (parsed.execs && !sandbox) facts.reasons.push('the sed script runs commands (e)');
  if (!sandbox) {
    facts.writes.push(...parsed.writes);
    facts.reads.push(...parsed.reads);
  }
  return facts;
}

const AWK: OptionSpec = {
  shortArg: 'FvfEilLW',
  shortFlag: 'bcCdDgMnNoOpPrsStVh',
  longArg: ['field-separator', 'assign', 'file', 'exec', 'include', 'load', 'source'],
  longOptional: ['dump-variables', 'debug', 'lint', 'pretty-print', 'profile'],
  longFlag: [
    'characters-as-bytes',
    'traditional',
    'copyright',
    'gen-pot',
    'help',
    'optimize',
    'no-optimize',
    'bignum',
    'use-lc-numeric',
    'non-decimal-data',
    'posix',
    're-interval',
    'sandbox',
    'lint-old',
    'version',
    'csv',
  ],
  permute: true,
};

function awkFacts(args: string[]): ScriptFacts {
  const facts = none();
  const scanned = scanArgs(args, AWK);
  const sandbox = scanned.some((a) => a.option === '-S' || a.option === '--sandbox');
  const sources = scanned.filter((a) => a.option === '--source').map((a) => a.value);
  const files = scanned.filter((a) => ['-f', '-E', '--file', '--exec'].includes(a.option ?? ''));
  const includes = scanned.filter((a) => ['-i', '--include'].includes(a.option ?? ''));
  if (scanned.some((a) => ['-l', '--load'].includes(a.option ?? ''))) facts.reasons.push('awk -l loads a shared library');
  if (includes.some((a) => a.value === 'inplace' || a.value === 'inplace.awk')) facts.inPlace = true;
  else if (includes.length && !sandbox)
    facts.code = { why: `awk -i ${includes[0].value} includes an awk source file, which can run commands`, text: '' };
  for (const opt of ['-o', '--pretty-print', '--profile', '-p', '--dump-variables', '-d']) {
    const w = scanned.find((a) => a.option === opt && a.value !== '');
    if (w) facts.writes.push(w.value);
  }
  if (files.length && !sandbox)
    facts.code = { why: `awk -f ${files[0].value} runs a program file, which can run commands (system(), pipes)`, text: '' };
  if (files.length === 0 && sources.length === 0) {
    const first = scanned.find((a) => !a.option && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value));
    if (first) sources.push(first.value);
  }
  const parsed = awkScript(sources.join('\n'));
  if (parsed.execs && !sandbox) facts.reasons.push('the awk program runs commands (system(), pipes or a coprocess)');
  if (parsed.unknownWrite && !sandbox) facts.reasons.push('the awk program writes to a file named only when it runs');
  if (parsed.unknownRead && !sandbox) facts.reasons.push('the awk program reads a file named only when it runs (getline <, ARGV)');
  if (!sandbox) {
    facts.writes.push(...parsed.writes);
    facts.reads.push(...parsed.reads);
  }
  return facts;
}

// ---------------------------------------------------------------- interpreters and editors

/** Interpreters: the options whose value is code, and those that edit files in place. */
interface Interpreter {
  /** Short options whose value (attached or next word) is code: `-e`, `-c`. */
  code: string;
  /** Long options whose value is code: `--eval`. */
  longCode?: string[];
  /** Subcommands whose next word is code (`deno eval CODE`). */
  subcommand?: string;
  /** Short options without a value that may share a cluster with the code option (`perl -ne`, `python -Bc`). */
  flags: string;
  /** Short options with a value (their value is not code nor the script file). */
  valued?: string;
  /** In-place editing option (`perl -i`, `ruby -i`). */
  inPlace?: string;
  /** Options after which the words are the program's own arguments (`python -m mod …`). */
  ends?: string;
}

const INTERPRETERS: Record<string, Interpreter> = {
  python: { code: 'c', flags: 'bBdEhiIOPqsSuvVx', valued: 'WX', ends: 'm' },
  perl: { code: 'eE', flags: 'aclnpsStTuUvVwWX0', valued: 'CdDFImMx', inPlace: 'i' },
  ruby: { code: 'e', flags: 'acdlnpsSvwWy', valued: 'CEFIKrTx', inPlace: 'i' },
  node: { code: 'ep', longCode: ['eval', 'print'], flags: 'ciChv', valued: 'r' },
  bun: { code: 'ep', longCode: ['eval', 'print'], flags: 'hv', valued: 'r' },
  deno: { code: '', subcommand: 'eval', flags: '' },
  php: { code: 'rBRE', flags: 'aCqHhilsvwe', valued: 'cdfFtz' },
  lua: { code: 'el', flags: 'ivEW', valued: '' },
  luajit: { code: 'el', flags: 'ivEb', valued: 'jO' },
  Rscript: { code: 'e', longCode: ['expr'], flags: '', valued: '' },
  R: { code: 'e', flags: 'fqsv', valued: '' },
  julia: { code: 'eE', longCode: ['eval', 'print'], flags: 'hivqOg', valued: 'JLptCM' },
  osascript: { code: 'e', flags: 'si', valued: 'l' },
  groovy: { code: 'e', flags: 'acdhinpv', valued: 'Dl' },
  elixir: { code: 'er', longCode: ['eval'], flags: '', valued: '' },
  erl: { code: '', longCode: ['eval'], flags: '', valued: '' },
  tclsh: { code: '', flags: '' },
  jshell: { code: '', flags: '' },
  ghci: { code: 'e', flags: '', valued: '' },
  // dc's `!` runs a shell command; m4's syscmd() and esyscmd() too.
  dc: { code: 'e', longCode: ['expression'], flags: 'hV', valued: 'f' },
  m4: { code: '', flags: 'EegiPQsV', valued: 'DIUdltF' },
  psql: { code: 'c', longCode: ['command'], flags: 'aAbeEHlnqsStxXwW', valued: 'dfhLoOpPRTUv' },
  mysql: { code: 'e', longCode: ['execute'], flags: 'BCHNnrstvVwX', valued: 'DhPpSuO' },
};
for (const v of ['python2', 'python3', 'pypy', 'pypy3']) INTERPRETERS[v] = INTERPRETERS.python;
INTERPRETERS.nodejs = INTERPRETERS.node;
INTERPRETERS.perl5 = INTERPRETERS.perl;

/** `python3.12` → `python3`, `perl5.36` → `perl5`. */
function interpreterName(program: string): string | undefined {
  if (Object.hasOwn(INTERPRETERS, program)) return program;
  const base = program.replace(/[.\d]+$/, '');
  return base !== program && Object.hasOwn(INTERPRETERS, base) ? base : undefined;
}

/** Editors and pagers whose command-line commands can run a shell (`vim -c '!cmd'`, `less '+!cmd'`). */
const EDITORS = new Set([
  'vi',
  'vim',
  'nvim',
  'gvim',
  'view',
  'vimdiff',
  'rvim',
  'ex',
  'evim',
  'emacs',
  'emacsclient',
  'nano',
  'ed',
  'red',
  'kak',
  'hx',
  'micro',
  'mg',
  'jed',
  'joe',
]);
const PAGERS = new Set(['less', 'more', 'most', 'pg']);

function interpreterFacts(name: string, args: Word[], stdinFed: boolean): ScriptFacts {
  const facts = none();
  const spec = INTERPRETERS[name];
  if (spec.subcommand && args[0]?.value === spec.subcommand) {
    facts.code = {
      why: `${name} ${spec.subcommand} runs code given on the command line`,
      text: args
        .slice(1)
        .map((a) => a.value)
        .join(' '),
    };
    return facts;
  }
  let scriptOperand = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.value;
    if (v === '--' || v === '-') {
      scriptOperand = v === '-' ? false : !!args[i + 1];
      break;
    }
    if (v.startsWith('--')) {
      const long = (spec.longCode ?? []).find((l) => mayBeLong(v, l));
      if (long) {
        const text = v.includes('=') ? v.slice(v.indexOf('=') + 1) : (args[++i]?.value ?? '');
        facts.code = { why: `${name} --${long} runs code given on the command line`, text };
      }
      continue;
    }
    if (!v.startsWith('-') || v.length < 2) {
      scriptOperand = true;
      break;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (spec.code.includes(c)) {
        const text = j + 1 < v.length ? v.slice(j + 1) : (args[++i]?.value ?? '');
        facts.code = { why: `${name} -${c} runs code given on the command line`, text: facts.code ? `${facts.code.text}\n${text}` : text };
        break;
      }
      if (spec.inPlace?.includes(c)) {
        facts.inPlace = true;
        break;
      } // `-i.bak`: the rest of the cluster is the suffix
      if (spec.ends?.includes(c)) {
        scriptOperand = true;
        break;
      }
      if (spec.valued?.includes(c)) {
        if (j + 1 >= v.length) i++;
        break;
      }
    }
    if (scriptOperand) break;
  }
  if (!facts.code && !scriptOperand && stdinFed) facts.code = { why: `${name} runs the code it reads from its input`, text: '' };
  return facts;
}

/** `vim -c CMD`, `vim +CMD`, `vim --cmd CMD`, `vim -S FILE`; `emacs --eval`, `-l`; `ed` and `ex` reading commands from input. */
function editorFacts(program: string, args: Word[], stdinFed: boolean): ScriptFacts {
  const facts = none();
  for (const [i, a] of args.entries()) {
    const v = a.value;
    if (
      /^(-c|--cmd|-S|-s|-u|-U|--eval|-l|--load|-f|--funcall|-x|--script|-batch|--batch)$/.test(v) ||
      // vim's short options may be run together: `ex -sc 'wq! F'` is `-s -c 'wq! F'`.
      (/^-[a-zA-Z]+[cS]$/.test(v) && /^(vi|vim|nvim|view|gvim|ex|rvim|vimdiff)$/.test(program)) ||
      (v.startsWith('+') && v.length > 1) ||
      /^--(eval|load|funcall)=/.test(v)
    ) {
      facts.code = {
        why: `${program} ${v} runs editor commands, which can run programs and write files`,
        text: v.startsWith('+') ? v.slice(1) : (args[i + 1]?.value ?? ''),
      };
      break;
    }
  }
  if (!facts.code && (program === 'ed' || program === 'red' || program === 'ex') && stdinFed)
    facts.code = { why: `${program} runs the commands it reads from its input, which can run programs`, text: '' };
  return facts;
}

/** `less +CMD`, `less -o FILE` (writes its input to FILE), `more +/pattern`. */
function pagerFacts(program: string, args: Word[]): ScriptFacts {
  const facts = none();
  for (const [i, a] of args.entries()) {
    const v = a.value;
    if ((v.startsWith('+') && /[!|]/.test(v)) || /^-[a-zA-Z]*k/.test(v) || mayBeLong(v, 'lesskey-file') || mayBeLong(v, 'lesskey-src'))
      facts.reasons.push(`${program} ${v} can run commands`);
    const log = /^-[a-zA-Z]*[oO](.*)$/.exec(v);
    if (log) facts.writes.push(log[1] || (args[i + 1]?.value ?? ''));
    else if (mayBeLong(v, 'log-file') || mayBeLong(v, 'LOG-FILE'))
      facts.writes.push(v.includes('=') ? v.slice(v.indexOf('=') + 1) : (args[i + 1]?.value ?? ''));
  }
  return facts;
}

/** `sqlite3 [opts] DB [SQL…]`: dot-commands run programs (`.shell`, `.system`) and write files (`.output`, `.once`). */
function sqliteFacts(args: Word[], stdinFed: boolean): ScriptFacts {
  const facts = none();
  const operands = args.filter((a) => !a.value.startsWith('-'));
  const sql = [...operands.slice(1), ...args.filter((_, i) => args[i - 1]?.value === '-cmd')];
  if (sql.some((a) => a.dynamic)) facts.reasons.push('the sqlite3 commands are not known before the command runs');
  if (sql.some((a) => /(^|\n|;)\s*\.(shell|system)\b/.test(a.value))) facts.reasons.push('sqlite3 .shell / .system runs commands');
  if (sql.some((a) => /(^|\n|;)\s*\.[a-z]/.test(a.value))) {
    facts.code = { why: 'sqlite3 dot-commands can load extensions and write files', text: sql.map((a) => a.value).join('\n') };
  } else if (operands.length <= 1 && stdinFed) facts.code = { why: 'sqlite3 runs the commands it reads from its input', text: '' };
  return facts;
}

/** What the program's own script does, for a command `program args…` (after wrappers). */
export function scriptFacts(program: string, args: Word[], stdinFed: boolean): ScriptFacts | undefined {
  const plain = () => args.map((a) => (a.dynamic ? a.raw : a.value));
  if (program === 'sed' || program === 'gsed') {
    if (args.some((a) => a.dynamic) && sedScriptDynamic(args))
      return { ...none(), reasons: ['the sed script is not known before the command runs'] };
    return sedFacts(plain());
  }
  if (['awk', 'gawk', 'mawk', 'nawk'].includes(program)) {
    if (awkScriptDynamic(args)) return { ...none(), reasons: ['the awk program is not known before the command runs'] };
    return awkFacts(plain());
  }
  if (program === 'sqlite3') return sqliteFacts(args, stdinFed);
  const interp = interpreterName(program);
  if (interp) return interpreterFacts(interp, args, stdinFed);
  if (EDITORS.has(program)) return editorFacts(program, args, stdinFed);
  if (PAGERS.has(program)) return pagerFacts(program, args);
  return undefined;
}

/** Is a word that holds sed's script (first operand, or after -e/-f) known only at run time? */
function sedScriptDynamic(args: Word[]): boolean {
  for (const [i, a] of args.entries()) {
    if (/^(-e|--expression|-f|--file)$/.test(a.value) || /^-[a-zA-Z]*[ef]$/.test(a.value)) {
      if (args[i + 1]?.dynamic) return true;
      continue;
    }
    if (/^(-e|--expression=|-f|--file=)./.test(a.value) && a.dynamic) return true;
  }
  const hasOption = args.some((a) => /^(-[a-zA-Z]*[ef]|--expression|--file)/.test(a.value));
  const first = args.find((a) => !a.value.startsWith('-') || a.dynamic);
  return !hasOption && !!first?.dynamic;
}

function awkScriptDynamic(args: Word[]): boolean {
  const hasFile = args.some((a) => /^(-[a-zA-Z]*[fE]|--file|--exec|--source)/.test(a.value));
  for (const [i, a] of args.entries()) if (/^(--source)$/.test(a.value) && args[i + 1]?.dynamic) return true;
  if (hasFile) return false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) return !/^-/.test(a.raw);
    if (/^-[Fv]$/.test(a.value)) {
      i++;
      continue;
    }
    if (!a.value.startsWith('-')) return false;
  }
  return false;
}
