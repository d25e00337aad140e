import { resolve } from 'node:path';
import picomatch from 'picomatch';
import { expandBraces } from './braces.ts';
import { configWrite, fileRoles, NO_FILE_ARGS, type FileRef } from './file-programs.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

/**
 * The files a split Bash command reads and writes, where they are (SPEC §11.7, §11.8): relative
 * paths resolve against the shell's working directory, which persists between calls and which a
 * `cd` earlier in the command may have changed; braces are expanded, globs kept as patterns;
 * `git show REV:PATH` names PATH, `git log --output=F` writes F. Pure.
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
  /** A loop variable's word used unquoted (`cat $f`): a name with blanks in it splits into several. */
  split?: boolean;
  /** A tree of which only files with names matching all these patterns are removed (`find D -name '*.pyc' -delete`). */
  names?: string[];
}

/** A file whose directory is not known before the command runs: `rel` is checked conservatively. */
interface Unknown {
  word: string;
  rel: string;
  why: string;
  /** `"$f"` of `for f in WORDS`: its possible values are in `loopReads`. */
  loop?: boolean;
}

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
  /**
   * Directories a program removes or moves away with what is under them (`rm -r D`, `mv D E`,
   * `find D -delete`, `unzip -d D`): every file under them counts as written.
   */
  trees: Target[];
  /**
   * Symbolic links it makes: where the link is, and where it leads (absolute, as the shell
   * resolves it). `copy`: a copy or move of `target` as it is (`mv`, `cp -a`): only its symlinks lead on.
   */
  links: Array<{ link: string; target: string; copy?: boolean }>;
  /** It writes files whose names are not in the command (`tar -x`, `unzip`, `git apply`): symlinks among them. */
  extracts?: boolean;
  /** The program is not described (file-programs.ts): what it names, it may write. */
  undescribed?: boolean;
  unknownReads: Unknown[];
  unknownWrites: Unknown[];
  /** What `"$f"` reads, for `f` of `for f in WORDS` (its words, expanded like the loop's). */
  loopReads: Target[];
  /** The directories the command may run in. */
  dirs: string[];
  /** Why the directory is not known (`cd "$X"` before it), if so. */
  unknownDir?: string;
}

const GIT_WRITE_OPTION = /^--output(=|$)/;

interface Dirs {
  dirs: string[];
  unknown?: string;
}

/** Bash's tilde forms other than `~` and `~/…` (`~user`, `~+`, `~-`): not resolved here. */
const otherTilde = (w: string) => w.startsWith('~') && w !== '~' && !w.startsWith('~/');

/**
 * `/proc/self/cwd/…`, `/proc/self/root/…` (and `thread-self`): the directory of the process that
 * opens the path, the command's, not the one that decides: the path as that process sees it.
 */
const PROC_SELF = /^\/proc\/(self|thread-self)\/(cwd|root)(?=\/|$)/;

