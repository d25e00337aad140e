import { parseOptions, type OptionSpec, type ParsedOptions } from './options.ts';
import type { Word } from './words.ts';

/**
 * What looking through one wrapper program gives:
 * - `next`: the wrapped command starts at `words[next]`;
 * - `stop`: the wrapper runs nothing else here (`command -v x`, `sudo -l`, `env` alone), so it is
 *   itself the program;
 * - `reason`: what it runs cannot be known, so the command is unanalysable.
 */
export type Peeled =
  | {
    next: number;
    /** Assignments it makes for the wrapped program (`env A=1 cmd`, `sudo A=1 cmd`). */
    assignments?: Word[];
    /** The wrapped program gets arguments only known at run time (`xargs`). */
    runtimeArgs?: boolean;
    /** A string it replaces with run-time values in the wrapped words (`xargs -I {}`). */
    placeholder?: string;
  }
  | { stop: true }
  | { reason: string };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** `NAME=value` words before the command (`env`, `sudo`). */
function assignments(words: Word[], start: number, program: string): { next: number; found: Word[] } | { reason: string } {
  const found: Word[] = [];
  let i = start;
  for (; i < words.length; i++) {
    const w = words[i];
    if (w.dynamic && !ASSIGNMENT.test(w.raw)) return { reason: `${program}: ${w.raw} is not known before the command runs, so what ${program} runs is not known` };
    if (!ASSIGNMENT.test(w.dynamic ? w.raw : w.value)) break;
    found.push(w);
  }
  return { next: i, found };
}

function options(words: Word[], i: number, spec: OptionSpec, program: string): ParsedOptions {
  return parseOptions(words, i + 1, spec, program);
}

/** A wrapper with options and nothing else: the wrapped command follows them (or it runs nothing). */
function simple(spec: OptionSpec) {
  return (words: Word[], i: number, program: string): Peeled => {
    const o = options(words, i, spec, program);
    if (o.error) return { reason: o.error };
    return o.next < words.length ? { next: o.next } : { stop: true };
  };
}

const has = (o: ParsedOptions, ...names: string[]) => names.some((n) => o.seen.has(n));

