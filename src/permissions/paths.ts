import ignore from 'ignore';
import { basename, isAbsolute, relative, resolve } from 'node:path';

/**
 * Does a path rule's pattern cover this absolute path? Patterns are gitignore-style (SPEC §5):
 * relative to the project root (`src/**`, `.env`, `/build` anchored at the root), `~/…` from the
 * home directory, `//…` an absolute filesystem path (Claude Code's forms).
 */
export function pathMatches(pattern: string, absPath: string, projectRoot: string, home: string): boolean {
  let base = projectRoot;
  let p = pattern.trim();
  if (p === '' ) return false;
  if (p === '*' || p === '**') return true;
  if (p.startsWith('~/')) { base = home; p = p.slice(2); }
  else if (p.startsWith('//')) { base = '/'; p = p.slice(2); }
  const rel = relative(base, absPath);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  try {
    return ignore().add(p).ignores(rel);
  } catch {
    return false;
  }
}

/** A program named in a command or a rule, by its base name: `/bin/rm`, `\rm`, `'rm'` → `rm` (SPEC §11.6). */
export function programName(word: string): string {
  const unquoted = word.replace(/^['"]|['"]$/g, '').replace(/^\\/, '');
  return basename(unquoted);
}

export function absolute(p: string, cwd: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return resolve(home, p.slice(2));
  return resolve(cwd, p);
}
