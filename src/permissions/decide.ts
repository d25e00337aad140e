import picomatch from 'picomatch';
import { decideByMode, protectedFile, type Decision, type PermissionMode } from './modes.ts';
import { absolute, pathMatches, programName } from './paths.ts';
import { matchesBash, ruleTool, type Rule, type RuleSet } from './rules.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

export interface DecideContext {
  mode: PermissionMode;
  projectRoot: string;
  additionalDirs: string[];
  home: string;
  rules: RuleSet;
  /** The Bash command, split (required for Bash). */
  shell?: ShellAnalysis;
}

export interface RuledDecision extends Decision {
  /** The rule that decided, when one did. */
  rule?: Rule;
}

/** Read-only commands of SPEC §11.5 (Plan Mode runs them). git only with these subcommands. */
const READ_ONLY = new Set(['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'find', 'pwd', 'echo', 'which', 'file', 'stat', 'du', 'tree']);
const READ_ONLY_GIT = new Set(['status', 'log', 'diff', 'show', 'branch', 'blame']);
const FIND_WRITES = /^-(exec|execdir|ok|okdir|delete|fprint.*|fls)$/;
/** Version control needs an explicit grant naming it (SPEC §5). */
const VCS = new Set(['git', 'gh']);

const describe = (r: Rule) => `"${r.text}" (${r.source})`;

function commandText(c: SimpleCommand): string {
  return [c.program, ...c.args].join(' ');
}

function bashRuleMatches(rule: Rule, c: SimpleCommand): boolean {
  if (rule.tool !== 'Bash') return false;
  if (rule.specifier === undefined) return !VCS.has(c.program) || rule.kind !== 'allow';
  const [first, ...rest] = rule.specifier.trim().split(/\s+/);
  const spec = [programName(first.replace(/:\*$/, '')) + (first.endsWith(':*') ? ':*' : ''), ...rest].join(' ');
  if (rule.kind === 'allow' && VCS.has(c.program) && !new RegExp(`^${c.program}(\\s|:|$)`).test(spec)) return false;
  return matchesBash(spec, commandText(c));
}

function pathRule(rule: Rule, tool: string, abs: string, ctx: DecideContext): boolean {
  if (!ruleTool(rule, tool)) return false;
  if (rule.specifier === undefined) return true;
  return pathMatches(rule.specifier, abs, ctx.projectRoot, ctx.home);
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

/** Whether every part of a split command is on the read-only list (SPEC §11.5), with nothing unanalysable. */
export function isReadOnlyCommand(a: ShellAnalysis): boolean {
  return a.unanalysable.length === 0 && a.commands.every(isReadOnly);
}

/** Files a command reads or writes that rules can see: arguments and redirections (SPEC §11.7, §11.8). */
function fileRefs(c: SimpleCommand, ctx: DecideContext) {
  const reads = [...c.args.filter((a) => !a.startsWith('-') && a !== ''), ...c.redirects.filter((r) => r.reads).map((r) => r.target)];
  const writes = c.redirects.filter((r) => r.writes && r.target !== '/dev/null' && !r.target.startsWith('&')).map((r) => r.target);
  const abs = (p: string) => absolute(p, ctx.projectRoot, ctx.home);
  return { reads: reads.map(abs), writes: writes.map(abs) };
}

function decideBash(input: Record<string, unknown>, ctx: DecideContext): RuledDecision {
  const a = ctx.shell;
  if (!a) return { behavior: 'ask', reason: 'the command could not be analysed' };
  const { rules } = ctx;
  // 1. deny rules: any part, any file it reads (Read deny) or writes (Edit deny).
  for (const c of a.commands) {
    const r = rules.deny.find((d) => bashRuleMatches(d, c));
    if (r) return { behavior: 'deny', reason: `\`${commandText(c)}\` is denied by the rule ${describe(r)}`, rule: r };
    const refs = fileRefs(c, ctx);
    for (const f of refs.reads) {
      const rd = rules.deny.find((d) => d.tool === 'Read' && d.specifier !== undefined && pathMatches(d.specifier, f, ctx.projectRoot, ctx.home));
      if (rd) return { behavior: 'deny', reason: `\`${commandText(c)}\` reads ${f}, which the rule ${describe(rd)} denies`, rule: rd };
    }
    for (const f of refs.writes) {
      const ed = rules.deny.find((d) => pathRule(d, 'Edit', f, ctx));
      if (ed) return { behavior: 'deny', reason: `\`${commandText(c)}\` writes ${f}, which the rule ${describe(ed)} denies`, rule: ed };
    }
  }
  if (a.unanalysable.length && ctx.mode !== 'bypass' && ctx.mode !== 'plan') {
    return { behavior: 'ask', reason: `the command cannot be fully analysed (${a.unanalysable.join('; ')})`, remedy: '--permission-mode bypass (only in a sandbox)' };
  }
  // 2. Plan Mode: only read-only commands, whatever the rules say.
  if (ctx.mode === 'plan') {
    const bad = a.unanalysable.length ? undefined : a.commands.find((c) => !isReadOnly(c));
    if (a.unanalysable.length || bad) {
      return { behavior: 'deny', reason: `Plan Mode: \`${bad ? commandText(bad) : String(input.command)}\` is not a read-only command. In Plan Mode only reading, searching, read-only commands and writing plan.md are allowed.`, remedy: 'leave Plan Mode (--permission-mode normal or auto-accept)' };
    }
    return { behavior: 'allow', reason: 'read-only command in Plan Mode' };
  }
  if (ctx.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode runs everything but denied commands' };
  // 3. ask rules, 4. allow rules (every part must be allowed; writes by redirection count as edits).
  for (const c of a.commands) {
    const r = rules.ask.find((d) => bashRuleMatches(d, c));
    if (r) return { behavior: 'ask', firm: true, reason: `\`${commandText(c)}\` matches the ask rule ${describe(r)}`, rule: r };
  }
  if (a.commands.length === 0) return { behavior: 'allow', reason: 'the command runs no program' };
  let last: Rule | undefined;
  for (const c of a.commands) {
    const r = rules.allow.find((d) => bashRuleMatches(d, c));
    if (!r) {
      const vcs = VCS.has(c.program);
      return {
        behavior: 'ask',
        reason: vcs ? `\`${commandText(c)}\` is a version-control command and ${c.program} is not granted` : `\`${commandText(c)}\` is not allowed by any rule`,
        remedy: vcs ? `--allowed-tools "Bash(${c.program}:*)"` : `--allowed-tools "Bash(${c.program}:*)" (or the exact command)`,
      };
    }
    for (const f of fileRefs(c, ctx).writes) {
      const edit = decideFile('Edit', f, ctx);
      if (edit.behavior !== 'allow') return { ...edit, reason: `\`${commandText(c)}\` writes ${f}: ${edit.reason}` };
    }
    last = r;
  }
  return { behavior: 'allow', reason: `allowed by ${a.commands.length > 1 ? 'rules for every part' : `the rule ${describe(last!)}`}`, rule: last };
}

function decideFile(tool: string, abs: string | undefined, ctx: DecideContext, input: Record<string, unknown> = {}): RuledDecision {
  const { rules } = ctx;
  const target = abs ?? ctx.projectRoot;
  const d = rules.deny.find((r) => pathRule(r, tool, target, ctx));
  if (d) return { behavior: 'deny', reason: `${tool} of ${target} is denied by the rule ${describe(d)}`, rule: d };
  const byMode = decideByMode(tool, abs ? { ...input, file_path: abs } : input, { mode: ctx.mode, projectRoot: ctx.projectRoot, additionalDirs: ctx.additionalDirs });
  if (byMode.behavior === 'deny' || ctx.mode === 'bypass') return byMode;
  const ask = rules.ask.find((r) => pathRule(r, tool, target, ctx));
  if (ask) return { behavior: 'ask', firm: true, reason: `${tool} of ${target} matches the ask rule ${describe(ask)}`, rule: ask };
  if (abs && protectedFile(abs, ctx.projectRoot, ctx.home)) return byMode;
  const allow = rules.allow.find((r) => pathRule(r, tool, target, ctx));
  if (allow) return { behavior: 'allow', reason: `allowed by the rule ${describe(allow)}`, rule: allow };
  return byMode;
}

/**
 * The one permission decision (SPEC §5, §11.5): deny rules → Plan Mode → ask rules → allow rules →
 * the mode's default. Pure: no I/O; the Bash command comes already split in `ctx.shell`.
 */
export function decide(tool: string, input: Record<string, unknown>, ctx: DecideContext): RuledDecision {
  if (tool === 'Bash') return decideBash(input, ctx);
  const raw = (input.file_path ?? input.path) as unknown;
  let abs = typeof raw === 'string' && raw !== '' ? absolute(raw, ctx.projectRoot, ctx.home) : undefined;
  if (tool === 'Glob' && typeof input.pattern === 'string') {
    // A pattern can reach outside on its own (`/etc/*`, `../../**`, `~/.ssh/*`): decide on its literal base.
    const base = picomatch.scan(input.pattern).base;
    if (base) abs = absolute(base, abs ?? ctx.projectRoot, ctx.home);
  }
  if (['Read', 'Grep', 'Glob', 'LS', 'Edit', 'Write'].includes(tool)) return decideFile(tool, abs, ctx, input);
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