function absolute(word: string, dir: string, home: string): { abs: string; raw: string } {
  const proc = PROC_SELF.exec(word);
  if (proc) {
    const rest = word.slice(proc[0].length);
    const base = proc[2] === 'cwd' ? dir : '/';
    return { abs: resolve(base, `.${rest}`), raw: `${base === '/' ? '' : base}${rest}` || '/' };
  }
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
    if (t.unknown) {
      state = { ...state, unknown: t.unknown };
      continue;
    }
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

type Named = Array<{ w: string; i: number; repo?: boolean; names?: string[] }>;
interface Words {
  reads: Named;
  writes: Named;
  dests: Named;
  trees: Named;
  links: Array<{ link: { w: string; i: number }; target: { w: string; i: number }; copy?: boolean }>;
  undescribed: boolean;
  extracts: boolean;
}

/**
 * Argument words that name files, by role (file-programs.ts), and files a git option writes.
 * Every operand and `--opt=VALUE` counts as a possible read too (a Read deny rule refuses a
 * command that names the file, whatever the program does with it).
 */
function words(c: SimpleCommand): Words {
  const out: Words = { reads: [], writes: [], dests: [], trees: [], links: [], undescribed: false, extracts: false };
  if (NO_FILE_ARGS.has(c.program)) return out;
  const git = c.program === 'git';
  const sub = git ? c.args.find((a) => !a.startsWith('-')) : undefined;
  const writesWithO = sub && ['log', 'diff', 'show', 'format-patch', 'archive'].includes(sub);
  const roles = fileRoles(c);
  c.args.forEach((a, i) => {
    if (a === '' || roles.created.has(i)) return;
    if (git && GIT_WRITE_OPTION.test(a)) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : c.args[i + 1];
      if (v !== undefined) out.writes.push({ w: v, i: a.includes('=') ? i : i + 1 });
      if (v !== undefined && sub === 'format-patch') out.writes.push({ w: `${v}/0001.patch`, i });
      return;
    }
    if (git && writesWithO && a === '-o' && c.args[i + 1] !== undefined) {
      out.writes.push({ w: c.args[i + 1], i: i + 1 }, ...(sub === 'format-patch' ? [{ w: `${c.args[i + 1]}/0001.patch`, i: i + 1 }] : []));
      return;
    }
    if (a.startsWith('-')) {
      // `--file=.env`: the value may be a file.
      const eq = a.indexOf('=');
      if (a.startsWith('--') && eq > 0 && eq < a.length - 1) out.reads.push({ w: a.slice(eq + 1).replace(/^@/, ''), i });
      return;
    }
    out.reads.push({ w: a, i });
    // `if=.env` (dd and the like), `@.env` (curl -d, response files): the value may be a file too.
    const eq = a.indexOf('=');
    if (eq > 0 && /^[A-Za-z_][\w.-]*=./.test(a)) out.reads.push({ w: a.slice(eq + 1).replace(/^@/, ''), i });
    if (a.startsWith('@') && a.length > 1) out.reads.push({ w: a.slice(1), i });
    const path = git ? gitRevPath(a) : undefined;
    if (path !== undefined) out.reads.push({ w: path, i, repo: !path.startsWith('./') && !path.startsWith('../') });
  });
  const named = (r: FileRef) => ({ w: r.path, i: r.index, ...(r.names ? { names: r.names } : {}), ...(r.repo ? { repo: true } : {}) });
  out.reads.push(...roles.reads.map(named), ...roles.hardLinks.map(named));
  // A hard link to a file is a way to write it: the link's target counts as written.
  out.dests.push(...roles.writes.map(named), ...roles.hardLinks.map(named));
  out.trees.push(...roles.trees.map(named), ...roles.writesInto.filter((d) => d.path !== '').map(named));
  out.links.push(...roles.symlinks.map((l) => ({ link: named(l.link), target: named(l.target) })));
  out.links.push(...roles.copies.map((l) => ({ link: named(l.to), target: named(l.from), copy: true })));
  out.extracts = roles.writesInto.length > 0;
  // `npm config set KEY VALUE` writes ~/.npmrc.
  const config = configWrite(c);
  if (config) out.dests.push({ w: config, i: -1 });
  out.undescribed = roles.undescribed;
  return out;
}

