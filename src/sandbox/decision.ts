import type { Decision, PermissionMode } from '../permissions/modes.ts';
import type { Rule, RuleSet } from '../permissions/rules.ts';
import type { ShellAnalysis } from '../permissions/shell/parser.ts';
import type { Sandbox } from './sandbox.ts';

/** A decision, and whether the call runs inside the sandbox (`autoAllowed`: the sandbox is why it needs no question). */
type SandboxedDecision<D extends Decision> = D & { sandboxed?: boolean; autoAllowed?: boolean };

interface SandboxStepContext {
  sandbox: Sandbox | undefined;
  mode: PermissionMode;
  rules: RuleSet;
  /** The command, split (decide's own analysis). */
  shell?: ShellAnalysis;
}

/**
 * The sandbox's step after the permission decision (SPEC §13), kept out of decide(): a Bash call
 * that runs inside the sandbox is marked `sandboxed`; with `autoAllowBashIfSandboxed`, in Normal
 * and Auto-Accept modes, its question is dropped when nothing but the mode's default asked it —
 * not an ask rule, not a protected file, nothing else `firm` — and no rule denied it (a deny is
 * never changed). A command with parts that could not be analysed is allowed so only when no
 * Bash rule asks about or denies anything (a hidden part could be one those rules name). Plan
 * Mode and Bypass are left as they are.
 */
export async function sandboxStep<D extends Decision & { rule?: Rule }>(
  tool: string,
  input: Record<string, unknown>,
  d: D,
  ctx: SandboxStepContext,
): Promise<SandboxedDecision<D>> {
  const sb = ctx.sandbox;
  if (tool !== 'Bash' || !sb) return d;
  if (!(await sb.runsInside(String(input.command ?? ''), input.dangerouslyDisableSandbox))) {
    // The user who is asked should know that this one runs with their full rights.
    if (d.behavior !== 'ask' || !d.reason) return d;
    const why =
      input.dangerouslyDisableSandbox === true && sb.config.allowUnsandboxed ? 'dangerouslyDisableSandbox' : 'sandbox.excludedCommands';
    return { ...d, reason: `${d.reason}; it would run outside the sandbox (${why})` };
  }
  if (d.behavior !== 'ask' || d.firm || d.rule?.kind === 'ask' || d.rule?.kind === 'deny') return { ...d, sandboxed: true };
  if (!sb.config.autoAllow || (ctx.mode !== 'normal' && ctx.mode !== 'auto-accept')) return { ...d, sandboxed: true };
  const bashRules = [...ctx.rules.ask, ...ctx.rules.deny].some((r) => r.tool === 'Bash');
  if (bashRules && (ctx.shell?.unanalysable.length ?? 1) > 0) return { ...d, sandboxed: true };
  return {
    ...d,
    behavior: 'allow',
    reason: `runs inside the sandbox (sandbox.autoAllowBashIfSandboxed); without it: ${d.reason}`,
    sandboxed: true,
    autoAllowed: true,
  };
}
