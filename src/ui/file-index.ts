import { basename } from 'node:path';
import { COMMON_RG_FLAGS, runRg } from '../fs/rg.ts';
import type { Candidate } from './complete.ts';

/**
 * The project's files for `@` completion, as `rg --files` lists them (.gitignore respected at every
 * level, hidden files included, VCS folders not), with their directories. Listed again when older
 * than `ttlMs`; at most `max` files. Never rejects: an error gives what was found.
 */
export class FileIndex {
  private paths: string[] = [];
  private at = -Infinity;
  private loading?: Promise<string[]>;
  constructor(
    private readonly cwd: string,
    private readonly ttlMs = 5000,
    private readonly max = 50_000,
  ) {}

  list(): Promise<string[]> {
    if (Date.now() - this.at < this.ttlMs) return Promise.resolve(this.paths);
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<string[]> {
    const files: string[] = [];
    const ac = new AbortController();
    await runRg(['--files', ...COMMON_RG_FLAGS], this.cwd, ac.signal, (line) => {
      if (files.length < this.max) files.push(line.replace(/^\.\//, ''));
      else ac.abort();
    });
    const dirs = new Set<string>();
    for (const f of files) for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i + 1));
    this.paths = [...dirs, ...files];
    this.at = Date.now();
    return this.paths;
  }
}

const isSubsequence = (q: string, s: string) => {
  let i = 0;
  for (const c of s) if (c === q[i]) i++;
  return i === q.length;
};

/**
 * `@Button` → `@src/components/Button.tsx`: paths whose name (then whole path) matches `query`,
 * best first: the name (or the name without its extension) equal to it, starting with it,
 * containing it; the path containing it; its letters in order in the name, then in the path.
 * Case-insensitive; among equals, shorter names, then shorter paths, first. Pure.
 */
export function fuzzyPaths(query: string, paths: readonly string[], limit = 50): Candidate[] {
  const q = query.toLowerCase();
  const scored: Array<{ p: string; s: number; n: number }> = [];
  for (const p of paths) {
    const lower = p.toLowerCase();
    const name = basename(lower);
    const stem = name.replace(/\.[^.]*$/, '');
    const s =
      name === q || stem === q
        ? 0
        : name.startsWith(q)
          ? 1
          : name.includes(q)
            ? 2
            : lower.includes(q)
              ? 3
              : isSubsequence(q, name)
                ? 4
                : isSubsequence(q, lower)
                  ? 5
                  : -1;
    if (s >= 0) scored.push({ p, s, n: name.length });
  }
  scored.sort((a, b) => a.s - b.s || a.n - b.n || a.p.length - b.p.length || a.p.localeCompare(b.p));
  return scored.slice(0, limit).map(({ p }) => ({ value: `@${p}`, partial: p.endsWith('/') }));
}