/** The literal path after a word's last expansion (`"$(pwd)/.env"` → `.env`), if any. */
function dynamicTail(word: string): string | undefined {
  const w = word.replace(/["']/g, '');
  const last = Math.max(w.lastIndexOf('$'), w.lastIndexOf('`'), w.lastIndexOf(')'), w.lastIndexOf('}'));
  const rest = w.slice(last + 1);
  const slash = rest.indexOf('/');
  const tail = slash >= 0 ? rest.slice(slash + 1) : undefined;
  if (!tail || /[$`]/.test(tail)) return undefined;
  // `$HOME/.config/../.bashrc` is `$HOME/.bashrc`: `.` and `..` segments are taken away (a `..` past the start eats the unknown part).
  const segs: string[] = [];
  for (const s of tail.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segs.pop();
    else segs.push(s);
  }
  return segs.length ? segs.join('/') : undefined;
}

/** Resolves one word in every directory the command may run in. */
function targets(
  word: string,
  kind: { dynamic: boolean; glob: boolean } | undefined,
  d: Dirs,
  root: string,
  home: string,
  repo: boolean,
): { found: Target[]; unknown: Unknown[] } {
  const found: Target[] = [];
  const unknown: Unknown[] = [];
  const expanded = kind?.glob ? expandBraces(word) : [word];
  if (!expanded) return { found, unknown: [{ word, rel: word, why: `${word} expands to too many words` }] };
  for (const w of expanded) {
    const glob = !!kind?.glob && picomatch.scan(w).isGlob;
    if (/^\/proc\/[0-9]+\/(cwd|root)(\/|$)/.test(w)) {
      unknown.push({
        word,
        rel: w.replace(/^\/proc\/[0-9]+\/(cwd|root)\/?/, ''),
        why: `${w.split('/').slice(0, 4).join('/')} is another process's directory`,
      });
      continue;
    }
    if (otherTilde(w)) {
      unknown.push({
        word,
        rel: w.replace(/^~[^/]*\/?/, ''),
        why: `${w.split('/')[0]} is a directory bash looks up when the command runs`,
      });
      continue;
    }
    const anchored = (w.startsWith('/') && !/^\/proc\/(self|thread-self)\/cwd(\/|$)/.test(w)) || w === '~' || w.startsWith('~/');
    if (!anchored && d.unknown && !repo) {
      unknown.push({ word, rel: w, why: `it is relative to a directory not known before the command runs (after ${d.unknown})` });
      continue;
    }
    for (const dir of anchored ? [root] : repo ? [root] : d.dirs) found.push({ word, ...absolute(w, dir, home), glob });
  }
  return { found, unknown };
}

