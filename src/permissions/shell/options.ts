import type { Word } from './words.ts';

/** The options a program accepts, enough to find where its operands start (GNU getopt style). */
export interface OptionSpec {
  /** Short options that take a value: the rest of the cluster or the next word (`-n 5`, `-n5`). */
  shortArg?: string;
  /** Short options without a value. */
  shortFlag?: string;
  /** Short options whose value is optional and only ever attached (`xargs -i{}`). */
  shortOptional?: string;
  longArg?: string[];
  longFlag?: string[];
  /** Long options whose value is optional and only given with `=` (`--replace[=R]`). */
  longOptional?: string[];
  /** `-10` is an option (`nice -10`). */
  numeric?: boolean;
  /** A lone `-` is an option (`env -` = `env -i`). */
  dash?: boolean;
  /**
   * Unknown options are read as flags instead of failing (tables of files a program reads and
   * writes: a value taken for an operand only adds checks).
   */
  lenient?: boolean | 'long';
  /** Options and operands may be mixed (GNU argument permutation): parsing goes on after an operand. */
  permute?: boolean;
}

export interface ParsedOptions {
  /** Index of the first word after the options. */
  next: number;
  /** Options seen, by `-x` or `--name`, with their value ('' when none). */
  seen: Map<string, string>;
  /** Why the options could not be understood. */
  error?: string;
}

/**
 * Could `word` (`--exe`, `--exe=x`) be the long option `name` as a program that accepts
 * abbreviations reads it? Any prefix counts (an ambiguous one only makes the program fail), unless
 * the word is exactly one of `exact` (the program's other options: `--to` is not `--to-cmd`).
 */
export function mayBeLong(word: string, name: string, exact: readonly string[] = []): boolean {
  if (!word.startsWith('--') || word.length < 3) return false;
  const given = word.slice(2).split('=')[0];
  return name.startsWith(given) && (given === name || !exact.includes(given));
}

function longName(given: string, spec: OptionSpec): { name: string; kind: 'arg' | 'flag' | 'optional' } | undefined {
  const all: Array<[string, 'arg' | 'flag' | 'optional']> = [
    ...(spec.longArg ?? []).map((n) => [n, 'arg'] as [string, 'arg']),
    ...(spec.longFlag ?? []).map((n) => [n, 'flag'] as [string, 'flag']),
    ...(spec.longOptional ?? []).map((n) => [n, 'optional'] as [string, 'optional']),
  ];
  const exact = all.find(([n]) => n === given);
  if (exact) return { name: exact[0], kind: exact[1] };
  // getopt_long accepts any unambiguous prefix (`--sig` for `--signal`).
  const prefixed = all.filter(([n]) => n.startsWith(given));
  return prefixed.length === 1 ? { name: prefixed[0][0], kind: prefixed[0][1] } : undefined;
}

/** Reads options from `words[start]` on; stops at `--`, `-` (unless an option) or the first operand. */
export function parseOptions(words: Word[], start: number, spec: OptionSpec, program: string): ParsedOptions {
  const seen = new Map<string, string>();
  let i = start;
  const fail = (error: string): ParsedOptions => ({ next: i, seen, error: `${program}: ${error}` });
  while (i < words.length) {
    const w = words[i];
    if (w.dynamic) return fail(`${w.raw} is not known before the command runs, so what ${program} runs is not known`);
    const v = w.value;
    if (v === '--') return { next: i + 1, seen };
    if (v === '-' && spec.dash) {
      seen.set('-', '');
      i++;
      continue;
    }
    if (!v.startsWith('-') || v === '-') break;
    if (spec.numeric && /^--?\d+$/.test(v)) {
      seen.set('-N', v);
      i++;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const given = eq < 0 ? v.slice(2) : v.slice(2, eq);
      const found = longName(given, spec);
      // `--opt` and `--opt=value` are one word each for programs whose options are all written so (valgrind, firejail).
      if (!found && spec.lenient) {
        seen.set(v, '');
        i++;
        continue;
      }
      if (!found) return fail(`unknown option ${v}`);
      if (found.kind === 'flag' && eq >= 0) return fail(`option --${found.name} takes no value`);
      if (found.kind === 'arg' && eq < 0) {
        const value = words[i + 1];
        if (!value) return fail(`option --${found.name} needs a value`);
        if (value.dynamic) return fail(`the value of --${found.name} (${value.raw}) is not known before the command runs`);
        seen.set(`--${found.name}`, value.value);
        i += 2;
        continue;
      }
      seen.set(`--${found.name}`, eq < 0 ? '' : v.slice(eq + 1));
      i++;
      continue;
    }
    let j = 1;
    let consumedNext = false;
    for (; j < v.length; j++) {
      const c = v[j];
      if (spec.shortFlag?.includes(c)) {
        seen.set(`-${c}`, '');
        continue;
      }
      if (spec.shortOptional?.includes(c)) {
        seen.set(`-${c}`, v.slice(j + 1));
        break;
      }
      if (spec.shortArg?.includes(c)) {
        let value = v.slice(j + 1);
        if (value === '') {
          const next = words[i + 1];
          if (!next) return fail(`option -${c} needs a value`);
          if (next.dynamic) return fail(`the value of -${c} (${next.raw}) is not known before the command runs`);
          value = next.value;
          consumedNext = true;
        }
        seen.set(`-${c}`, value);
        break;
      }
      if (spec.lenient === true) {
        seen.set(`-${c}`, '');
        continue;
      }
      return fail(`unknown option -${c}`);
    }
    i += consumedNext ? 2 : 1;
  }
  return { next: i, seen };
}

/** One option or operand of a command line, by the index of its word. */
export interface ScannedArg {
  /** `-o`, `--output` (the canonical long name), or undefined for an operand. */
  option?: string;
  /** The option's value (attached or the next word), or the operand's text. */
  value: string;
  /** The word the value is in. */
  index: number;
}

/**
 * Reads a whole GNU-style command line (`args` are a command's argument words, unquoted): options
 * anywhere before `--` (argument permutation), unknown ones as flags, abbreviations resolved.
 * Used by the tables of files programs read and write, where a misread only adds checks.
 */
export function scanArgs(args: readonly string[], spec: OptionSpec): ScannedArg[] {
  const out: ScannedArg[] = [];
  let i = 0;
  let ended = false;
  for (; i < args.length; i++) {
    const v = args[i];
    if (ended || v === '-' || !v.startsWith('-') || (spec.numeric && /^-\d+$/.test(v))) {
      out.push({ value: v, index: i });
      if (!spec.permute && !ended) ended = true;
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const given = eq < 0 ? v.slice(2) : v.slice(2, eq);
      const found = longName(given, spec);
      const name = `--${found?.name ?? given}`;
      if (found?.kind === 'arg' && eq < 0) {
        out.push({ option: name, value: args[i + 1] ?? '', index: i + 1 });
        i++;
        continue;
      }
      out.push({ option: name, value: eq < 0 ? '' : v.slice(eq + 1), index: i });
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (spec.shortOptional?.includes(c)) {
        out.push({ option: `-${c}`, value: v.slice(j + 1), index: i });
        break;
      }
      if (spec.shortArg?.includes(c)) {
        if (j + 1 < v.length) out.push({ option: `-${c}`, value: v.slice(j + 1), index: i });
        else {
          out.push({ option: `-${c}`, value: args[i + 1] ?? '', index: i + 1 });
          i++;
        }
        break;
      }
      out.push({ option: `-${c}`, value: '', index: i });
    }
  }
  return out;
}
