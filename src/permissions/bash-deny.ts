import picomatch from 'picomatch';
import type { CommandFiles, Target } from './bash-files.ts';
import { globMayMatch, globMayOverlap, inWorkspace, lookOf, pathDenials, pathForms, pathRuleFor, tailMatches, type PathContext } from './path-forms.ts';
import type { GlobResult } from './look.ts';
import type { Rule } from './rules.ts';
import { runtimeFileWord } from './runtime-reads.ts';
import type { SimpleCommand } from './shell/parser.ts';

/**
 * File checks of one part of a Bash command against path deny rules (SPEC §11.7, §11.8): what it
 * names, through symlinks (F4), braces and globs (F5), in the directory it runs in (F3). Pure but
 * for `ctx.look` (symlinks, glob expansion).
 */

export const describeRule = (r: Rule) => `"${r.text}" (${r.source})`;
export const commandText = (c: SimpleCommand) => [c.program, ...c.args].join(' ');
/** The part as the user reads it in a reason: as written, quotes kept (`grep -n "a b" f`), not unquoted. */
export const shownText = (c: SimpleCommand) => c.shown ?? commandText(c);

export interface FileDenial { rule: Rule; reason: string }

/** The files a glob may name: what it expands to on disk now (`truncated`: maybe more). */
function expansions(t: Target, ctx: PathContext, dot: boolean): GlobResult {
  return t.glob && picomatch.scan(t.abs).isGlob ? lookOf(ctx).glob(t.abs, dot) : { paths: [], truncated: false };
}

function targetDenied(t: Target, rules: Rule[], tool: string, ctx: PathContext, dot: boolean): { rule: Rule; path: string } | undefined {
  const isGlob = t.glob && picomatch.scan(t.abs).isGlob;
  if (!isGlob) {
    const rule = pathRuleFor(rules, tool, pathForms(t.abs, ctx, t.raw).forms, ctx);
    return rule && { rule, path: t.abs };
  }
  const { paths, truncated } = expansions(t, ctx, dot);
  for (const p of paths) {
    const rule = pathRuleFor(rules, tool, pathForms(p, ctx).forms, ctx);
    if (rule) return { rule, path: `${p} (${t.word} expands to it)` };
  }
  // Past the expansion cap the paths not looked at may be any the pattern names: decided on the pattern.
  const rule = rules.find((r) => globMayMatch(r, t.abs, dot, ctx) || (truncated && globMayOverlap(r, t.abs, dot, ctx)));
  return rule && { rule, path: `${t.word} (a pattern that can name a file the rule covers${truncated ? ', with too many matches to check each' : ''})` };
}

/** The first file of a part that a Read or Edit deny rule covers, or may cover. */
export function fileDenial(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot: boolean): FileDenial | undefined {
  const text = shownText(c);
  for (const [kind, tool, targets, unknown] of [['reads', 'Read', f.reads, f.unknownReads], ['writes', 'Edit', [...f.writes, ...f.dests], f.unknownWrites]] as const) {
    const rules = pathDenials(ctx, tool);
    if (!rules.length) continue;
    for (const t of targets) {
      const d = targetDenied(t, rules, tool, ctx, dot);
      if (d) return { rule: d.rule, reason: `\`${text}\` ${kind} ${d.path}, which the rule ${describeRule(d.rule)} denies` };
    }
    for (const u of unknown) {
      const rule = u.rel ? rules.find((r) => tailMatches(r, u.rel)) : undefined;
      if (rule) return { rule, reason: `\`${text}\` ${kind} ${u.word}, which may be a file the rule ${describeRule(rule)} denies: ${u.why}` };
    }
  }
  return undefined;
}

/**
 * A part that opens files named only at run time (`xargs cat`, `cat "$F"`, `find -exec cat {}`)
 * while a Read deny rule is in force: it cannot be shown not to read a denied file. Only programs
 * that open their arguments as files, and only dynamic words where they take files
 * (runtime-reads.ts). Returns the rule and the word.
 */
export function runtimeReadRisk(c: SimpleCommand, ctx: PathContext): { rule: Rule; word: string } | undefined {
  if (!c.hasExpansion) return undefined;
  const rule = pathDenials(ctx, 'Read')[0];
  if (!rule) return undefined;
  const word = runtimeFileWord(c);
  return word === undefined ? undefined : { rule, word };
}

/** `tail -f`, `tail --follow`: never ends on its own. */
const follows = (c: SimpleCommand) => c.program === 'tail' && c.args.some((a) => /^--(follow|retry)/.test(a) || /^-[^-]*[fF]/.test(a));

/**
 * Does a read-only part (decided by the caller) read only inside the project and its added
 * directories, wherever symlinks lead and whatever globs and braces expand to (F6)?
 */
export function readsOnlyWorkspace(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot: boolean): boolean {
  if (c.hasExpansion && !['echo', 'pwd', '[', '[[', 'test', 'true', 'false', ':'].includes(c.program)) return false; // `cat $HOME/.ssh/id_rsa`
  if (follows(c) || f.unknownDir || f.unknownReads.length) return false;
  const ok = (p: string, raw?: string) => inWorkspace(pathForms(p, ctx, raw).where, ctx);
  if (!f.dirs.every((d) => ok(d))) return false;
  for (const t of f.reads) {
    // `*/../x`: `..` after a glob is folded away before expansion, but a matched link makes it physical.
    if (t.glob && /(^|\/)\.\.(\/|$)/.test(t.word)) return false;
    if (t.glob && picomatch.scan(t.abs).isGlob) {
      const { base, glob } = picomatch.scan(t.abs);
      if (glob.split('/').includes('..') || !ok(base || '/')) return false;
      const { paths, truncated } = expansions(t, ctx, dot);
      if (truncated || !paths.every((p) => ok(p))) return false;
    } else if (!ok(t.abs, t.raw)) return false;
  }
  return true;
}