/** The files of every part of a command, in order (`a.commands[i]` ↔ result[i]). `cwd`: where the shell starts. */
export function commandFiles(a: ShellAnalysis, cwd: string, projectRoot: string, home: string): CommandFiles[] {
  const out: CommandFiles[] = [];
  const dirs = dirsPerCommand(a, cwd, home);
  for (const c of a.commands) {
    const d = dirs.next().value as Dirs;
    const files: CommandFiles = {
      reads: [],
      writes: [],
      dests: [],
      trees: [],
      links: [],
      unknownReads: [],
      unknownWrites: [],
      loopReads: [],
      dirs: d.dirs,
      unknownDir: d.unknown,
    };
    // `git -C DIR`, `--git-dir`, `--work-tree`: paths are relative to a directory of git's choosing.
    const elsewhere = c.program === 'git' && c.args.some((x) => x === '-C' || x.startsWith('--git-dir') || x.startsWith('--work-tree'));
    // `find … -execdir CMD`: CMD runs in the directory of each match, so its relative names are not known;
    // `env -C DIR CMD` runs it in DIR (known when DIR is literal).
    const inMatchDir = c.wrappers.find((w) => /^find -(execdir|okdir)$/.test(w));
    const chdir = c.wrappers.map((w) => /^env (?:-C|--chdir) (.*)$/s.exec(w)).find((m) => m);
    const chdirTo = chdir && chdir[1] !== '' && !/[$`*?[{]/.test(chdir[1]) && !otherTilde(chdir[1]) ? chdir[1] : undefined;
    const dd: Dirs = elsewhere
      ? { ...d, unknown: d.unknown ?? '`git -C`' }
      : inMatchDir
        ? { ...d, unknown: d.unknown ?? `\`${inMatchDir}\`` }
        : chdir && !chdirTo
          ? { ...d, unknown: d.unknown ?? '`env -C`' }
          : chdirTo
            ? { ...d, dirs: d.dirs.map((x) => absolute(chdirTo, x, home).abs) }
            : d;
    const add = (
      into: 'reads' | 'writes' | 'dests' | 'trees',
      w: string,
      kind: { dynamic: boolean; glob: boolean } | undefined,
      repo = false,
      at: Dirs = dd,
    ) => {
      const unknown = into === 'reads' ? files.unknownReads : files.unknownWrites;
      const loop = into === 'reads' ? /^(")?\$(\{)?([A-Za-z_][A-Za-z0-9_]*)(\})?(")?$/.exec(w) : null;
      const words =
        loop && loop[1] === loop[5] && !!loop[2] === !!loop[4] && a.loops && Object.hasOwn(a.loops, loop[3]) ? a.loops[loop[3]] : undefined;
      if (words) {
        // `for f in *.ts; do wc -l "$f"; done`: "$f" is one of the loop's words.
        for (const lw of words)
          files.loopReads.push(
            ...targets(lw.value, { dynamic: false, glob: lw.glob }, dd, projectRoot, home, false).found.map((t) => ({
              ...t,
              split: !loop![1],
            })),
          );
        unknown.push({ word: w, rel: '', why: `${w} is only known when the command runs`, loop: true });
        return;
      }
      if (kind?.dynamic || /[$`]/.test(w)) {
        // Known only at run time: what follows the last expansion is still checked (`"$(pwd)/.env"`).
        const tail = dynamicTail(w);
        unknown.push({ word: w, rel: tail ?? '', why: `${w} is only known when the command runs` });
        return;
      }
      const t = targets(w, kind, at, projectRoot, home, repo && !elsewhere);
      files[into].push(...t.found);
      unknown.push(...t.unknown);
    };
    const ws = words(c);
    for (const r of ws.reads) add('reads', r.w, c.argKinds?.[r.i], r.repo);
    for (const w of ws.writes) add('writes', w.w, c.argKinds?.[w.i]);
    for (const w of ws.dests) add('dests', w.w, c.argKinds?.[w.i], w.repo);
    for (const w of ws.trees) {
      const before = files.trees.length;
      add('trees', w.w, c.argKinds?.[w.i]);
      if (w.names) for (const t of files.trees.slice(before)) t.names = w.names;
    }
    if (ws.undescribed) files.undescribed = true;
    if (ws.extracts) files.extracts = true;
    for (const l of ws.links) {
      // `ln -s TARGET LINK`: TARGET is relative to the link's directory; a copy's source, to where the command runs.
      const link = targets(l.link.w, c.argKinds?.[l.link.i], dd, projectRoot, home, false).found;
      for (const at of link) {
        if (c.argKinds?.[l.target.i]?.dynamic || /[$`]/.test(l.target.w)) {
          files.links.push({ link: at.abs, target: '', copy: l.copy });
          continue;
        }
        if (l.copy) {
          for (const from of targets(l.target.w, c.argKinds?.[l.target.i], dd, projectRoot, home, false).found)
            files.links.push({ link: at.abs, target: from.raw, copy: true });
          continue;
        }
        const target =
          l.target.w.startsWith('/') || l.target.w.startsWith('~')
            ? absolute(l.target.w, '/', home).abs
            : resolve(at.abs, '..', l.target.w);
        files.links.push({ link: at.abs, target });
      }
      if (link.length === 0) files.links.push({ link: '', target: '', copy: l.copy });
    }
    for (const r of c.redirects) {
      if (r.target === '' || r.target === '/dev/null' || r.target.startsWith('&') || (!r.reads && !r.writes)) continue;
      // The shell opens redirections where it runs, before `env -C` changes directory.
      const shellDirs = chdirTo ? d : dd;
      if (r.reads) add('reads', r.target, undefined, false, shellDirs);
      if (r.writes) add('writes', r.target, undefined, false, shellDirs);
    }
    out.push(files);
  }
  return out;
}
