import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { archiveNames } from './archives.ts';

/**
 * The only filesystem questions a permission decision asks (SPEC §5, §11.5): where a
 * path's symlinks lead, which files a shell glob expands to, whether a directory exists.
 * decide() takes one in its context; tests pass `noLookup` to stay pure.
 */
export interface PathLookup {
  /**
   * Where `path` really is: symlinks resolved in it, or in its nearest existing parent (a file
   * about to be created). `path` is absolute and may hold `..` after a symlink, resolved as the
   * kernel does (physically). Returns `path` normalised when nothing of it exists.
   */
  realpath(path: string): string;
  /**
   * The existing paths an absolute shell glob expands to (bash's rules; `dot`: patterns match
   * leading dots, in any case: the command may change bash's glob options), at most `limit` of them (default GLOB_LIMIT); `truncated` when there may be more.
   */
  glob(pattern: string, dot: boolean, limit?: number): GlobResult;
  isDir(path: string): boolean;
  /**
   * Where the symbolic links under a directory lead (realpaths), walking it without following
   * them, at most `limit` entries (`truncated`: there may be more). Optional: without it, none.
   */
  linksUnder?(dir: string, limit?: number): { targets: string[]; truncated: boolean };
  /** The names an archive or patch file holds (archives.ts), or undefined. Optional: without it, not known. */
  archiveNames?(path: string): string[] | undefined;
}

/** At most this many entries of a tree are looked at for symbolic links (`grep -R`, `find -L`). */
const TREE_LIMIT = 20_000;

function linksUnder(dir: string, limit = TREE_LIMIT): { targets: string[]; truncated: boolean } {
  const targets = new Set<string>();
  const queue = [dir];
  let seen = 0;
  while (queue.length) {
    const d = queue.shift()!;
    let entries: Dirent[];
    try {
      lookStats.readdirs++;
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > limit) return { targets: [...targets], truncated: true };
      const p = join(d, e.name);
      if (e.isSymbolicLink()) targets.add(realpath(p));
      else if (e.isDirectory()) queue.push(p);
    }
  }
  return { targets: [...targets], truncated: false };
}

export interface GlobResult {
  paths: string[];
  truncated: boolean;
  /** Paths known not to be symlinks themselves (their realpath is their directory's, plus the name). */
  plain?: Set<string>;
}

/** Nothing on disk: paths are what they say, globs expand to nothing. */
export const noLookup: PathLookup = { realpath: (p) => join(p), glob: () => ({ paths: [], truncated: false }), isDir: () => true };

/** At most this many paths from one glob (more: `truncated`, and the word is decided on its pattern). */
export const GLOB_LIMIT = 2000;
/** At most this many paths from all the globs of one decision (more: the cautious path). */
export const DECISION_BUDGET = 5000;

/** Directory reads by the glob walk (for tests that count work, never time it). */
export const lookStats = { readdirs: 0 };

function realpath(path: string): string {
  const rest: string[] = [];
  let cur = path;
  for (;;) {
    try {
      return join(realpathSync.native(cur), ...rest);
    } catch {
      const up = dirname(cur);
      if (up === cur) return join(path);
      rest.unshift(basename(cur));
      cur = up;
    }
  }
}

/**
 * Bash's expansion of an absolute glob, segment by segment: reads only directories (a match that
 * is not a directory or a link to one ends there unless it is the last segment), stops at `limit`.
 */
function glob(pattern: string, dot: boolean, limit = GLOB_LIMIT): GlobResult {
  const segs = pattern.split('/').filter((s) => s !== '');
  const lastGlob = segs.findLastIndex((s) => picomatch.scan(s).isGlob);
  let paths = ['/'];
  let truncated = false;
  const plain = new Set<string>();
  for (const [k, seg] of segs.entries()) {
    if (k > lastGlob || !picomatch.scan(seg).isGlob) {
      paths = paths.map((p) => join(p, seg));
      continue;
    }
    const isMatch = picomatch(seg, { dot, nocase: dot });
    const last = k === segs.length - 1;
    const next: string[] = [];
    walk: for (const p of paths) {
      let entries: Dirent[];
      try {
        lookStats.readdirs++;
        entries = readdirSync(p, { withFileTypes: true });
      } catch {
        continue; /* not a directory */
      }
      for (const e of entries) {
        if (!isMatch(e.name)) continue;
        if (!last && !e.isDirectory() && !e.isSymbolicLink()) continue; // `a/*/b`: only directories lead on
        if (next.length >= limit) {
          truncated = true;
          break walk;
        }
        const path = join(p, e.name);
        next.push(path);
        if (last && !e.isSymbolicLink()) plain.add(path);
      }
    }
    paths = next;
    if (paths.length === 0) return { paths: [], truncated };
  }
  // Literal segments after the last pattern (`*/package.json`): only the paths that exist.
  if (lastGlob < segs.length - 1)
    paths = paths.filter((p) => {
      try {
        lstatSync(p);
        return true;
      } catch {
        return false;
      }
    });
  return { paths, truncated, plain };
}

export const fsLookup: PathLookup = {
  realpath,
  glob,
  isDir: (p) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  },
  linksUnder,
  archiveNames,
};

/**
 * A lookup for one decision: remembers realpaths and glob expansions (the same word is asked
 * about more than once, the project root for every path), and stops expanding globs once
 * DECISION_BUDGET paths have come back; past it every glob is `truncated`, which makes the
 * decision take the cautious path (deny rules checked against the pattern, no read-only approval).
 */
export function decisionLookup(inner: PathLookup, budget = DECISION_BUDGET): PathLookup {
  const reals = new Map<string, string>();
  const globs = new Map<string, GlobResult>();
  const dirs = new Map<string, boolean>();
  const plain = new Set<string>();
  let left = budget;
  const realpath = (p: string): string => {
    let r = reals.get(p);
    if (r === undefined) {
      // A glob's match that is no symlink: its directory's realpath (asked once per directory) and its name.
      r = plain.has(p) && dirname(p) !== p ? join(realpath(dirname(p)), basename(p)) : inner.realpath(p);
      reals.set(p, r);
    }
    return r;
  };
  return {
    realpath,
    glob(pattern, dot, limit = GLOB_LIMIT) {
      const key = `${dot ? 1 : 0}${pattern}`;
      let g = globs.get(key);
      if (!g) {
        if (left <= 0) g = { paths: [], truncated: true };
        else {
          const cap = Math.min(limit, left);
          g = inner.glob(pattern, dot, cap);
          if (g.paths.length >= cap && cap < limit) g = { ...g, truncated: true };
          left -= g.paths.length;
          for (const p of g.plain ?? []) plain.add(p);
        }
        globs.set(key, g);
      }
      return g;
    },
    linksUnder: inner.linksUnder && ((dir, limit) => inner.linksUnder!(dir, limit)),
    archiveNames: inner.archiveNames && ((path) => inner.archiveNames!(path)),
    isDir(p) {
      let d = dirs.get(p);
      if (d === undefined) {
        d = inner.isDir(p);
        dirs.set(p, d);
      }
      return d;
    },
  };
}
