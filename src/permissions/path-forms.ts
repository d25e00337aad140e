import { basename, isAbsolute, relative } from 'node:path';
import picomatch from 'picomatch';
import type { PathLookup } from './look.ts';
import { pathMatches } from './paths.ts';
import { ruleTool, type Rule, type RuleSet } from './rules.ts';

/** What path checks need from a decision's context. */
export interface PathContext {
  projectRoot: string;
  additionalDirs: readonly string[];
  home: string;
  rules: RuleSet;
  /** Where symlinks lead and what globs expand to: injected, so the decision does no I/O of its own. */
  look: PathLookup;
}

export const lookOf = (ctx: PathContext): PathLookup => ctx.look;

function inside(dir: string, p: string): boolean {
  if (dir.length > 1 && !dir.endsWith('/') && p.startsWith(dir) && !/\/(\.{1,2})?(\/|$)/.test(p)) {
    if (p.length === dir.length || p[dir.length] === '/') return true;
  }
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The forms of one file that rules are checked against (symlinks): as written (`abs`), where
 * its symlinks lead, and that real path under the project root (or an added directory) as given,
 * when the root is itself reached through a symlink. `where` is the form for inside/outside
 * decisions and allow rules: the real one. `raw` is the path before `..` was folded (`link/../x`
 * is physical to the shell).
 */
export function pathForms(abs: string, ctx: PathContext, raw = abs): { forms: string[]; where: string } {
  const look = lookOf(ctx);
  const real = look.realpath(raw);
  let where = real;
  for (const root of [ctx.projectRoot, ...ctx.additionalDirs]) {
    const r = look.realpath(root);
    if (inside(r, real)) {
      where = root + real.slice(r.length);
      break;
    }
  }
  return { forms: [...new Set([abs, where, real])], where };
}

export function inWorkspace(where: string, ctx: PathContext): boolean {
  return [ctx.projectRoot, ...ctx.additionalDirs].some((d) => inside(d, where));
}

/** A pattern relative to the project (`.env`, `secrets/**`), not anchored by `/`, `./`, `~/` or `//`. */
const relativePattern = (p: string) => !/^(\/|~\/|\.\/)/.test(p.trim());

/**
 * The directories a rule's pattern is relative to: the project root, and for a relative pattern
 * also every added directory (`--add-dir`), which is used like the project (SPEC §5).
 */
function ruleBases(spec: string, ctx: PathContext): string[] {
  const s = spec.trim();
  if (s.startsWith('~/')) return [ctx.home];
  if (s.startsWith('//')) return ['/'];
  return relativePattern(s) ? [ctx.projectRoot, ...ctx.additionalDirs] : [ctx.projectRoot];
}

/** Does a rule's pattern cover this absolute path, relative to the project or an added directory? */
function ruleCovers(spec: string, path: string, ctx: PathContext): boolean {
  if (pathMatches(spec, path, ctx.projectRoot, ctx.home)) return true;
  return relativePattern(spec) && ctx.additionalDirs.some((d) => pathMatches(spec, path, d, ctx.home));
}

/** The first rule of `list` for `tool` (or its rule `family`) whose pattern covers any form of the file. */
export function pathRuleFor(list: Rule[], tool: string, forms: string[], ctx: PathContext, family?: string): Rule | undefined {
  return list.find((r) => ruleTool(r, tool, family) && (r.specifier === undefined || forms.some((f) => ruleCovers(r.specifier!, f, ctx))));
}

/** Deny rules with a path pattern that `tool` (Read, Edit), or a tool of its rule `family`, obeys. */
export const pathDenials = (ctx: PathContext, tool: string, family?: string): Rule[] =>
  ctx.rules.deny.filter((r) => r.specifier !== undefined && ruleTool(r, tool, family));

/** Is `p` (a rule's pattern, gitignore-style) free of wildcards? */
const literal = (p: string) => !/[*?[\]{}!\\]/.test(p);

/** A rule's pattern relative to its base, without the `~/`, `//` or `/` that anchors it. */
function bare(spec: string): { path: string; anchored: boolean } {
  let p = spec.trim();
  let anchored = false;
  if (p.startsWith('~/')) {
    p = p.slice(2);
    anchored = true;
  } else if (p.startsWith('//')) {
    p = p.slice(2);
    anchored = true;
  } else if (p.startsWith('./')) {
    p = p.replace(/^(\.\/)+/, '');
    anchored = true;
  } else if (p.startsWith('/')) {
    p = p.slice(1);
    anchored = true;
  }
  p = p.replace(/\/+$/, '');
  return { path: p, anchored: anchored || p.includes('/') };
}

/**
 * Could the rule cover a file known only by a path relative to a directory we do not know
 * (`cd "$X" && cat prod.json`, `~user/.env`)? Conservative: any tail of the pattern that
 * matches the path, or the path's base name for an unanchored pattern.
 */
export function tailMatches(rule: Rule, rel: string): boolean {
  const { path, anchored } = bare(rule.specifier ?? '**');
  if (path === '' || path === '*' || path === '**') return true;
  const norm = rel
    .split('/')
    .filter((s) => s !== '' && s !== '.' && s !== '..')
    .join('/');
  if (norm === '') return false;
  const opts = { dot: true };
  if (!anchored && picomatch(path, opts)(basename(norm))) return true;
  const segs = path.split('/');
  for (let k = 0; k < segs.length; k++) if (picomatch(segs.slice(k).join('/'), opts)(norm)) return true;
  return false;
}

/**
 * Could an absolute shell glob name a file the rule covers, without looking at the disk? For
 * literal patterns only (`.env`, `/config/prod.json`): `.e*`, `.en?`, `config/*.json` do.
 */
export function globMayMatch(rule: Rule, globAbs: string, dot: boolean, ctx: PathContext): boolean {
  const spec = rule.specifier ?? '';
  const { path, anchored } = bare(spec);
  if (!literal(path)) return false;
  const opts = { dot, nocase: dot };
  if (!anchored) return picomatch(basename(globAbs), opts)(basename(path));
  return ruleBases(spec, ctx).some((base) => picomatch(globAbs, opts)(`${base === '/' ? '' : base}/${path}`));
}

/**
 * Could an absolute shell glob name a file the rule covers, whatever is on disk? Conservative, for
 * globs whose expansion was cut short: compares the two patterns segment by segment; a segment
 * pair that could match the same name (or any `**`) counts, and a rule naming a directory covers
 * what is under it (gitignore).
 */
export function globMayOverlap(rule: Rule, globAbs: string, dot: boolean, ctx: PathContext): boolean {
  const spec = (rule.specifier ?? '**').trim();
  if (spec === '*' || spec === '**') return true;
  const { path, anchored } = bare(spec);
  const both = (g: string, r: string) => {
    const gw = picomatch.scan(g).isGlob;
    const rw = !literal(r);
    if (!gw && !rw) return g === r;
    if (!rw) return picomatch(g, { dot, nocase: dot })(r);
    if (!gw) return picomatch(r, { dot: true })(g);
    return true;
  };
  const gs = globAbs.split('/').filter((s) => s !== '');
  if (!anchored) return gs.some((g) => both(g, path));
  return ruleBases(spec, ctx).some((base) => {
    const rs = [...base.split('/'), ...path.split('/')].filter((s) => s !== '');
    for (let k = 0; k < Math.min(gs.length, rs.length); k++) {
      if (rs[k] === '**') {
        const tail = rs.slice(k + 1).filter((s) => s !== '**');
        return tail.length === 0 || gs.slice(k).some((g) => both(g, tail[tail.length - 1]));
      }
      if (!both(gs[k], rs[k])) return false;
    }
    return true;
  });
}

/** The deny rule that keeps `tool` (a tool of the Read family) from this file, through symlinks too (search results leave it out). */
export function readDenied(tool: string, abs: string, ctx: PathContext): Rule | undefined {
  const rules = pathDenials(ctx, tool, 'Read');
  return rules.length ? pathRuleFor(rules, tool, pathForms(abs, ctx).forms, ctx, 'Read') : undefined;
}
