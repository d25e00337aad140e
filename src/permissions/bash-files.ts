import { resolve } from 'node:path';
import picomatch from 'picomatch';
import { expandBraces } from './braces.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

/**
 * The files a split Bash command reads and writes, where they are (SPEC §11.7, §11.8): relative
 * paths resolve against the shell's working directory, which persists between calls and which a
 * `cd` earlier in the command may have changed (F3); braces are expanded, globs kept as patterns
 * (F5); `git show REV:PATH` names PATH, `git log --output=F` writes F (F9). Pure.
 */

/** One file (or glob) a command names. */
export interface Target {
  /** As written. */
  word: string;
  /** Absolute, `..` folded. */
  abs: string;
  /** Absolute as the shell opens it (`link/../x` is physical): what symlinks are resolved in. */
  raw: string;
  /** `abs` is a pattern the shell expands. */
  glob: boolean;
}

/** A file whose directory is not known before the command runs: `rel` is checked conservatively. */
export interface Unknown { word: string; rel: string; why: string }

export interface CommandFiles {
  reads: Target[];
  /** Redirections and write options: edits, checked like `Edit` of the file (SPEC §11.8). */
  writes: Target[];
  /**
   * Files a program creates or overwrites by argument (`touch F`, `cp A F`, `mv A F`): checked
   * against Edit deny rules and the guarded settings, never as reads (`cp .env.example .env` does
   * not read `.env`), and not asked about as edits (the program's own rule covers it).
   */
  dests: Target[];
  unknownReads: Unknown[];
  unknownWrites: Unknown[];
  /** The directories the command may run in. */
  dirs: string[];
  /** Why the directory is not known (`cd "$X"` before it), if so. */
  unknownDir?: string;
}

/** Programs whose arguments are never files they open. */
export const NO_FILE_ARGS = new Set(['echo', 'printf', 'pwd', 'cd', 'pushd', 'popd', 'true', 'false', 'exit', 'return', 'export', 'unset', 'set', 'shift', 'sleep', 'test', '[', '[[', 'local', 'declare', 'typeset', 'readonly', 'kill', 'wait', 'printenv', 'date', 'seq', 'expr']);
const GIT_WRITE_OPTION = /^--output(=|$)/;

interface Dirs { dirs: string[]; unknown?: string }

/** Bash's tilde forms other than `~` and `~/…` (`~user`, `~+`, `~-`): not resolved here. */
const otherTilde = (w: string) => w.startsWith('~') && w !== '~' && !w.startsWith('~/');

function absolute(word: string, dir: string, home: string): { abs: string; raw: string } {
  if (word === '~' || word.startsWith('~/')) return { abs: resolve(home, word.slice(2)), raw: home + word.slice(1) };
  if (word.startsWith('/')) return { abs: resolve(word), raw: word };
  return { abs: resolve(dir, word), raw: `${dir}/${word}` };
}

/** Where `cd ARG`/`pushd ARG` goes, or why that is not known. */
function cdTarget(c: SimpleCommand, home: string): { dir?: string; unknown?: string } {
  if (c.program === 'popd') return { unknown: '`popd`' };
  const i = c.args.findIndex((a) => !/^-[LPe@]*$/.test(a) || a === '-');
  const at = c.args[i] === '--' ? i + 1 : i;
  const arg = at >= 0 ? c.args[at] : undefined;
  const kind = at >= 0 ? c.argKinds?.[at] : undefined;
  if (arg === undefined) return c.program === 'cd' ? { dir: home } : { unknown: '`pushd` with no directory' };
  if (kind?.dynamic || kind?.glob || arg === '-' || otherTilde(arg) || /^[+-]\d+$/.test(arg)) return { unknown: `\`${c.program} ${arg}\`` };
  return { dir: arg };
}

