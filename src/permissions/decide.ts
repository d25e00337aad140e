import picomatch from 'picomatch';
import {
  commandText,
  shownText,
  describeRule as describe,
  editRisk,
  fileDenial,
  hiddenProgram,
  planUnreadable,
  optionFromGlob,
  readsOnlyWorkspace,
  runtimeReadRisk,
} from './bash-deny.ts';
import { bashRuleMatches, isReadOnly, VCS } from './bash-commands.ts';
import { commandFiles, type CommandFiles } from './bash-files.ts';
import { runsWrittenFile } from './bash-runs.ts';
import { hiddenGuardWrite, protectedWrite, withLinks, writeAfterLink } from './bash-protected.ts';
import { decisionLookup, type PathLookup } from './look.ts';
import { decideByMode, type Decision, type PermissionMode } from './modes.ts';
import { inWorkspace, lookOf, pathDenials, pathForms, pathRuleFor } from './path-forms.ts';
import { protectedFile, strictlyProtected, type GuardedPath } from './protected.ts';
import { absolute, programName } from './paths.ts';
import { ruleNamesTool, type Rule, type RuleSet } from './rules.ts';
import type { ToolKind, ToolKinds } from '../tools/types.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';
import { decideWebFetch, decideWebSearch } from './web.ts';

export interface DecideContext {
  mode: PermissionMode;
  projectRoot: string;
  additionalDirs: readonly string[];
  home: string;
  rules: RuleSet;
  /** The Bash command, split (required for Bash). */
  shell?: ShellAnalysis;
  /** The Bash tool's working directory, which persists between calls (default: the project root). */
  cwd?: string;
  /**
   * Where symlinks lead and what globs expand to: the decision's only view of the filesystem,
   * injected (the session's gate passes look.ts `fsLookup`; tests pass `noLookup` or a fixture).
   */
  look: PathLookup;
  /**
   * The session's protected paths beyond the fixed ones (SPEC §11.16): hook scripts named by the
   * settings, `--settings FILE`, git's real hooks and config (protected.ts `sessionGuards`).
   */
  guarded?: readonly GuardedPath[];
  /**
   * What each tool is (tools/kinds.ts `toolKinds` of the session's tools, MCP tools included): its
   * access and rule family decide how modes and path rules treat it. A tool missing here asks
   * (Plan Mode refuses it) and only rules naming it match.
   */
  kinds?: ToolKinds;
}

/** A file a command writes is decided as an Edit of it (SPEC §11.8). */
const COMMAND_WRITE: ToolKind = { access: 'edit', family: 'Edit', pathIs: 'file' };

export interface RuledDecision extends Decision {
  /** The rule that decided, when one did. */
  rule?: Rule;
  /** An ask that this allow rule would have allowed (for `allowed-tools` of a command). */
  needs?: string;
  /** The part of a Bash command that was not allowed. */
  part?: string;
}

const SANDBOX = '--permission-mode bypass (only in a sandbox)';

/** Programs whose own code is mostly about reading and writing files (their scripts name files the rules may cover). */
const EDITORS = new Set(['ed', 'red', 'ex', 'vi', 'vim', 'nvim', 'view', 'gvim', 'emacs', 'sed', 'gsed', 'awk', 'gawk', 'mawk', 'nawk']);

/** Deny rules that a part the rules cannot see into could match (SPEC §5: Bypass is everything but rules' deny). */
function hiddenDenials(ctx: DecideContext): { bash?: Rule; path?: Rule } {
  return {
    bash: ctx.rules.deny.find((r) => r.tool === 'Bash' && r.specifier !== undefined && r.specifier.trim() !== '*'),
    path: pathDenials(ctx, 'Read')[0] ?? pathDenials(ctx, 'Edit')[0],
  };
}

