import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Resolves a path from the model or the user: `~` and `~/x` expand to the home directory, relative paths resolve against `cwd`. */
export function resolvePath(p: string, cwd: string, home: string = process.env.HOME || homedir()): string {
  const trimmed = p.trim();
  if (trimmed === '~') return home;
  if (trimmed.startsWith('~/')) return resolve(home, trimmed.slice(2));
  return resolve(cwd, trimmed);
}

/** True when `p` is `dir` itself or somewhere below it (both absolute). */
export function isInside(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** `p` relative to `cwd` when inside it, else absolute: how tools show paths to the model. */
export function displayPath(p: string, cwd: string): string {
  if (!isInside(cwd, p)) return p;
  return relative(cwd, p) || '.';
}