/** Tracks the directories each part may run in: a `cd` adds its target (it may fail, or run in a subshell). */
function* dirsPerCommand(a: ShellAnalysis, start: string, home: string): Generator<Dirs> {
  let state: Dirs = { dirs: [start] };
  const cds = a.commands.some((c) => ['cd', 'pushd', 'popd'].includes(c.program));
  if (cds && a.repeats) state = { dirs: [start], unknown: 'a `cd` in a loop or function' };
  for (const c of a.commands) {
    yield state;
    if (state.unknown || !['cd', 'pushd', 'popd'].includes(c.program)) continue;
    const t = cdTarget(c, home);
    if (t.unknown) { state = { ...state, unknown: t.unknown }; continue; }
    const next = new Set(state.dirs);
    for (const d of state.dirs) next.add(absolute(t.dir!, d, home).abs);
    state = next.size > 32 ? { ...state, unknown: 'too many `cd`s' } : { dirs: [...next] };
  }
}

/** `git show REV:PATH`, `git cat-file -p :0:PATH`: PATH, relative to the repository (here: the project root). */
function gitRevPath(arg: string): string | undefined {
  const m = /^(?::\d:|[^-:][^:]*:|:)(.+)$/.exec(arg);
  return m && !/^[a-z+.-]+:\/\//i.test(arg) ? m[1] : undefined;
}

/** Argument words that name files, and files a git option writes (F9). */
function words(c: SimpleCommand): { reads: Array<{ w: string; i: number; repo?: boolean }>; writes: Array<{ w: string; i: number }>; dests: Array<{ w: string; i: number }> } {
  const reads: Array<{ w: string; i: number; repo?: boolean }> = [];
  const writes: Array<{ w: string; i: number }> = [];
  const dests: Array<{ w: string; i: number }> = [];
  if (NO_FILE_ARGS.has(c.program)) return { reads, writes, dests };
  const dest = destinations(c);
  const git = c.program === 'git';
  const sub = git ? c.args.find((a) => !a.startsWith('-')) : undefined;
  const writesWithO = sub && ['log', 'diff', 'show', 'format-patch', 'archive'].includes(sub);
  c.args.forEach((a, i) => {
    if (a === '') return;
    if (git && GIT_WRITE_OPTION.test(a)) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : c.args[i + 1];
      if (v !== undefined) writes.push({ w: v, i: a.includes('=') ? i : i + 1 });
      if (v !== undefined && sub === 'format-patch') writes.push({ w: `${v}/0001.patch`, i });
      return;
    }
    if (git && writesWithO && a === '-o' && c.args[i + 1] !== undefined) {
      writes.push({ w: c.args[i + 1], i: i + 1 }, ...(sub === 'format-patch' ? [{ w: `${c.args[i + 1]}/0001.patch`, i: i + 1 }] : []));
      return;
    }
    if (a.startsWith('-')) {
      // `--file=.env`: the value may be a file.
      const eq = a.indexOf('=');
      if (a.startsWith('--') && eq > 0 && eq < a.length - 1) reads.push({ w: a.slice(eq + 1), i });
      return;
    }
    if (dest.has(i)) { dests.push({ w: a, i }); return; }
    reads.push({ w: a, i });
    const path = git ? gitRevPath(a) : undefined;
    if (path !== undefined) reads.push({ w: path, i, repo: !path.startsWith('./') && !path.startsWith('../') });
  });
  return { reads, writes, dests };
}

/** Programs whose last operand is what they create or overwrite (unless `-t DIR` names it). */
const LAST_IS_DEST = new Set(['cp', 'mv', 'ln', 'install']);

/** Indexes of the arguments a program creates or overwrites: every operand of `touch`, the last of `cp`/`mv`/`ln`/`install`. */
function destinations(c: SimpleCommand): Set<number> {
  const operands = c.args.map((a, i) => ({ a, i })).filter(({ a }) => a !== '' && !a.startsWith('-'));
  if (c.program === 'touch') return new Set(operands.map(({ i }) => i));
  if (!LAST_IS_DEST.has(c.program) || operands.length < 2) return new Set();
  if (c.args.some((a) => a === '-t' || a.startsWith('--target-directory') || /^-[a-zA-Z]*t/.test(a))) return new Set();
  return new Set([operands[operands.length - 1].i]);
}