/** A word of a program's own code (`python -c "open('.env')"`) that names a file a Read or Edit deny rule covers. */
function codeDenial(text: string, cwd: string, ctx: DecideContext): { rule: Rule; word: string } | undefined {
  const rules = [...pathDenials(ctx, 'Read'), ...pathDenials(ctx, 'Edit')];
  if (!rules.length || text === '') return undefined;
  for (const word of new Set(text.split(/[\s"'`;&|()<>=,$[\]{}]+/))) {
    if (word === '' || word.startsWith('-')) continue;
    const rule = rules.find((r) => pathRuleFor([r], r.tool, [absolute(word, cwd, ctx.home)], ctx));
    if (rule) return { rule, word };
  }
  return undefined;
}

/** What the mode does with a part that may do what a deny rule forbids: Plan and Bypass refuse, the others ask (firmly). */
function risky(ctx: DecideContext, reason: string, rule: Rule, remedy: string): RuledDecision {
  if (ctx.mode === 'plan' || ctx.mode === 'bypass') return { behavior: 'deny', reason, rule, remedy };
  return { behavior: 'ask', firm: true, reason, rule, remedy };
}

function decideBash(input: Record<string, unknown>, given: DecideContext): RuledDecision {
  const a = given.shell;
  if (!a) return { behavior: 'ask', reason: 'the command could not be analysed' };
  const command = String(input.command ?? '');
  const start = given.cwd && lookOf(given).isDir(given.cwd) ? given.cwd : given.projectRoot;
  const files = commandFiles(a, start, given.projectRoot, given.home);
  // Symlinks the command makes are followed by the paths of the parts after the first that makes one (SPEC §11.16).
  const ctx = withLinks(
    given,
    files.flatMap((f) => f.links),
  );
  const firstLink = files.findIndex((f) => f.links.length > 0);
  const at = (i: number) => (firstLink >= 0 && i > firstLink ? ctx : given);
  const { rules } = ctx;
  // `shopt -s dotglob` makes `*` match `.env`, `shopt -s nocaseglob` `.EN*`; setting GLOBIGNORE turns dotglob
  // on, and a new bash takes its options from BASHOPTS. Then globs are matched with dots and in any case.
  const dot = a.commands.some((c) => c.program === 'shopt') || /GLOBIGNORE|BASHOPTS/.test(command);
  // 1. deny rules: any part, any file it reads (Read deny) or writes (Edit deny).
  for (const [i, c] of a.commands.entries()) {
    const r = rules.deny.find((d) => bashRuleMatches(d, c));
    if (r) return { behavior: 'deny', reason: `\`${shownText(c)}\` is denied by the rule ${describe(r)}`, rule: r };
    const denied = fileDenial(c, files[i], at(i), dot);
    if (denied) return { behavior: 'deny', ...denied };
  }
  // What a deny rule could match but the rules cannot see: asks (firmly); Plan Mode and Bypass refuse.
  const hidden = hiddenDenials(ctx);
  for (const [i, c] of a.commands.entries()) {
    if (c.code) {
      const named = codeDenial(c.code.text, start, ctx);
      if (named)
        return {
          behavior: 'deny',
          reason: `\`${shownText(c)}\`: ${c.code.why}, and it names ${named.word}, which the rule ${describe(named.rule)} denies`,
          rule: named.rule,
        };
      if (hidden.bash)
        return risky(
          ctx,
          `\`${shownText(c)}\`: ${c.code.why}, which can run any program, and the rule ${describe(hidden.bash)} is in force`,
          hidden.bash,
          'run the program as a command of its own',
        );
      // Code can open any file: under a Read or Edit deny rule, Bypass refuses it, and an editor's script (`ed` fed
      // `w secrets/k`, `sed -f`, `awk -f`) asks, as a file it writes may be one the rule covers.
      if (hidden.path && (ctx.mode === 'bypass' || EDITORS.has(c.program)))
        return risky(
          ctx,
          `\`${shownText(c)}\`: ${c.code.why}, which can open any file, and the rule ${describe(hidden.path)} is in force`,
          hidden.path,
          'make the change with the Edit tool',
        );
    }
    const runs = hiddenProgram(c, files[i], rules.deny);
    if (runs)
      return risky(
        ctx,
        `\`${shownText(c)}\` may run ${programName(runs.specifier!.trim().split(/[\s:]/)[0])}, which the rule ${describe(runs)} denies: what ${c.program} does with its arguments is not known`,
        runs,
        'run the program directly',
      );
    const read = runtimeReadRisk(c, ctx, files[i]);
    if (read)
      return risky(
        ctx,
        `\`${shownText(c)}\` opens files named only when it runs (${read.word}), so it cannot be checked against the rule ${describe(read.rule)}`,
        read.rule,
        'name the files in the command',
      );
    const edit = editRisk(c, files[i], at(i), dot);
    if (edit)
      return risky(
        ctx,
        `\`${shownText(c)}\` ${edit.why}, so it cannot be checked against the rule ${describe(edit.rule)}`,
        edit.rule,
        'name the files in the command',
      );
  }
  // A part running a file an earlier part wrote (`cp /usr/bin/rm t && ./t x`, `echo 'rm x' > s.sh; bash s.sh`): its code is in the command.
  const ran = hidden.bash ? runsWrittenFile(a, files) : undefined;
  if (ran)
    return risky(
      ctx,
      `\`${shownText(ran.runner)}\` runs a file that \`${shownText(ran.writer)}\` wrote in the same command, which can run any program, and the rule ${describe(hidden.bash!)} is in force`,
      hidden.bash!,
      'write the file and run it in separate commands',
    );
  // A glob that puts a file named like an option where the program reads options: as unanalysable as `eval`.
  const injected = a.commands.flatMap((c, i) => optionFromGlob(c, files[i], at(i), dot) ?? []);
  const unseen = [...a.unanalysable.filter((r) => !a.filesRun?.includes(r)), ...injected];
  // A part the analyser cannot see that spells a protected path (`eval "cp x .git/hooks/pre-commit"`): a firm question in every mode.
  const spelled = ctx.mode !== 'plan' ? hiddenGuardWrite(a, command, ctx) : undefined;
  if (spelled) {
    return {
      behavior: 'ask',
      firm: true,
      reason: `the command cannot be fully analysed (${unseen.join('; ')}) and it names ${spelled.path}: ${spelled.what}, which always needs the user's approval (a change there could switch off guards or run code later)`,
      remedy: 'make the change yourself, outside the assistant',
    };
  }
  if (unseen.length && ctx.mode === 'bypass' && (hidden.bash || hidden.path)) {
    const rule = (hidden.bash ?? hidden.path)!;
    return {
      behavior: 'deny',
      reason: `the command cannot be fully analysed (${unseen.join('; ')}), and the rule ${describe(rule)} could match what it runs`,
      rule,
      remedy: 'write the command so that every part is visible',
    };
  }
  if ((a.unanalysable.length || injected.length) && ctx.mode !== 'bypass' && ctx.mode !== 'plan') {
    return {
      behavior: 'ask',
      reason: `the command cannot be fully analysed (${[...a.unanalysable, ...injected].join('; ')})`,
      remedy: SANDBOX,
    };
  }
  // 2. Plan Mode: only read-only commands that read what the Read tool may, whatever the rules say.
  if (ctx.mode === 'plan') return decidePlan(a, files, ctx, dot, command);
  // Protected paths ask in every mode, Bypass included (SPEC §11.16).
  const guarded = protectedWrite(a, files, at, dot, isReadOnly, ctx.mode === 'bypass', command);
  if (guarded) {
    return {
      behavior: 'ask',
      firm: true,
      reason: `\`${shownText(guarded.part)}\` may change ${guarded.path}: ${guarded.what}, which always needs the user's approval (a change there could switch off guards or run code later)`,
      remedy: 'make the change yourself, outside the assistant',
    };
  }
  const linked = writeAfterLink(a, files, ctx);
  if (linked) {
    return {
      behavior: 'ask',
      firm: true,
      reason: `\`${shownText(linked.link)}\` may make a symbolic link and \`${shownText(linked.write)}\` then writes a file: the link may lead it to any file, a protected one among them`,
      remedy: 'make the link and write the file in separate commands',
    };
  }
  if (ctx.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode runs everything but denied commands' };
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
    if (!r && readOnlyInWorkspace(c, files[i], ctx, dot)) {
      readOnly++;
      continue;
    }
    if (!r) {
      const vcs = VCS.has(c.program);
      return {
        behavior: 'ask',
        reason: vcs
          ? `\`${shownText(c)}\` is a version-control command and ${c.program} is not granted`
          : `\`${shownText(c)}\` is not allowed by any rule`,
        remedy: vcs ? `--allowed-tools "Bash(${c.program}:*)"` : `--allowed-tools "Bash(${c.program}:*)" (or the exact command)`,
        needs: `Bash(${c.program}:*)`,
        part: commandText(c),
      };
    }
    const writes = writesDecision(c, files[i], ctx, r.specifier === undefined || r.specifier.trim() === '*');
    if (writes) return writes;
    last = r;
  }
  if (!last) return { behavior: 'allow', reason: 'read-only command inside the project' };
  return {
    behavior: 'allow',
    reason: `allowed by ${a.commands.length > 1 ? `rules for every part${readOnly ? ' (or read-only)' : ''}` : `the rule ${describe(last)}`}`,
    rule: last,
  };
}

/**
 * Plan Mode (SPEC §5, §11.5): a read-only command runs when everything it reads, the Read tool
 * could read without asking (inside the project and its added directories); one that reads
 * elsewhere, or files named only when it runs, asks like the Read tool; anything else is refused.
 */
function decidePlan(a: ShellAnalysis, files: CommandFiles[], ctx: DecideContext, dot: boolean, command: string): RuledDecision {
  const remedy = 'leave Plan Mode (--permission-mode normal or auto-accept)';
  if (a.unanalysable.length) {
    return {
      behavior: 'deny',
      reason: `Plan Mode: \`${command}\` cannot be fully analysed (${a.unanalysable.join('; ')}), so it is not a read-only command. In Plan Mode only reading, searching, read-only commands and writing plan.md are allowed.`,
      remedy,
    };
  }
  const bad = a.commands.find((c) => !isReadOnly(c));
  if (bad) {
    // A read-only program whose output goes to a file: the redirection is what Plan Mode refuses.
    const writes = bad.redirects.filter((r) => r.writes && r.target !== '/dev/null');
    const why =
      writes.length && isReadOnly({ ...bad, redirects: bad.redirects.filter((r) => !writes.includes(r)) })
        ? `\`${shownText(bad)} ${writes.map((r) => `${r.op} ${r.target}`).join(' ')}\` writes ${writes.map((r) => r.target).join(', ')} (a redirection)`
        : `\`${shownText(bad)}\` is not a read-only command`;
    return {
      behavior: 'deny',
      reason: `Plan Mode: ${why}. In Plan Mode only reading, searching, read-only commands and writing plan.md are allowed.`,
      remedy,
    };
  }
  for (const [i, c] of a.commands.entries()) {
    const outside = planUnreadable(c, files[i], ctx, dot);
    if (outside)
      return {
        behavior: 'ask',
        reason: `Plan Mode: \`${shownText(c)}\` reads ${outside}, which the Read tool could not read without asking`,
        remedy: '--add-dir DIR, or read it with the Read tool',
      };
  }
  return { behavior: 'allow', reason: 'read-only command in Plan Mode' };
}

/**
 * A read-only command (SPEC §11.5) that names no file outside the project and its added
 * directories runs without asking in every mode, as read-only tools do (and as in Claude Code).
 * git is not among them here: version control runs on its own only with a grant (SPEC §5).
 */
function readOnlyInWorkspace(c: SimpleCommand, f: CommandFiles, ctx: DecideContext, dot: boolean): boolean {
  return !VCS.has(c.program) && isReadOnly(c) && readsOnlyWorkspace(c, f, ctx, dot);
}

/**
 * Files an allowed part writes (redirections, `git log --output`) are decided as edits (SPEC §11.8).
 * `wholeShell`: the part is allowed by a rule for all of Bash (`Bash`, `Bash(*)`), which grants the
 * shell whole (SPEC §11.13): its writes inside the project need no Edit permission of their own;
 * Edit deny rules, ask rules and the protected files still decide (a firm ask or a deny stands).
 */
function writesDecision(c: SimpleCommand, f: CommandFiles, ctx: DecideContext, wholeShell = false): RuledDecision | undefined {
  const u = f.unknownWrites[0];
  if (u) return { behavior: 'ask', reason: `\`${shownText(c)}\` writes ${u.word}: ${u.why}`, remedy: 'name the file in the command' };
  for (const t of f.writes) {
    const edit = decideFile('Edit', COMMAND_WRITE, t.abs, ctx, {}, t.raw);
    if (edit.behavior === 'allow') continue;
    if (wholeShell && edit.behavior === 'ask' && !edit.firm && t.abs && inWorkspace(pathForms(t.abs, ctx, t.raw).where, ctx)) continue;
    return { ...edit, reason: `\`${shownText(c)}\` writes ${t.abs}: ${edit.reason}` };
  }
  return undefined;
}

/** The project-relative rule that would allow editing `where`. */
const editRule = (where: string, ctx: DecideContext) =>
  `Edit(/${where.startsWith(`${ctx.projectRoot}/`) ? where.slice(ctx.projectRoot.length + 1) : where})`;

/** A call of a tool of a rule family (`kind.family`), on the path it names. */
function decideFile(
  tool: string,
  kind: ToolKind,
  abs: string | undefined,
  ctx: DecideContext,
  input: Record<string, unknown> = {},
  raw = abs,
): RuledDecision {
  const { rules } = ctx;
  const target = abs ?? ctx.projectRoot;
  // Rules see the path as written and where its symlinks lead; the mode sees where it leads.
  const { forms, where } = pathForms(target, ctx, raw ?? target);
  const d = pathRuleFor(rules.deny, tool, forms, ctx, kind.family);
  if (d)
    return {
      behavior: 'deny',
      reason: `${tool} of ${target}${where !== target ? ` (a link to ${where})` : ''} is denied by the rule ${describe(d)}`,
      rule: d,
    };
  const byMode = decideByMode(tool, abs ? { ...input, file_path: where } : input, {
    mode: ctx.mode,
    projectRoot: ctx.projectRoot,
    additionalDirs: ctx.additionalDirs,
    home: ctx.home,
    kind,
  });
  if (byMode.behavior === 'deny') return byMode;
  // Protected paths ask in every mode, Bypass included; the rest of .git/ in every mode but Bypass (SPEC §11.16).
  const edits = abs && kind.family === 'Edit';
  const guards = { projectRoot: ctx.projectRoot, home: ctx.home, extra: ctx.guarded };
  const guarded = edits
    ? forms
        .map((f) => (ctx.mode === 'bypass' ? strictlyProtected(f, guards) : protectedFile(f, ctx.projectRoot, ctx.home, ctx.guarded)))
        .find(Boolean)
    : undefined;
  if (guarded)
    return {
      behavior: 'ask',
      firm: true,
      reason: `${tool} of ${target} changes ${guarded}, which always needs the user's approval (a change there could switch off guards or run code later)`,
      remedy: 'make the change yourself, outside the assistant',
    };
  if (ctx.mode === 'bypass') return byMode;
  const ask = pathRuleFor(rules.ask, tool, forms, ctx, kind.family);
  if (ask) return { behavior: 'ask', firm: true, reason: `${tool} of ${target} matches the ask rule ${describe(ask)}`, rule: ask };
  const allow = pathRuleFor(rules.allow, tool, [where], ctx, kind.family);
  if (allow) return { behavior: 'allow', reason: `allowed by the rule ${describe(allow)}`, rule: allow };
  return byMode.behavior === 'ask' && kind.family === 'Edit' && abs ? { ...byMode, needs: editRule(where, ctx) } : byMode;
}

/**
 * The one permission decision (SPEC §5, §11.5): deny rules → Plan Mode → ask rules → allow rules →
 * the mode's default. Pure: no I/O; the Bash command comes already split in `ctx.shell`.
 */
export function decide(tool: string, input: Record<string, unknown>, given: DecideContext): RuledDecision {
  // One lookup per decision: realpaths and glob expansions are remembered, and globs stop at a budget.
  const ctx: DecideContext = { ...given, look: decisionLookup(given.look) };
  if (tool === 'Bash') return decideBash(input, ctx);
  if (tool === 'WebFetch') return decideWebFetch(input, ctx);
  if (tool === 'WebSearch') return decideWebSearch(input, ctx);
  // Blanks around the path are removed, as the tools do (tools/paths.ts): `" .git/hooks/x"` is `.git/hooks/x`.
  const named = (input.file_path ?? input.path) as unknown;
  const raw = typeof named === 'string' ? named.trim() : named;
  let abs = typeof raw === 'string' && raw !== '' ? absolute(raw, ctx.projectRoot, ctx.home) : undefined;
  let physical = typeof raw === 'string' && raw !== '' && !raw.startsWith('/') && !raw.startsWith('~') ? `${ctx.projectRoot}/${raw}` : abs;
  if (tool === 'Glob' && typeof input.pattern === 'string') {
    // A pattern can reach outside on its own (`/etc/*`, `../../**`, `~/.ssh/*`): decide on its literal base.
    const base = picomatch.scan(input.pattern).base;
    if (base) {
      abs = absolute(base, abs ?? ctx.projectRoot, ctx.home);
      physical = abs;
    }
  }
  const kind = ctx.kinds?.get(tool);
  if (kind?.family) return decideFile(tool, kind, abs, ctx, input, physical);
  // Other tools: whole-tool rules (MCP tools also by server, `mcp__github`, and prefix, `mcp__github__*`) and the mode.
  const names = (r: Rule) => ruleNamesTool(r.tool, tool);
  const d = ctx.rules.deny.find(names);
  if (d) return { behavior: 'deny', reason: `${tool} is denied by the rule ${describe(d)}`, rule: d };
  // Tools that change nothing themselves (Task: a subagent's calls are each decided here; TodoWrite): no question, in every mode.
  if (kind?.noApproval) return { behavior: 'allow', reason: `${tool} changes nothing by itself` };
  const byMode = decideByMode(tool, input, {
    mode: ctx.mode,
    projectRoot: ctx.projectRoot,
    additionalDirs: ctx.additionalDirs,
    home: ctx.home,
    kind,
  });
  if (byMode.behavior === 'deny' || ctx.mode === 'bypass') return byMode;
  const ask = ctx.rules.ask.find(names);
  if (ask) return { behavior: 'ask', firm: true, reason: `${tool} matches the ask rule ${describe(ask)}`, rule: ask };
  const allow = ctx.rules.allow.find(names);
  if (allow) return { behavior: 'allow', reason: `allowed by the rule ${describe(allow)}`, rule: allow };
  return byMode;
}
