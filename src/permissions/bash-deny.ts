import picomatch from 'picomatch';
import type { CommandFiles, Target } from './bash-files.ts';
import {
  globMayMatch,
  globMayOverlap,
  inWorkspace,
  lookOf,
  pathDenials,
  pathForms,
  pathRuleFor,
  tailMatches,
  type PathContext,
} from './path-forms.ts';
import type { GlobResult } from './look.ts';
import type { Rule } from './rules.ts';
import { runtimeFileWord } from './runtime-reads.ts';
import { fileRoles, followsLinks, namesFromFile } from './file-programs.ts';
import { resolve } from 'node:path';
import type { SimpleCommand } from './shell/parser.ts';

/**
 * File checks of one part of a Bash command against path deny rules (SPEC §11.7, §11.8): what it
 * names, through symlinks, braces and globs, in the directory it runs in. Pure but
 * for `ctx.look` (symlinks, glob expansion).
 */

export const describeRule = (r: Rule) => `"${r.text}" (${r.source})`;
export const commandText = (c: SimpleCommand) => [c.program, ...c.args].join(' ');
/** The part as the user reads it in a reason: as written, quotes kept (`grep -n "a b" f`), not unquoted. */
export const shownText = (c: SimpleCommand) => c.shown ?? commandText(c);

interface FileDenial {
  rule: Rule;
  reason: string;
}

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
  return (
    rule && {
      rule,
      path: `${t.word} (a pattern that can name a file the rule covers${truncated ? ', with too many matches to check each' : ''})`,
    }
  );
}

/** Is a rule's pattern tied to a place (`secrets/**`, `/config/x`, `~/.ssh/**`), so a tree above that place holds what it covers? */
const placed = (r: Rule) => /\/./.test((r.specifier ?? '').trim().replace(/\/+$/, ''));

/**
 * A directory removed or moved away with what is under it (`rm -r D`, `mv D E`): denied when a
 * rule covers D itself, or when the rule names a place under D (`Edit(secrets/**)` and `rm -rf .`).
 * A rule without a place (`Edit(*.pem)`) is checked against D's own name only.
 */
function treeDenied(t: Target, rules: Rule[], ctx: PathContext, dot: boolean): { rule: Rule; path: string } | undefined {
  const own = targetDenied(t, rules, 'Edit', ctx, dot);
  if (own) return own;
  for (const form of pathForms(t.abs, ctx, t.raw).forms) {
    const under = `${form.replace(/\/+$/, '')}/**`;
    const rule = rules.find((r) => placed(r) && globMayOverlap(r, under, true, ctx));
    if (rule) return { rule, path: `${t.abs} (and what is under it)` };
  }
  return undefined;
}

/** The first file of a part that a Read or Edit deny rule covers, or may cover. */
export function fileDenial(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot: boolean): FileDenial | undefined {
  const text = shownText(c);
  for (const [kind, tool, targets, unknown] of [
    ['reads', 'Read', [...f.reads, ...f.loopReads], f.unknownReads],
    ['writes', 'Edit', [...f.writes, ...f.dests], f.unknownWrites],
  ] as const) {
    const rules = pathDenials(ctx, tool);
    if (!rules.length) continue;
    for (const t of targets) {
      const d = targetDenied(t, rules, tool, ctx, dot);
      if (d) return { rule: d.rule, reason: `\`${text}\` ${kind} ${d.path}, which the rule ${describeRule(d.rule)} denies` };
    }
    if (tool === 'Edit') {
      for (const t of f.trees.filter((x) => !x.names)) {
        const d = treeDenied(t, rules, ctx, dot);
        if (d) return { rule: d.rule, reason: `\`${text}\` removes or moves ${d.path}, which the rule ${describeRule(d.rule)} protects` };
      }
    }
    for (const u of unknown) {
      const rule = u.rel ? rules.find((r) => tailMatches(r, u.rel)) : undefined;
      if (rule)
        return { rule, reason: `\`${text}\` ${kind} ${u.word}, which may be a file the rule ${describeRule(rule)} denies: ${u.why}` };
    }
  }
  return undefined;
}

/**
 * A part that may write a file an Edit deny rule covers without the command saying which: a
 * writer given a name known only at run time (`rm "$F"`, `xargs rm`), or a program not described
 * in file-programs.ts that names a covered file (`python fix.py secrets/a`). Returns the rule and why.
 */
export function editRisk(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot: boolean): { rule: Rule; why: string } | undefined {
  const rules = pathDenials(ctx, 'Edit');
  if (!rules.length) return undefined;
  const u = f.unknownWrites[0];
  if (u) return { rule: rules[0], why: `writes ${u.word}, a name known only when it runs` };
  if (c.wrappers.includes('xargs') && (f.dests.length || f.trees.length || writesOperands(c)))
    return { rule: rules[0], why: 'writes files named by xargs input' };
  for (const t of f.trees.filter((x) => x.names)) {
    const d = treeDenied(t, rules, ctx, dot);
    if (d) return { rule: d.rule, why: `may remove files under ${d.path.replace(/ \(and what is under it\)$/, '')} that the rule covers` };
  }
  if (f.undescribed) {
    for (const t of f.reads) {
      const d = targetDenied(t, rules, 'Edit', ctx, dot);
      if (d) return { rule: d.rule, why: `names ${d.path}, and what ${c.program} does with it is not known` };
    }
  }
  return undefined;
}