/** The literal path after a word's last expansion (`"$(pwd)/.env"` → `.env`), if any. */
function dynamicTail(word: string): string | undefined {
  const w = word.replace(/["']/g, '');
  const last = Math.max(w.lastIndexOf('$'), w.lastIndexOf('`'), w.lastIndexOf(')'), w.lastIndexOf('}'));
  const rest = w.slice(last + 1);
  const slash = rest.indexOf('/');
  const tail = slash >= 0 ? rest.slice(slash + 1) : undefined;
  return tail && !/[$`]/.test(tail) ? tail : undefined;
}

/** Resolves one word in every directory the command may run in. */
function targets(word: string, kind: { dynamic: boolean; glob: boolean } | undefined, d: Dirs, root: string, home: string, repo: boolean): { found: Target[]; unknown: Unknown[] } {
  const found: Target[] = [];
  const unknown: Unknown[] = [];
  const expanded = kind?.glob ? expandBraces(word) : [word];
  if (!expanded) return { found, unknown: [{ word, rel: word, why: `${word} expands to too many words` }] };
  for (const w of expanded) {
    const glob = !!kind?.glob && picomatch.scan(w).isGlob;
    if (otherTilde(w)) { unknown.push({ word, rel: w.replace(/^~[^/]*\/?/, ''), why: `${w.split('/')[0]} is a directory bash looks up when the command runs` }); continue; }
    const anchored = w.startsWith('/') || w === '~' || w.startsWith('~/');
    if (!anchored && d.unknown && !repo) { unknown.push({ word, rel: w, why: `it is relative to a directory not known before the command runs (after ${d.unknown})` }); continue; }
    for (const dir of anchored ? [root] : repo ? [root] : d.dirs) found.push({ word, ...absolute(w, dir, home), glob });
  }
  return { found, unknown };
}

/** The files of every part of a command, in order (`a.commands[i]` ↔ result[i]). `cwd`: where the shell starts. */
export function commandFiles(a: ShellAnalysis, source: string, cwd: string, projectRoot: string, home: string): CommandFiles[] {
  const out: CommandFiles[] = [];
  const dirs = dirsPerCommand(a, cwd, home);
  for (const c of a.commands) {
    const d = dirs.next().value as Dirs;
    const files: CommandFiles = { reads: [], writes: [], dests: [], unknownReads: [], unknownWrites: [], dirs: d.dirs, unknownDir: d.unknown };
    // `git -C DIR`, `--git-dir`, `--work-tree`: paths are relative to a directory of git's choosing.
    const elsewhere = c.program === 'git' && c.args.some((x) => x === '-C' || x.startsWith('--git-dir') || x.startsWith('--work-tree'));
    const dd: Dirs = elsewhere ? { ...d, unknown: d.unknown ?? '`git -C`' } : d;
    const add = (into: 'reads' | 'writes' | 'dests', w: string, kind: { dynamic: boolean; glob: boolean } | undefined, repo = false) => {
      const unknown = into === 'reads' ? files.unknownReads : files.unknownWrites;
      if (kind?.dynamic || /[$`]/.test(w)) {
        // Known only at run time: what follows the last expansion is still checked (`"$(pwd)/.env"`).
        const tail = dynamicTail(w);
        unknown.push({ word: w, rel: tail ?? '', why: `${w} is only known when the command runs` });
        return;
      }
      const t = targets(w, kind, dd, projectRoot, home, repo && !elsewhere);
      files[into].push(...t.found);
      unknown.push(...t.unknown);
    };
    const ws = words(c);
    for (const r of ws.reads) add('reads', r.w, c.argKinds?.[r.i], r.repo);
    for (const w of ws.writes) add('writes', w.w, c.argKinds?.[w.i]);
    for (const w of ws.dests) add('dests', w.w, c.argKinds?.[w.i]);
    for (const r of c.redirects) {
      if (r.target === '' || r.target === '/dev/null' || r.target.startsWith('&') || (!r.reads && !r.writes)) continue;
      if (r.reads) add('reads', r.target, undefined);
      if (r.writes) add('writes', r.target, undefined);
    }
    out.push(files);
  }
  return out;
}
