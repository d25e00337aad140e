import { parseOptions, scanArgs, type OptionSpec, type ParsedOptions } from './options.ts';
import { SUBCOMMAND_WRAPPERS, WRAPPERS, type WrapperSpec } from './wrapper-table.ts';
import { literalWord, type Word } from './words.ts';

/**
 * Looking through programs that run another command (SPEC §5): the table is wrapper-table.ts;
 * here are the rules that read it, and the wrappers with forms of their own (`su`, `flock`,
 * `script`, `sg`, `parallel`).
 *
 * What looking through one wrapper gives:
 * - `next`: the wrapped command starts at `words[next]`;
 * - `script`: it runs this text as a shell command (`watch 'a; b'`, `su -c '…'`, `flock -c '…'`);
 * - `stop`: the wrapper runs nothing else here (`command -v x`, `sudo -l`, `env` alone), so it is
 *   itself the program;
 * - `reason`: what it runs cannot be known, so the command is unanalysable.
 */
type Peeled =
  | {
      next: number;
      /** Assignments it makes for the wrapped program (`env A=1 cmd`, `sudo A=1 cmd`). */
      assignments?: Word[];
      /** The wrapped program gets arguments only known at run time (`xargs`). */
      runtimeArgs?: boolean;
      /** A string it replaces with run-time values in the wrapped words (`xargs -I {}`). */
      placeholder?: string;
      /** Files the wrapper itself writes (`strace -o F`, `script F`): checked like `> F`. */
      writes?: Word[];
      /** Files the wrapper itself reads (`parallel -a F`). */
      reads?: Word[];
      /** It runs the command in another directory: the option and the directory as written (`-C DIR`). */
      chdir?: string;
    }
  | { script: Word; writes?: Word[]; reads?: Word[]; runtimeArgs?: boolean }
  /** The words from `shellArgs` on are the arguments of a shell it starts (`su root -c '…'`). */
  | { shellArgs: number }
  | { stop: true }
  | { reason: string };

export { RUNS_COMMANDS } from './wrapper-table.ts';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** `NAME=value` words before the command (`env`, `sudo`). */
function assignments(words: Word[], start: number, program: string): { next: number; found: Word[] } | { reason: string } {
  const found: Word[] = [];
  let i = start;
  for (; i < words.length; i++) {
    const w = words[i];
    if (w.dynamic && !ASSIGNMENT.test(w.raw))
      return { reason: `${program}: ${w.raw} is not known before the command runs, so what ${program} runs is not known` };
    if (!ASSIGNMENT.test(w.dynamic ? w.raw : w.value)) break;
    found.push(w);
  }
  return { next: i, found };
}

function options(words: Word[], i: number, spec: OptionSpec, program: string): ParsedOptions {
  return parseOptions(words, i + 1, spec, program);
}

const has = (o: ParsedOptions, names: readonly string[] = []) => names.find((n) => o.seen.has(n));

