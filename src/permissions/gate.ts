import { sandboxStep } from '../sandbox/decision.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { ToolKinds } from '../tools/types.ts';
import { decide, type DecideContext } from './decide.ts';
import { fsLookup, type PathLookup } from './look.ts';
import type { Behavior } from './modes.ts';
import type { PermissionMode } from './mode-names.ts';
import { readDenied, type PathContext } from './path-forms.ts';
import type { GuardedPath } from './protected.ts';
import { buildRules, emptyRules, type RuleSet } from './rules.ts';
import { initShellParser, splitCommand, type ShellAnalysis } from './shell/parser.ts';
import { suggestRules } from './suggest.ts';

/** The mode's names, parsed in one place (mode-names.ts holds the table). */
export { CLAUDE_MODE_NAMES, MODES, MODE_SPELLINGS, parseMode, SETTINGS_MODE_NAMES, type PermissionMode } from './mode-names.ts';

interface GateOptions {
  mode: PermissionMode;
  projectRoot: string;
  home: string;
  additionalDirs: readonly string[];
  rules?: RuleSet;
  /** The session's protected paths beyond the fixed ones (protected.ts `sessionGuards`). */
  guarded?: readonly GuardedPath[];
  /** The OS sandbox Bash commands run in (SPEC §13): its step follows the decision. */
  sandbox?: Sandbox;
  /** What each of the session's tools is (tools/kinds.ts `toolKinds`), asked at each decision: MCP tools come and go. */
  kinds(): ToolKinds;
  /** Where symlinks lead and what globs expand to (default: the real filesystem). */
  look?: PathLookup;
  /** Writes "allow always" rules to the local settings file (config/local-rules.ts) and returns it; throws ConfigError when that file is broken. */
  saveAllow(rules: string[]): string;
}

/** A permission question's tool and input, as suggestions need them. */
interface Asked {
  tool: string;
  input: Record<string, unknown>;
  firm?: boolean;
}

/**
 * The session's permission gate (SPEC §5): the mode, the rules in force and the protected paths,
 * and the one context every decision of the session is made in. The decision itself is decide()'s;
 * the gate only supplies what it needs (home, file lookups, the Bash command split) and keeps what
 * changes during a session: the mode (Shift-Tab, `/mode`), granted rules ("allow always", a
 * command's allowed-tools) and the rules and hooks the user accepted with `/hooks`.
 */
export class Gate {
  private currentMode: PermissionMode;
  private currentRules: RuleSet;
  private guards: readonly GuardedPath[];

  constructor(private readonly o: GateOptions) {
    this.currentMode = o.mode;
    this.currentRules = o.rules ?? emptyRules();
    this.guards = o.guarded ?? [];
  }

  get mode(): PermissionMode {
    return this.currentMode;
  }
  setMode(mode: PermissionMode): void {
    this.currentMode = mode;
  }

  /** The permission rules in force, with where each comes from (`/permissions`). */
  get rules(): RuleSet {
    return this.currentRules;
  }

  /** The session's protected paths beyond the fixed ones (for `` !`cmd` `` checks and the sandbox). */
  get guarded(): readonly GuardedPath[] {
    return this.guards;
  }

  /** The one decide context: what every decision of this session shares, and what one call adds. */
  context(call: { shell?: ShellAnalysis; cwd?: string } = {}): DecideContext {
    return { ...this.paths(), mode: this.currentMode, guarded: this.guards, kinds: this.o.kinds(), ...call };
  }

  /** Its part that path rules need (asked for every file a tool opens, so without the tools' kinds). */
  private paths(): PathContext {
    const o = this.o;
    return {
      projectRoot: o.projectRoot,
      additionalDirs: o.additionalDirs,
      home: o.home,
      rules: this.currentRules,
      look: o.look ?? fsLookup,
    };
  }

  /** The decision for one call (rules, mode; a Bash command split first), then the sandbox's step. `cwd`: Bash's working directory. */
  async decide(tool: string, input: Record<string, unknown>, cwd?: string) {
    const shell = tool === 'Bash' ? await split(input) : undefined;
    const d = decide(tool, input, this.context({ shell, cwd }));
    return sandboxStep(tool, input, d, { sandbox: this.o.sandbox, mode: this.currentMode, rules: this.currentRules, shell });
  }

  /** How a read of `abs` by an `@path` reference is decided (as a Read call). */
  readBehavior(abs: string): Behavior {
    return decide('Read', { file_path: abs }, this.context()).behavior;
  }

  /** Whether a deny rule covers reading `abs` with `tool` (tools check this on every path they open). */
  readDenied(tool: string, abs: string): boolean {
    return readDenied(tool, abs, this.paths()) !== undefined;
  }

  /**
   * Adds allow rules, from the next decision on (a command's allowed-tools for one turn; "allow
   * always"). Returns a function that takes exactly these rules away again. Throws an Error naming
   * the rule when one is malformed.
   */
  grant(rules: string[], source: string): () => void {
    const built = buildRules([{ kind: 'allow', rules, source }]);
    if (built.errors.length) throw new Error(built.errors.join('; '));
    const added = built.rules.allow;
    this.currentRules = { ...this.currentRules, allow: [...this.currentRules.allow, ...added] };
    return () => {
      this.currentRules = { ...this.currentRules, allow: this.currentRules.allow.filter((r) => !added.includes(r)) };
    };
  }

  /** The narrowest rules that "allow always" would add for this question (SPEC §5); empty when none can be offered. */
  async suggest(req: Asked): Promise<string[]> {
    if (req.firm) return []; // a rule would never take effect
    const shell = req.tool === 'Bash' ? await split(req.input) : undefined;
    return suggestRules(req.tool, req.input, this.o.projectRoot, shell);
  }

  /**
   * "Allow always": saves the rules to the local settings file and applies them at once. Returns
   * the file. Throws ConfigError when that file is broken (it is never overwritten blindly).
   */
  allowAlways(rules: string[]): string {
    const file = this.o.saveAllow(rules);
    this.grant(rules, file);
    return file;
  }

  /** Replaces the rules and protected paths with a set the user reviewed and accepted (`/hooks`, SPEC §4). */
  replace(rules: RuleSet, guarded: readonly GuardedPath[]): void {
    this.currentRules = rules;
    this.guards = guarded;
  }
}

async function split(input: Record<string, unknown>): Promise<ShellAnalysis> {
  await initShellParser();
  return splitCommand(String(input.command ?? ''));
}
