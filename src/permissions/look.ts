import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import picomatch from 'picomatch';

/**
 * The only filesystem questions a permission decision asks (SPEC §5, F4/F5 of audit 4): where a
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
  /** The existing paths an absolute shell glob expands to (bash's rules; `dot`: patterns match leading dots). */
  glob(pattern: string, dot: boolean): string[];
  isDir(path: string): boolean;
}

/** Nothing on disk: paths are what they say, globs expand to nothing. */
export const noLookup: PathLookup = { realpath: (p) => join(p), glob: () => [], isDir: () => true };

/** At most this many paths from one glob (more: the first ones; every one is checked). */
const GLOB_LIMIT = 2000;

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

function glob(pattern: string, dot: boolean): string[] {
  let paths = ['/'];
  for (const seg of pattern.split('/').filter((s) => s !== '')) {
    if (!picomatch.scan(seg).isGlob) { paths = paths.map((p) => join(p, seg)); continue; }
    const isMatch = picomatch(seg, { dot });
    const next: string[] = [];
    for (const p of paths) {
      let names: string[] = [];
      try { names = readdirSync(p); } catch { /* not a directory */ }
      for (const n of names) if (isMatch(n) && next.length < GLOB_LIMIT) next.push(join(p, n));
    }
    paths = next;
    if (paths.length === 0) return [];
  }
  return paths.filter((p) => { try { lstatSync(p); return true; } catch { return false; } });
}

export const fsLookup: PathLookup = {
  realpath,
  glob,
  isDir: (p) => { try { return statSync(p).isDirectory(); } catch { return false; } },
};