/** `{}`, `{.}`, `{/}`, `{1}`, `{#}`…: GNU parallel's replacement strings. */
const PARALLEL_PLACEHOLDER = /\{(\d+)?(\.|\/|\/\/|\/\.|#|%)?\}/g;

/** GNU parallel: `parallel [options] command ::: args` runs the command (a shell string) once per argument. */
function parallel(words: Word[], i: number, program: string): Peeled {
  const o = options(
    words,
    i,
    {
      shortArg: 'jnNISLlaAdEC',
      shortFlag: '0kqmXuvtrg',
      longArg: [
        'jobs',
        'max-args',
        'max-replace-args',
        'colsep',
        'arg-file',
        'delimiter',
        'eof',
        'timeout',
        'retries',
        'delay',
        'halt',
        'tagstring',
        'arg-sep',
        'arg-file-sep',
        'block',
        'results',
        'joblog',
        'env',
        'max-line-length-allowed',
        'memfree',
        'load',
        'nice',
        'tmpdir',
        'workdir',
        'sshlogin',
        'sshloginfile',
        'basefile',
        'return',
        'transfer',
        'cleanup',
        'shebang',
      ],
      longFlag: [
        'keep-order',
        'null',
        'quote',
        'xargs',
        'ungroup',
        'verbose',
        'tag',
        'dry-run',
        'bar',
        'eta',
        'progress',
        'line-buffer',
        'group',
        'pipe',
        'pipepart',
        'shuf',
        'no-notice',
        'will-cite',
        'lb',
        'silent',
        'citation',
        'version',
        'help',
        'no-run-if-empty',
        'round-robin',
      ],
    },
    program,
  );
  if (o.error) return { reason: o.error };
  for (const remote of ['-S', '--sshlogin', '--sshloginfile', '--pipe', '--pipepart', '--shebang'])
    if (o.seen.has(remote)) return { reason: `parallel ${remote} runs commands elsewhere or from its input` };
  const writes = ['--results', '--joblog'].flatMap((k) => (o.seen.has(k) ? [literalWord(o.seen.get(k)!)] : []));
  const reads = ['-a', '--arg-file'].flatMap((k) => (o.seen.has(k) ? [literalWord(o.seen.get(k)!)] : []));
  const end = words.findIndex((w, k) => k >= o.next && /^(:::|::::|:::\+|::::\+)$/.test(w.value));
  const command = words.slice(o.next, end < 0 ? undefined : end);
  if (command.length === 0) return { reason: 'parallel runs its arguments (or its input) as commands' };
  if (command.some((w) => w.dynamic)) return { reason: 'parallel runs a command that is not known before it runs' };
  for (let k = end; k >= 0 && k < words.length; k++) if (/^::::\+?$/.test(words[k].value) && words[k + 1]) reads.push(words[k + 1]);
  let text = command.map((w) => w.value).join(' ');
  const placed = PARALLEL_PLACEHOLDER.test(text);
  text = placed ? text.replace(PARALLEL_PLACEHOLDER, '"$PARALLEL_ARG"') : `${text} "$@"`;
  return { script: literalWord(text), writes, reads, runtimeArgs: true };
}

/**
 * `su [opts] [-] [user [shell-args]]` and `runuser` in that form (options anywhere: getopt
 * permutes them): `-c CMD` is a shell string; other words after the user are the arguments of the
 * user's shell (`su root -c 'cmd'` is `sh -c 'cmd'`); with neither, a login shell starts.
 * `runuser -u USER cmd…` runs cmd.
 */
function userShell(words: Word[], i: number, program: string): Peeled {
  const spec = WRAPPERS[program];
  const args = words.slice(i + 1);
  if (args.some((w) => w.dynamic))
    return {
      reason: `${program}: ${args.find((w) => w.dynamic)!.raw} is not known before the command runs, so what ${program} runs is not known`,
    };
  if (program === 'runuser' && args.some((w) => /^(-u|--user(=|$)|-u.)/.test(w.value))) {
    const o = options(words, i, spec.options, program);
    if (o.error) return { reason: o.error };
    if (has(o, spec.scriptOptions)) return { reason: 'runuser -u with -c' };
    return o.next < words.length ? { next: o.next } : { stop: true };
  }
  const scanned = scanArgs(
    args.map((w) => w.value),
    { ...spec.options, permute: true },
  );
  const unknown = scanned.find((a) => a.option && a.option !== '-' && !knownOption(a.option, spec.options));
  if (unknown) return { reason: `${program}: unknown option ${unknown.option}` };
  if (scanned.some((a) => a.option === '--help' || a.option === '--version' || a.option === '-h' || a.option === '-V'))
    return { stop: true };
  const script = scanned.find((a) => a.option && spec.scriptOptions?.includes(a.option));
  if (script) return { script: literalWord(script.value) };
  if (scanned.some((a) => a.option === '-s' || a.option === '--shell')) return { reason: `${program} -s runs another shell` };
  const operands = scanned.filter((a) => !a.option && a.value !== '-');
  if (operands.length <= 1) return { reason: `${program} starts a login shell, which runs what its start-up files and input hold` };
  return { shellArgs: i + 1 + operands[1].index };
}

function knownOption(option: string, spec: OptionSpec): boolean {
  if (option.startsWith('--'))
    return [...(spec.longArg ?? []), ...(spec.longFlag ?? []), ...(spec.longOptional ?? [])].includes(option.slice(2));
  const c = option[1];
  return [spec.shortArg, spec.shortFlag, spec.shortOptional].some((s) => s?.includes(c));
}

/** `sg GROUP [-c] COMMAND`: COMMAND is a shell string. */
function sg(words: Word[], i: number): Peeled {
  let k = i + 1;
  if (words[k]?.value === '-') k++;
  k++; // the group
  if (words[k]?.value === '-c') k++;
  const rest = words.slice(k);
  if (rest.length === 0) return { reason: 'sg starts a shell' };
  if (rest.some((w) => w.dynamic)) return { reason: 'sg runs a command that is not known before it runs' };
  return { script: literalWord(rest.map((w) => w.value).join(' ')) };
}

/** `flock [opts] FILE cmd…` or `flock [opts] FILE -c CMD` (FILE is created if missing). */
function flock(words: Word[], i: number, program: string): Peeled {
  const spec = WRAPPERS.flock;
  const o = options(words, i, spec.options, program);
  if (o.error) return { reason: o.error };
  if (has(o, ['-h', '-V', '--help', '--version'])) return { stop: true };
  const file = words[o.next];
  if (!file) return { stop: true };
  if (file.dynamic) return { reason: `flock: ${file.raw} is not known before the command runs` };
  const rest = words.slice(o.next + 1);
  const script = o.seen.get('-c') ?? o.seen.get('--command');
  if (script !== undefined)
    return rest.length ? { reason: 'flock with -c and a command' } : { script: literalWord(script), writes: [file] };
  if (rest[0] && /^(-c|--command|--comm|--comma|--comman)$/.test(rest[0].value)) {
    if (!rest[1] || rest[1].dynamic) return { reason: 'flock -c runs a command that is not known before it runs' };
    return { script: rest[1], writes: [file] };
  }
  // `flock FD`: a number locks a descriptor and runs nothing.
  if (rest.length === 0) return { stop: true };
  return { next: o.next + 1, writes: [file] };
}

/** `script [options] [file]` (options anywhere): `-c CMD` runs CMD with a shell and logs to file. */
function script(words: Word[], i: number, program: string): Peeled {
  const spec = WRAPPERS.script;
  const args = words.slice(i + 1);
  if (args.some((w) => w.dynamic)) return { reason: `script: ${args.find((w) => w.dynamic)!.raw} is not known before the command runs` };
  const scanned = scanArgs(
    args.map((w) => w.value),
    { ...spec.options, permute: true },
  );
  const unknown = scanned.find((a) => a.option && !knownOption(a.option, spec.options));
  if (unknown) return { reason: `${program}: unknown option ${unknown.option}` };
  if (scanned.some((a) => ['-h', '-V', '--help', '--version'].includes(a.option ?? ''))) return { stop: true };
  const cmd = scanned.find((a) => a.option === '-c' || a.option === '--command');
  if (!cmd) return { reason: 'script without -c starts an interactive shell' };
  const writes = scanned.filter((a) => !a.option || spec.writeOptions!.includes(a.option)).map((a) => literalWord(a.value));
  if (!scanned.some((a) => !a.option)) writes.push(literalWord('typescript'));
  return { script: literalWord(cmd.value), writes };
}

/** Looks through a wrapper described by `spec`. */
function peelWith(spec: WrapperSpec, words: Word[], i: number, program: string, stdinFed = false): Peeled {
  const o = options(words, i, spec.options, program);
  if (o.error) return { reason: o.error };
  for (const [opt, why] of Object.entries(spec.unknown ?? {})) if (o.seen.has(opt)) return { reason: why };
  if (has(o, spec.stops)) return { stop: true };
  const optionFiles = (names: string[] | undefined) =>
    (names ?? []).flatMap((n) => (o.seen.has(n) && o.seen.get(n) !== '' ? [literalWord(o.seen.get(n)!)] : []));
  const writes = optionFiles(spec.writeOptions);
  const reads = optionFiles(spec.readOptions);
  const script = has(o, spec.scriptOptions);
  const chdirOption = has(o, spec.chdirOptions);
  const chdir = chdirOption ? `${chdirOption} ${o.seen.get(chdirOption) ?? ''}` : undefined;
  if (script)
    return o.next < words.length
      ? { reason: `${program} with ${script} and a command` }
      : { script: literalWord(o.seen.get(script)!), writes, reads };
  let next = o.next;
  for (let k = 0; k < (spec.operands ?? 0); k++) {
    const w = words[next];
    if (!w) return { stop: true };
    if (w.dynamic) return { reason: `${program}: ${w.raw} is not known before the command runs, so what ${program} runs is not known` };
    if (spec.operandWrites) writes.push(w);
    next++;
  }
  let assigned: Word[] | undefined;
  if (spec.assignments) {
    const a = assignments(words, next, program);
    if ('reason' in a) return a;
    next = a.next;
    assigned = a.found;
  }
  if (next >= words.length) {
    if (spec.shellWhenEmpty && stdinFed) return { reason: `${program} with no command starts a shell, which runs what its input holds` };
    return { stop: true };
  }
  if (spec.joins) {
    const rest = words.slice(next);
    if (o.seen.has('-x') || o.seen.has('--exec')) return { next, writes, reads };
    if (rest.some((w) => w.dynamic)) return { reason: `${program} runs a command that is not known before it runs` };
    return { script: literalWord(rest.map((w) => w.value).join(' ')), writes, reads };
  }
  if (spec.runtimeArgs) {
    const replace = o.seen.get('-I') ?? o.seen.get('-i') ?? o.seen.get('--replace');
    return {
      next,
      runtimeArgs: true,
      placeholder: replace === undefined ? undefined : replace || '{}',
      writes,
      reads,
      ...(assigned ? { assignments: assigned } : {}),
      ...(chdir ? { chdir } : {}),
    };
  }
  return { next, writes, reads, ...(assigned ? { assignments: assigned } : {}), ...(chdir ? { chdir } : {}) };
}

/** Looks through the wrapper program `name` at `words[i]`, or returns undefined when it is none. */
export function peelWrapper(name: string, words: Word[], i: number, stdinFed = false): Peeled | undefined {
  if (name === 'parallel') return parallel(words, i, name);
  if (name === 'sg') return sg(words, i);
  if (name === 'su' || name === 'runuser') return userShell(words, i, name);
  if (name === 'flock') return flock(words, i, name);
  if (name === 'script') return script(words, i, name);
  const sub = Object.hasOwn(SUBCOMMAND_WRAPPERS, name) ? SUBCOMMAND_WRAPPERS[name] : undefined;
  if (sub) {
    const word = words[i + 1];
    const spec = word && !word.dynamic && Object.hasOwn(sub, word.value) ? sub[word.value] : undefined;
    if (spec) {
      const peeled = peelWith(spec, words, i + 1, `${name} ${word.value}`, stdinFed);
      return 'stop' in peeled ? { stop: true } : peeled;
    }
    return undefined;
  }
  return Object.hasOwn(WRAPPERS, name) ? peelWith(WRAPPERS[name], words, i, name, stdinFed) : undefined;
}
