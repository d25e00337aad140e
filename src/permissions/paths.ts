import ignore, { type Ignore } from 'ignore';
import { basename, isAbsolute, relative, resolve } from 'node:path';

/**
 * A rule's pattern split into the directory it is relative to and the gitignore-style rest
 * (SPEC §5, Claude Code's forms): `~/…` from the home directory, `//…` an absolute filesystem
 * path, `/…` and `./…` anchored at the project root, anything else relative to the project root
 * and matching at any depth when it has no slash (gitignore).
 */
export function patternBase(pattern: string, projectRoot: string, home: string): { base: string; rest: string } {
  const p = pattern.trim();
  if (p.startsWith('~/')) return { base: home, rest: p.slice(2) };
  if (p.startsWith('//')) return { base: '/', rest: p.slice(2) };
  // `./.env`, `./src/**`: relative to the project root, anchored there (gitignore itself never matches `./`).
  if (p.startsWith('./')) return { base: projectRoot, rest: `/${p.replace(/^(\.\/)+/, '')}` };
  return { base: projectRoot, rest: p };
}

/**
 * One `ignore` matcher per pattern, built once (building one costs ~17 µs; decisions check
 * thousands of paths). A matcher also remembers every path it was asked about, so it is rebuilt
 * after a while to keep that memory bounded.
 */
const matchers = new Map<string, { ig: Ignore | null; uses: number }>();
function matcher(rest: string): Ignore | null {
  let m = matchers.get(rest);
  if (m === undefined || m.uses > 20_000) {
    let ig: Ignore | null;
    try {
      ig = ignore().add(rest);
    } catch {
      ig = null;
    }
    if (matchers.size > 1000) matchers.clear();
    m = { ig, uses: 0 };
    matchers.set(rest, m);
  }
  m.uses++;
  return m.ig;
}

/** A `.`, `..` or empty segment: the path is not normalised. */
const DOT_SEGMENT = /\/(\.{1,2})?(\/|$)/;

/** `abs` relative to `base` when it is inside it (both absolute and normalised), else undefined. Faster than path.relative. */
function under(base: string, abs: string): string | undefined {
  if (base === '/') return abs.length > 1 ? abs.slice(1) : undefined;
  if (abs.length > base.length + 1 && abs.startsWith(base) && abs[base.length] === '/') return abs.slice(base.length + 1);
  return undefined;
}

/**
 * Why the `ignore` library can never match this pattern (a `.` or `..` segment, which gitignore
 * takes literally), or undefined. Checked when rules are loaded, so no rule silently matches nothing.
 */
export function unmatchablePattern(pattern: string): string | undefined {
  const p = pattern.trim();
  if (p === '' || p === '*' || p === '**') return undefined;
  const { rest } = patternBase(p, '/', '/');
  const segs = rest.replace(/^\/+/, '').split('/');
  if (segs.some((s) => s === '..'))
    return 'a `..` segment never matches: write the path from the project root, or an absolute path as //path';
  if (segs.some((s) => s === '.')) return 'a `.` segment inside the pattern never matches: remove it';
  if (!matcher(rest)) return 'the pattern is not a valid gitignore pattern';
  return undefined;
}

/**
 * Does a path rule's pattern cover this absolute path? Patterns are gitignore-style (SPEC §5):
 * relative to the project root (`src/**`, `.env`, `/build` and `./build` anchored at the root),
 * `~/…` from the home directory, `//…` an absolute filesystem path (Claude Code's forms).
 */
export function pathMatches(pattern: string, absPath: string, projectRoot: string, home: string): boolean {
  const p = pattern.trim();
  if (p === '') return false;
  if (p === '*' || p === '**') return true;
  const { base, rest } = patternBase(p, projectRoot, home);
  const rel =
    absPath.startsWith('/') && !DOT_SEGMENT.test(absPath) ? under(base.replace(/\/+$/, '') || '/', absPath) : fallback(base, absPath);
  if (rel === undefined) return false;
  try {
    return matcher(rest)?.ignores(rel) ?? false;
  } catch {
    return false;
  }
}

function fallback(base: string, absPath: string): string | undefined {
  const rel = relative(base, absPath);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
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