/** A writer (rm, cp, touch…) that gets its operands at run time (`xargs rm`, `find -exec rm {} +`). */
const writesOperands = (c: SimpleCommand) =>
  [
    'rm',
    'rmdir',
    'unlink',
    'shred',
    'truncate',
    'touch',
    'tee',
    'cp',
    'mv',
    'ln',
    'install',
    'chmod',
    'chown',
    'chgrp',
    'mkdir',
    'sed',
    'perl',
    'dd',
  ].includes(c.program);

/**
 * A Bash deny rule names a program, and a part hands that name to a program not described here
 * (`mytool rm -rf x`): it may run it. Returns the rule.
 */
export function hiddenProgram(c: SimpleCommand, f: CommandFiles, rules: Rule[]): Rule | undefined {
  const runsArgs =
    Object.hasOwn(RUNS_ARGUMENTS, c.program) && RUNS_ARGUMENTS[c.program].includes(c.args.find((a) => !a.startsWith('-')) ?? '');
  if (!f.undescribed || (KNOWN_TOOLS.has(c.program) && !runsArgs)) return undefined;
  const named = new Set(c.args.filter((a) => !a.startsWith('-')).map((a) => a.slice(a.lastIndexOf('/') + 1)));
  return rules.find(
    (r) => r.tool === 'Bash' && r.specifier !== undefined && named.has(r.specifier.trim().split(/[\s:]/)[0].replace(/^.*\//, '')),
  );
}

/**
 * A part that opens files named only at run time (`xargs cat`, `cat "$F"`, `find -exec cat {}`)
 * while a Read deny rule is in force: it cannot be shown not to read a denied file. Only programs
 * that open their arguments as files, and only dynamic words where they take files
 * (runtime-reads.ts). Returns the rule and the word.
 */
export function runtimeReadRisk(c: SimpleCommand, ctx: PathContext, f?: CommandFiles): { rule: Rule; word: string } | undefined {
  if (!c.hasExpansion) return undefined;
  const rule = pathDenials(ctx, 'Read')[0];
  if (!rule) return undefined;
  const word = runtimeFileWord(c);
  if (word === undefined) return undefined;
  // `"$f"` of `for f in *.ts`: its words were checked as files (fileDenial's loopReads).
  if (f && f.unknownReads.some((u) => u.word === word && u.loop) && !f.unknownReads.some((u) => !u.loop)) return undefined;
  return { rule, word };
}

/** `tail -f`, `tail --follow`: never ends on its own. */
const follows = (c: SimpleCommand) => c.program === 'tail' && c.args.some((a) => /^--(follow|retry)/.test(a) || /^-[^-]*[fF]/.test(a));

/** Programs whose dynamic arguments are never files (`echo $X`, `[ -n "$X" ]`). */
const NO_READS = new Set(['echo', 'pwd', '[', '[[', 'test', 'true', 'false', ':']);

/**
 * Does a read-only part (decided by the caller) read only inside the project and its added
 * directories, wherever symlinks lead and whatever globs and braces expand to?
 */
export function readsOnlyWorkspace(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot: boolean): boolean {
  if (c.hasExpansion && !NO_READS.has(c.program)) return false; // `cat $HOME/.ssh/id_rsa`
  if (follows(c) || f.unknownReads.length) return false;
  return unreadable(f, ctx, dot) === undefined && indirectReads(c, f, ctx, dot) === undefined;
}

/**
 * A glob that expands to a file whose name starts with `-` puts that name where the program reads
 * options (`tar cf o.tar *` beside a file named `--checkpoint-action=exec=sh x` runs it; `rm -f *`
 * beside `-r` removes directories): what the program then does is not what its words say. `./*`
 * and `dir/*` are safe. Returns why, or undefined.
 */
export function optionFromGlob(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot: boolean): string | undefined {
  for (const t of [...f.reads, ...f.writes, ...f.dests, ...f.trees]) {
    if (!t.glob || t.word.includes('/') || !picomatch.scan(t.abs).isGlob) continue;
    const opt = expansions(t, ctx, dot).paths.find((p) => p.slice(p.lastIndexOf('/') + 1).startsWith('-'));
    if (opt) return `${t.word} expands to ${opt.slice(opt.lastIndexOf('/') + 1)}, a name ${c.program} reads as an option`;
  }
  return undefined;
}

/**
 * Files a read-only part reads that its words do not name (SPEC §11.5): names it takes from
 * another file (`wc --files0-from=F`), and where symbolic links lead in a tree it walks through
 * them (`grep -R`, `rg -L`, `find -L`). Returns what, or undefined.
 */
function indirectReads(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot = false): string | undefined {
  // `find *` in a folder holding a file named `-delete`: the name becomes an option.
  for (const t of f.reads) {
    if (!t.glob || t.word.includes('/') || !picomatch.scan(t.abs).isGlob) continue;
    const opt = expansions(t, ctx, dot).paths.find((p) => p.slice(p.lastIndexOf('/') + 1).startsWith('-'));
    if (opt) return `${opt}, a file whose name starts with - (${t.word} puts it where ${c.program} reads options)`;
  }
  const from = namesFromFile(c);
  if (from) return `the files named in the file that ${from} gives, known only when it runs`;
  const follow = followsLinks(c);
  if (!follow) return undefined;
  const look = lookOf(ctx);
  // The trees it walks: its file operands (not grep's pattern), or where it runs.
  const named = fileRoles(c).reads.map((r) => r.path);
  const roots = named.length
    ? f.dirs.flatMap((d) => named.map((p) => (p === '~' || p.startsWith('~/') ? resolve(ctx.home, p.slice(2)) : resolve(d, p))))
    : f.dirs;
  for (const dir of roots) {
    if (!look.isDir(dir)) continue;
    const found = look.linksUnder?.(dir) ?? { targets: [], truncated: false };
    if (found.truncated) return `what the symbolic links under ${dir} lead to (${follow} follows them; too many files to check)`;
    const out = found.targets.find((p) => !inWorkspace(pathForms(p, ctx).where, ctx));
    if (out) return `${out} (${follow} follows a symbolic link under ${dir} there)`;
  }
  return undefined;
}

/**
 * Plan Mode (SPEC §11.5, like the Read tool): what a read-only part reads that is not inside the
 * project and its added directories, or that is named only when it runs, or undefined. A loop
 * variable (`for f in *.ts; do wc -l "$f"; done`) names the loop's words.
 */
export function planUnreadable(c: SimpleCommand, f: CommandFiles, ctx: PathContext, dot: boolean): string | undefined {
  if (c.wrappers.includes('xargs') || c.wrappers.some((w) => w.startsWith('find -'))) return 'files named by its input';
  const u = f.unknownReads.find((x) => !x.loop);
  if (u) return `${u.word}, a name known only when it runs`;
  return unreadable(f, ctx, dot) ?? indirectReads(c, f, ctx, dot);
}

/** The first place a part reads outside the workspace (or may, for a pattern), or undefined. */
function unreadable(f: CommandFiles, ctx: PathContext, dot: boolean): string | undefined {
  if (f.unknownDir) return `files relative to a directory not known before it runs (after ${f.unknownDir})`;
  const ok = (p: string, raw?: string) => inWorkspace(pathForms(p, ctx, raw).where, ctx);
  const dir = f.dirs.find((d) => !ok(d));
  if (dir) return `files in ${dir}`;
  for (const t of [...f.reads, ...f.loopReads]) {
    // `*/../x`: `..` after a glob is folded away before expansion, but a matched link makes it physical.
    if (t.glob && /(^|\/)\.\.(\/|$)/.test(t.word)) return t.word;
    if (t.glob && picomatch.scan(t.abs).isGlob) {
      const { base, glob } = picomatch.scan(t.abs);
      if (glob.split('/').includes('..') || !ok(base || '/')) return t.word;
      const { paths, truncated } = expansions(t, ctx, dot);
      if (truncated) return `${t.word} (too many files to check)`;
      const out = paths.find((p) => !ok(p) || (t.split && /\s/.test(p)));
      if (out) return out;
    } else if (!ok(t.abs, t.raw) || (t.split && /\s/.test(t.abs))) return t.abs;
  }
  return undefined;
}

/** Subcommands of known tools that run the program their arguments name (`npm exec touch X`, `pnpm dlx x`). */
const RUNS_ARGUMENTS: Record<string, string[]> = {
  npm: ['exec', 'x'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
  bun: ['x', 'exec'],
  pipx: ['run'],
  uv: ['run', 'tool'],
  cargo: ['run'],
  go: ['run'],
  conda: ['run'],
  poetry: ['run'],
  dotnet: ['exec', 'tool'],
};

/** Programs whose subcommands share names with programs (`npm rm`, `docker rm`) but run no program of that name. */
const KNOWN_TOOLS = new Set([
  'npm',
  'yarn',
  'pnpm',
  'bun',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'brew',
  'apt',
  'apt-get',
  'dnf',
  'yum',
  'pacman',
  'pip',
  'pip3',
  'pipx',
  'cargo',
  'go',
  'gem',
  'conda',
  'terraform',
  'gh',
  'glab',
  'aws',
  'gcloud',
  'az',
  'man',
  'info',
  'help',
  'whatis',
  'apropos',
  'tldr',
  'type',
  'whereis',
  'snap',
  'flatpak',
  'systemctl',
  'launchctl',
  'composer',
  'dotnet',
  'mvn',
  'gradle',
  'sbt',
  'mix',
  'rustup',
  'nvm',
  'sdk',
  'make',
  'cmake',
  'ninja',
  'bazel',
]);
