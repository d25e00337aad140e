import picomatch from 'picomatch';
import { commandText, shownText, describeRule as describe, fileDenial, readsOnlyWorkspace, runtimeReadRisk } from './bash-deny.ts';
import { commandFiles, type CommandFiles } from './bash-files.ts';
import { decisionLookup, fsLookup, type PathLookup } from './look.ts';
import { decideByMode, protectedFile, type Decision, type PermissionMode } from './modes.ts';
import { lookOf, pathDenials, pathForms, pathRuleFor, tailMatches } from './path-forms.ts';
import { absolute, programName } from './paths.ts';
import { matchesBash, type Rule, type RuleSet } from './rules.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

export interface DecideContext {
  mode: PermissionMode;
  projectRoot: string;
  additionalDirs: string[];
  home: string;
  rules: RuleSet;
  /** The Bash command, split (required for Bash). */
  shell?: ShellAnalysis;
  /** The Bash tool's working directory, which persists between calls (default: the project root). */
  cwd?: string;
  /**
   * Where symlinks lead and what globs expand to: the decision's only filesystem access
   * (default: the real filesystem; tests pass `noLookup`).
   */
  look?: PathLookup;
}

export interface RuledDecision extends Decision {
  /** The rule that decided, when one did. */
  rule?: Rule;
  /** An ask that this allow rule would have allowed (for `allowed-tools` of a command). */
  needs?: string;
  /** The part of a Bash command that was not allowed. */
  part?: string;
}

/** Read-only commands of SPEC §11.5 (Plan Mode runs them). git only with these subcommands. */
const READ_ONLY = new Set(['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'find', 'pwd', 'echo', 'which', 'file', 'stat', 'du', 'tree',
  // Conditions, which change nothing: `[ -d node_modules ] || npm install` needs only npm's rule.
  '[', '[[', 'test', 'true', 'false', ':',
  // `while read l; do …; done < file`: read only fills a variable (the loop's body is checked on its own).
  'read']);
const READ_ONLY_GIT = new Set(['status', 'log', 'diff', 'show', 'branch', 'blame']);
const FIND_WRITES = /^-(exec|execdir|ok|okdir|delete|fprint.*|fls)$/;
/** Version control needs an explicit grant naming it (SPEC §5). */
const VCS = new Set(['git', 'gh']);