const WRAPPERS: Record<string, (words: Word[], i: number, program: string) => Peeled> = {
  timeout(words, i, program) {
    const o = options(words, i, { shortArg: 'sk', shortFlag: 'v', longArg: ['signal', 'kill-after'], longFlag: ['preserve-status', 'foreground', 'verbose', 'help', 'version'] }, program);
    if (o.error) return { reason: o.error };
    const duration = words[o.next];
    if (!duration) return { stop: true };
    if (duration.dynamic) return { reason: `timeout: the duration ${duration.raw} is not known before the command runs, so what timeout runs is not known` };
    return o.next + 1 < words.length ? { next: o.next + 1 } : { stop: true };
  },
  time(words, i, program) {
    const o = options(words, i, { shortArg: 'fo', shortFlag: 'pvqa', longArg: ['format', 'output'], longFlag: ['portability', 'verbose', 'quiet', 'append', 'help', 'version'] }, program);
    if (o.error) return { reason: o.error };
    if (has(o, '-o', '--output')) return { reason: `time -o writes its report to a file (${o.seen.get('-o') ?? o.seen.get('--output')})` };
    return o.next < words.length ? { next: o.next } : { stop: true };
  },
  nice: simple({ shortArg: 'n', longArg: ['adjustment'], numeric: true }),
  nohup: simple({ longFlag: ['help', 'version'] }),
  stdbuf: simple({ shortArg: 'ioe', longArg: ['input', 'output', 'error'] }),
  setsid: simple({ shortFlag: 'cfw', longFlag: ['ctty', 'fork', 'wait'] }),
  noglob: simple({}),
  nocorrect: simple({}),
  builtin: simple({}),
  command(words, i, program) {
    const o = options(words, i, { shortFlag: 'pvV' }, program);
    if (o.error) return { reason: o.error };
    if (has(o, '-v', '-V') || o.next >= words.length) return { stop: true }; // a query: runs nothing
    return { next: o.next };
  },
  ionice(words, i, program) {
    const o = options(words, i, { shortArg: 'cnpPu', shortFlag: 't', longArg: ['class', 'classdata', 'pid', 'pgid', 'uid'], longFlag: ['ignore', 'help', 'version'] }, program);
    if (o.error) return { reason: o.error };
    if (has(o, '-p', '-P', '-u', '--pid', '--pgid', '--uid') || o.next >= words.length) return { stop: true };
    return { next: o.next };
  },
  busybox(words, i, program) {
    const o = options(words, i, { longFlag: ['list', 'list-full', 'install', 'help'] }, program);
    if (o.error) return { reason: o.error };
    if (o.seen.size || o.next >= words.length) return { stop: true };
    return { next: o.next };
  },
  env(words, i, program) {
    const o = options(words, i, {
      shortArg: 'uCS', shortFlag: 'i0v', dash: true,
      longArg: ['unset', 'chdir', 'split-string'], longFlag: ['ignore-environment', 'null', 'debug', 'help', 'version', 'list-signal-handling'],
      longOptional: ['block-signal', 'default-signal', 'ignore-signal'],
    }, program);
    if (o.error) return { reason: o.error };
    if (has(o, '-S', '--split-string')) return { reason: 'env -S splits a string into a command line at run time' };
    const a = assignments(words, o.next, program);
    if ('reason' in a) return a;
    return a.next < words.length ? { next: a.next, assignments: a.found } : { stop: true };
  },
  sudo(words, i, program) {
    const o = options(words, i, {
      shortArg: 'ugCDprtTURh', shortFlag: 'AbEHknPSBNiselvKV',
      longArg: ['user', 'group', 'close-from', 'chdir', 'prompt', 'role', 'type', 'command-timeout', 'other-user', 'chroot', 'host'],
      longFlag: ['askpass', 'background', 'set-home', 'non-interactive', 'preserve-groups', 'stdin', 'bell', 'login', 'shell', 'edit', 'list', 'validate', 'reset-timestamp', 'remove-timestamp', 'version', 'help'],
      longOptional: ['preserve-env'],
    }, program);
    if (o.error) return { reason: o.error };
    if (has(o, '-i', '-s', '--login', '--shell')) return { reason: 'sudo -i / -s runs a shell' };
    if (has(o, '-e', '--edit')) return { reason: 'sudo -e edits files as another user' };
    if (has(o, '-l', '-v', '-K', '-V', '--list', '--validate', '--remove-timestamp', '--version', '--help')) return { stop: true };
    const a = assignments(words, o.next, program);
    if ('reason' in a) return a;
    return a.next < words.length ? { next: a.next, assignments: a.found } : { stop: true };
  },
  doas(words, i, program) {
    const o = options(words, i, { shortArg: 'uC', shortFlag: 'nsL' }, program);
    if (o.error) return { reason: o.error };
    if (has(o, '-s')) return { reason: 'doas -s runs a shell' };
    if (has(o, '-C', '-L') || o.next >= words.length) return { stop: true };
    return { next: o.next };
  },
  xargs(words, i, program) {
    const o = options(words, i, {
      shortArg: 'EIdLnPsa', shortFlag: '0rtpxo', shortOptional: 'ile',
      longArg: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
      longFlag: ['null', 'no-run-if-empty', 'verbose', 'interactive', 'exit', 'open-tty', 'show-limits', 'help', 'version'],
      longOptional: ['replace', 'eof', 'max-lines'],
    }, program);
    if (o.error) return { reason: o.error };
    if (has(o, '-a', '--arg-file')) return { reason: 'xargs -a reads its arguments from a file' };
    if (o.next >= words.length) return { stop: true };
    const replace = o.seen.get('-I') ?? o.seen.get('-i') ?? o.seen.get('--replace');
    return { next: o.next, runtimeArgs: true, placeholder: replace === undefined ? undefined : replace || '{}' };
  },
};

/** Looks through the wrapper program `name` at `words[i]`, or returns undefined when it is none. */
export function peelWrapper(name: string, words: Word[], i: number): Peeled | undefined {
  const peel = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  return peel?.(words, i, name);
}