/** A word of the command's text, anywhere (quoted, in a herestring, in a heredoc), that names a file a Read deny rule covers. */
function spelledDenial(command: string, cwd: string, ctx: DecideContext): { rule: Rule; word: string } | undefined {
  const rules = pathDenials(ctx, 'Read');
  for (const word of new Set(command.split(/[\s"'`;&|()<>=$]+/))) {
    if (word === '' || word.startsWith('-')) continue;
    const rule = pathRuleFor(rules, 'Read', [absolute(word, cwd, ctx.home)], ctx) ?? rules.find((r) => tailMatches(r, word));
    if (rule) return { rule, word };
  }
  return undefined;
}

function bashRuleMatches(rule: Rule, c: SimpleCommand): boolean {
  if (rule.tool !== 'Bash') return false;
  if (rule.specifier === undefined) return !VCS.has(c.program) || rule.kind !== 'allow';
  const [first, ...rest] = rule.specifier.trim().split(/\s+/);
  const spec = [programName(first.replace(/:\*$/, '')) + (first.endsWith(':*') ? ':*' : ''), ...rest].join(' ');
  if (rule.kind === 'allow' && VCS.has(c.program) && !new RegExp(`^${c.program}(\\s|:|$)`).test(spec)) return false;
  return matchesBash(spec, commandText(c));
}

function isReadOnly(c: SimpleCommand): boolean {
  if (c.redirects.some((r) => r.writes && r.target !== '/dev/null')) return false;
  if (c.program === 'git') {
    const sub = c.args.find((a) => !a.startsWith('-')) ?? '';
    if (!READ_ONLY_GIT.has(sub) || c.args.some((a) => a.startsWith('--output') || a === '--ext-diff' || a.startsWith('--textconv'))) return false;
    // `git branch NAME` creates, `-d/-D/-m/-c` delete, move or copy: only listing is read-only.
    if (sub === 'branch') return c.args.slice(c.args.indexOf('branch') + 1).every((a) => /^(-a|-r|-v|-vv|--all|--remotes|--list|--show-current|--contains|--merged|--no-merged|--verbose|--color|--no-color)$/.test(a));
    return true;
  }
  if (c.program === 'tree' && c.args.some((a) => a === '-o' || a.startsWith('-o'))) return false;
  if (c.program === 'file' && c.args.some((a) => /^-[a-zA-Z]*C/.test(a) || a === '--compile')) return false;
  if (c.program === 'find') return !c.args.some((a) => FIND_WRITES.test(a));
  return READ_ONLY.has(c.program) && c.wrappers.every((w) => w === 'time' || w === 'command');
}

/** A part that runs without asking when it reads only the workspace: read-only (SPEC §11.5), not version control. */
export const isReadOnlyPart = (c: SimpleCommand): boolean => !VCS.has(c.program) && isReadOnly(c);

/** Whether every part of a split command is on the read-only list (SPEC §11.5), with nothing unanalysable. */
export function isReadOnlyCommand(a: ShellAnalysis): boolean {
  return a.unanalysable.length === 0 && a.commands.every(isReadOnly);
}

function decideBash(input: Record<string, unknown>, ctx: DecideContext): RuledDecision {
  const a = ctx.shell;
  if (!a) return { behavior: 'ask', reason: 'the command could not be analysed' };
  const { rules } = ctx;
  const start = ctx.cwd && lookOf(ctx).isDir(ctx.cwd) ? ctx.cwd : ctx.projectRoot;
  const files = commandFiles(a, String(input.command ?? ''), start, ctx.projectRoot, ctx.home);
  // `shopt -s dotglob` makes `*` match `.env`.
  const dot = a.commands.some((c) => c.program === 'shopt');
  // 1. deny rules: any part, any file it reads (Read deny) or writes (Edit deny).
  for (const [i, c] of a.commands.entries()) {
    const r = rules.deny.find((d) => bashRuleMatches(d, c));
    if (r) return { behavior: 'deny', reason: `\`${shownText(c)}\` is denied by the rule ${describe(r)}`, rule: r };
    const denied = fileDenial(c, files[i], ctx, dot);
    if (denied) return { behavior: 'deny', ...denied };
  }
  // A file name known only at run time, with a Read deny in force: asks; Plan Mode refuses. Bypass runs it
  // (SPEC §5: only deny rules refuse there) unless the command spells a denied file anywhere (`xargs cat <<< .env`).
  for (const c of a.commands) {
    const risk = runtimeReadRisk(c, ctx);
    if (!risk) continue;
    const rd = risk.rule;
    const reason = `\`${shownText(c)}\` opens files named only when it runs (${risk.word}), so it cannot be checked against the rule ${describe(rd)}`;
    if (ctx.mode === 'bypass') {
      const spelled = spelledDenial(String(input.command ?? ''), start, ctx);
      if (spelled) return { behavior: 'deny', reason: `${reason}, and the command names ${spelled.word}, which it denies`, rule: spelled.rule, remedy: 'name the files in the command' };
      continue;
    }
    if (ctx.mode === 'plan') return { behavior: 'deny', reason, rule: rd, remedy: 'name the files in the command' };
    return { behavior: 'ask', firm: true, reason, rule: rd, remedy: 'name the files in the command' };
  }
  if (a.unanalysable.length && ctx.mode !== 'bypass' && ctx.mode !== 'plan') {
    return { behavior: 'ask', reason: `the command cannot be fully analysed (${a.unanalysable.join('; ')})`, remedy: '--permission-mode bypass (only in a sandbox)' };
  }
  // 2. Plan Mode: only read-only commands, whatever the rules say.
  if (ctx.mode === 'plan') {
    const bad = a.unanalysable.length ? undefined : a.commands.find((c) => !isReadOnly(c));
    if (a.unanalysable.length || bad) {
      return { behavior: 'deny', reason: `Plan Mode: \`${bad ? shownText(bad) : String(input.command)}\` is not a read-only command. In Plan Mode only reading, searching, read-only commands and writing plan.md are allowed.`, remedy: 'leave Plan Mode (--permission-mode normal or auto-accept)' };
    }
    return { behavior: 'allow', reason: 'read-only command in Plan Mode' };
  }
  if (ctx.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode runs everything but denied commands' };
  const guarded = protectedArgument(a, files, ctx, dot);
  if (guarded) return guarded;
  // 3. ask rules, 4. allow rules (every part must be allowed; writes by redirection count as edits).
  for (const c of a.commands) {
    const r = rules.ask.find((d) => bashRuleMatches(d, c));
    if (r) return { behavior: 'ask', firm: true, reason: `\`${shownText(c)}\` matches the ask rule ${describe(r)}`, rule: r };
  }
  if (a.commands.length === 0) return { behavior: 'allow', reason: 'the command runs no program' };
  let last: Rule | undefined;
  let readOnly = 0;
  for (const [i, c] of a.commands.entries()) {
    const r = rules.allow.find((d) => bashRuleMatches(d, c));
    if (!r && readOnlyInWorkspace(c, files[i], ctx, dot)) { readOnly++; continue; }
    if (!r) {
      const vcs = VCS.has(c.program);
      return {
        behavior: 'ask',
        reason: vcs ? `\`${shownText(c)}\` is a version-control command and ${c.program} is not granted` : `\`${shownText(c)}\` is not allowed by any rule`,
        remedy: vcs ? `--allowed-tools "Bash(${c.program}:*)"` : `--allowed-tools "Bash(${c.program}:*)" (or the exact command)`,
        needs: `Bash(${c.program}:*)`,
        part: commandText(c),
      };
    }
    const writes = writesDecision(c, files[i], ctx);
    if (writes) return writes;
    last = r;
  }
  if (!last) return { behavior: 'allow', reason: 'read-only command inside the project' };
  return { behavior: 'allow', reason: `allowed by ${a.commands.length > 1 ? `rules for every part${readOnly ? ' (or read-only)' : ''}` : `the rule ${describe(last)}`}`, rule: last };
}

/**
 * A read-only command (SPEC §11.5) that names no file outside the project and its added
 * directories runs without asking in every mode, as read-only tools do (and as in Claude Code).
 * git is not among them here: version control runs on its own only with a grant (SPEC §5).
 */
function readOnlyInWorkspace(c: SimpleCommand, f: CommandFiles, ctx: DecideContext, dot: boolean): boolean {
  return !VCS.has(c.program) && isReadOnly(c) && readsOnlyWorkspace(c, f, ctx, dot);
}

/** Files an allowed part writes (redirections, `git log --output`) are decided as edits (SPEC §11.8). */
function writesDecision(c: SimpleCommand, f: CommandFiles, ctx: DecideContext): RuledDecision | undefined {
  const u = f.unknownWrites[0];
  if (u) return { behavior: 'ask', reason: `\`${shownText(c)}\` writes ${u.word}: ${u.why}`, remedy: 'name the file in the command' };
  for (const t of f.writes) {
    const edit = decideFile('Edit', t.abs, ctx, {}, t.raw);
    if (edit.behavior !== 'allow') return { ...edit, reason: `\`${shownText(c)}\` writes ${t.abs}: ${edit.reason}` };
  }
  return undefined;
}

/** The project-relative rule that would allow editing `where`. */
const editRule = (where: string, ctx: DecideContext) => `Edit(/${where.startsWith(`${ctx.projectRoot}/`) ? where.slice(ctx.projectRoot.length + 1) : where})`;

function decideFile(tool: string, abs: string | undefined, ctx: DecideContext, input: Record<string, unknown> = {}, raw = abs): RuledDecision {
  const { rules } = ctx;
  const target = abs ?? ctx.projectRoot;
  // Rules see the path as written and where its symlinks lead (F4); the mode sees where it leads.
  const { forms, where } = pathForms(target, ctx, raw ?? target);
  const d = pathRuleFor(rules.deny, tool, forms, ctx);
  if (d) return { behavior: 'deny', reason: `${tool} of ${target}${where !== target ? ` (a link to ${where})` : ''} is denied by the rule ${describe(d)}`, rule: d };
  const byMode = decideByMode(tool, abs ? { ...input, file_path: where } : input, { mode: ctx.mode, projectRoot: ctx.projectRoot, additionalDirs: ctx.additionalDirs });
  if (byMode.behavior === 'deny' || ctx.mode === 'bypass') return byMode;
  const ask = pathRuleFor(rules.ask, tool, forms, ctx);
  if (ask) return { behavior: 'ask', firm: true, reason: `${tool} of ${target} matches the ask rule ${describe(ask)}`, rule: ask };
  const guarded = abs && (tool === 'Edit' || tool === 'Write') ? forms.map((f) => protectedFile(f, ctx.projectRoot, ctx.home)).find(Boolean) : undefined;
  if (guarded) return { behavior: 'ask', firm: true, reason: `${tool} of ${target} changes ${guarded}, which always needs the user's approval`, remedy: '--permission-mode bypass (only in a sandbox)' };
  if (abs && protectedFile(abs, ctx.projectRoot, ctx.home)) return byMode;
  const allow = pathRuleFor(rules.allow, tool, [where], ctx);
  if (allow) return { behavior: 'allow', reason: `allowed by the rule ${describe(allow)}`, rule: allow };
  return byMode.behavior === 'ask' && (tool === 'Edit' || tool === 'Write') && abs ? { ...byMode, needs: editRule(where, ctx) } : byMode;
}

/** `/a/b/c` → `/a/b/c`, `/a/b`, `/a`. */
const ancestors = (p: string): string[] => p.split('/').slice(1).map((_, i, segs) => `/${segs.slice(0, segs.length - i).join('/')}`);

/** Programs that delete, move or change whole trees: naming a directory that holds the settings changes them. */
function changesTrees(c: SimpleCommand): boolean {
  const flags = c.args.filter((a) => a.startsWith('-'));
  const shortHas = (ch: string) => flags.some((a) => !a.startsWith('--') && a.slice(1).includes(ch));
  switch (c.program) {
    case 'rm': return shortHas('r') || shortHas('R') || flags.includes('--recursive');
    case 'mv': return true;
    case 'rsync': return flags.some((a) => a.startsWith('--delete') || a.startsWith('--remove-source'));
    case 'chmod': case 'chown': case 'chgrp': return shortHas('R') || flags.includes('--recursive');
    case 'find': return c.args.includes('-delete');
    default: return false;
  }
}

/**
 * SPEC §4: changes to the settings that hold the guards (and .git/, shell start-up files) always
 * ask, whatever the rules allow. A part that is not read-only asks when it names such a file,
 * the `.assistant` directory itself, or a pattern matching a settings file
 * (`rm .assistant/*`). A directory above the settings (`.`, `..`) counts only for programs that
 * delete or move whole trees (`rm -r .`, `mv . ../x`, `find . -delete`): `git add .`,
 * `prettier --write .`, `cmake ..` do not change the settings.
 */
function protectedArgument(a: ShellAnalysis, files: CommandFiles[], ctx: DecideContext, dot: boolean): RuledDecision | undefined {
  const dirs = [ctx.projectRoot, ctx.home].map((d) => `${d}/.assistant`);
  const settings = dirs.flatMap((d) => ['settings.json', 'settings.local.json'].map((f) => `${d}/${f}`));
  for (const [i, c] of a.commands.entries()) {
    if (isReadOnly(c) || c.program === 'mkdir') continue;
    const trees = changesTrees(c);
    for (const t of [...files[i].reads, ...files[i].writes, ...files[i].dests]) {
      for (const f of pathForms(t.abs, ctx, t.raw).forms) {
        const pattern = t.glob && picomatch.scan(f).isGlob;
        const named = pattern
          ? settings.some((p) => picomatch.isMatch(p, f, { dot: true })) || (trees && dirs.flatMap(ancestors).some((p) => picomatch.isMatch(p, f, { dot })))
          : dirs.includes(f.replace(/\/+$/, '')) || (trees && settings.some((p) => f === '/' || p.startsWith(`${f}/`)));
        const what = protectedFile(f, ctx.projectRoot, ctx.home) ?? (named ? 'assistant settings (hooks and permission rules)' : undefined);
        if (what) {
          return { behavior: 'ask', firm: true, reason: `\`${shownText(c)}\` may change ${what}, which always needs the user's approval`, remedy: '--permission-mode bypass (only in a sandbox)' };
        }
      }
    }
  }
  return undefined;
}

/**
 * The one permission decision (SPEC §5, §11.5): deny rules → Plan Mode → ask rules → allow rules →
 * the mode's default. Pure: no I/O; the Bash command comes already split in `ctx.shell`.
 */
export function decide(tool: string, input: Record<string, unknown>, given: DecideContext): RuledDecision {
  // One lookup per decision: realpaths and glob expansions are remembered, and globs stop at a budget.
  const ctx: DecideContext = { ...given, look: decisionLookup(given.look ?? fsLookup) };
  if (tool === 'Bash') return decideBash(input, ctx);
  const raw = (input.file_path ?? input.path) as unknown;
  let abs = typeof raw === 'string' && raw !== '' ? absolute(raw, ctx.projectRoot, ctx.home) : undefined;
  let physical = typeof raw === 'string' && raw !== '' && !raw.startsWith('/') && !raw.startsWith('~') ? `${ctx.projectRoot}/${raw}` : abs;
  if (tool === 'Glob' && typeof input.pattern === 'string') {
    // A pattern can reach outside on its own (`/etc/*`, `../../**`, `~/.ssh/*`): decide on its literal base.
    const base = picomatch.scan(input.pattern).base;
    if (base) { abs = absolute(base, abs ?? ctx.projectRoot, ctx.home); physical = abs; }
  }
  if (['Read', 'Grep', 'Glob', 'LS', 'Edit', 'Write'].includes(tool)) return decideFile(tool, abs, ctx, input, physical);
  // Other tools: whole-tool rules and the mode.
  const d = ctx.rules.deny.find((r) => r.tool === tool);
  if (d) return { behavior: 'deny', reason: `${tool} is denied by the rule ${describe(d)}`, rule: d };
  const byMode = decideByMode(tool, input, { mode: ctx.mode, projectRoot: ctx.projectRoot, additionalDirs: ctx.additionalDirs });
  if (byMode.behavior === 'deny' || ctx.mode === 'bypass') return byMode;
  const ask = ctx.rules.ask.find((r) => r.tool === tool);
  if (ask) return { behavior: 'ask', firm: true, reason: `${tool} matches the ask rule ${describe(ask)}`, rule: ask };
  const allow = ctx.rules.allow.find((r) => r.tool === tool);
  if (allow) return { behavior: 'allow', reason: `allowed by the rule ${describe(allow)}`, rule: allow };
  return byMode;
}
