import { basename } from 'node:path';
import { parseRule } from '../permissions/rules.ts';
import { WITH_SUBCOMMANDS } from '../permissions/suggest.ts';
import type { CommandDef } from './loader.ts';
import { runShell, type ShellRun } from './run-shell.ts';
import { splitWords } from './words.ts';

export interface ExpandContext {
  cwd: string;
  signal: AbortSignal;
  /**
   * The permission decision for a `` !`cmd` `` of `cmd`: the session's rules and mode, with the
   * command's allowed-tools added to allow (rule-check.ts). Only `allow` runs it.
   */
  check(command: string, cmd: CommandDef): CommandCheck;
  /** For each `!` command; default DEFAULT_SHELL_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * PreToolUse hooks for a `!` command, as for a Bash call (SPEC §4): why it may not run, or
   * undefined. Asked after the permission check, before anything runs.
   */
  hook?(command: string, signal: AbortSignal): Promise<string | undefined>;
}

/** What `check` answers: a permission decision, with the part that failed and a rule that would allow it. */
interface CommandCheck {
  behavior: 'allow' | 'ask' | 'deny';
  reason: string;
  remedy?: string;
  /** A question no rule can skip (an ask rule, a protected file). */
  firm?: boolean;
  /** A rule that would allow the failing part (`Bash(rm:*)`, `Edit(/out.txt)`). */
  needs?: string;
  /** The part of the command that failed. */
  part?: string;
}

type Expanded = { ok: true; prompt: string; allowedTools: string[]; model?: string } | { ok: false; error: string };

const DEFAULT_SHELL_TIMEOUT_MS = 30_000;
/** Characters kept of each stream of a `!` command's output. */
const MAX_SHELL_OUTPUT_CHARS = 30_000;

/** `$ARGUMENTS`, or `$1`…`$9` not followed by another digit (`$10`, `$15` are left as written). */
const PLACEHOLDER = /\$ARGUMENTS|\$([1-9])(?![0-9])/g;
/** `` !`cmd` `` at the start of a line or after whitespace, on one line. */
const SHELL = /(?<!\S)!`([^`\n]+)`/g;

function substitute(text: string, args: string, words: string[]): string {
  return text.replace(PLACEHOLDER, (_m, n: string | undefined) => (n ? (words[Number(n) - 1] ?? '') : args));
}

/** The rule to suggest for a `!` command: `Bash(git status:*)`, `Bash(echo:*)`. */
export function suggestBashRule(command: string): string {
  const [first = command, sub] = splitWords(command);
  const program = basename(first);
  return WITH_SUBCOMMANDS.has(program) && sub && /^[a-z][a-z0-9-]*$/.test(sub) ? `Bash(${program} ${sub}:*)` : `Bash(${program}:*)`;
}

/**
 * Why a `!` command may not run, naming the part that failed and the rule to add (or the deny
 * rule, ask rule or mode that stops it), or undefined when it may. It runs only when its
 * allowed-tools name Bash (SPEC §6) and the session's permissions allow it.
 */
function permissionError(cmd: CommandDef, command: string, check: ExpandContext['check']): string | undefined {
  const head = `/${cmd.name} runs \`${command}\` before the prompt is sent, but`;
  const addRule = (add: string) =>
    `Add ${add} to allowed-tools in the front matter of ${cmd.file}, e.g.\n---\nallowed-tools: ${[...cmd.allowedTools, add].join(', ')}\n---`;
  const bashRules = cmd.allowedTools.filter((t) => {
    const r = parseRule(t, 'allow', cmd.file);
    return typeof r !== 'string' && r.tool === 'Bash';
  });
  if (!bashRules.length) return `${head} its allowed-tools has no Bash rule. ${addRule(suggestBashRule(command))}`;
  const d = check(command, cmd);
  if (d.behavior === 'allow') return undefined;
  const reason = d.reason.replace(/\.$/, '');
  if (d.behavior === 'deny') return `${head} ${reason}. Nothing was run.${d.remedy ? ` (To allow it: ${d.remedy}.)` : ''}`;
  if (d.needs && !d.firm) {
    const add = d.part && d.needs.startsWith('Bash(') ? suggestBashRule(d.part) : d.needs;
    return `${head} its allowed-tools (${bashRules.join(', ')}) do not allow it: ${reason}. ${addRule(add)}`;
  }
  return `${head} ${reason}, and a command's \`!\` cannot ask. Nothing was run.${d.remedy ? ` (To allow it: ${d.remedy}.)` : ''}`;
}

function runError(cmd: CommandDef, command: string, run: ShellRun, output: string, timeoutMs: number): string | undefined {
  const where = `/${cmd.name} (${cmd.file}): \`${command}\``;
  if (run.spawnError) return `${where} could not be started: ${run.spawnError}`;
  if (run.stopped === 'timeout') return `${where} timed out after ${timeoutMs / 1000}s and was killed${output ? `:\n${output}` : ''}`;
  if (run.stopped === 'interrupt') return `${where} was interrupted`;
  if (run.code !== 0) {
    const how = run.code !== null ? `exit code ${run.code}` : `signal ${run.signal}`;
    return `${where} failed (${how})${output ? `:\n${output}` : ', with no output'}`;
  }
  return undefined;
}

/**
 * Turns a command file and its arguments into the prompt (SPEC §6). Arguments are substituted
 * first, in the text and inside `!` commands (the permission check sees the command that will
 * run); `!` syntax in the arguments themselves is never run. Every `!` command is checked before
 * any runs; they then run in order, in ctx.cwd, and any failure stops the expansion. `@path` is
 * left for the integrator. Never throws.
 */
export async function expandCommand(cmd: CommandDef, args: string, ctx: ExpandContext): Promise<Expanded> {
  const words = splitWords(args);
  const parts: Array<{ text: string } | { command: string }> = [];
  let last = 0;
  for (const m of cmd.body.matchAll(SHELL)) {
    parts.push({ text: cmd.body.slice(last, m.index) });
    parts.push({ command: substitute(m[1], args, words).trim() });
    last = m.index + m[0].length;
  }
  parts.push({ text: cmd.body.slice(last) });

  for (const p of parts) {
    if (!('command' in p)) continue;
    const error = permissionError(cmd, p.command, ctx.check);
    if (error) return { ok: false, error };
  }
  if (ctx.hook) {
    for (const p of parts) {
      if (!('command' in p)) continue;
      const blocked = await ctx.hook(p.command, ctx.signal);
      if (blocked)
        return {
          ok: false,
          error: `/${cmd.name} runs \`${p.command}\` before the prompt is sent, but ${blocked.replace(/\.$/, '')}. Nothing was run.`,
        };
    }
  }

  const timeoutMs = ctx.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
  let prompt = '';
  for (const p of parts) {
    if (!('command' in p)) {
      prompt += substitute(p.text, args, words);
      continue;
    }
    if (ctx.signal.aborted) return { ok: false, error: `/${cmd.name} was interrupted` };
    const run = await runShell(p.command, { cwd: ctx.cwd, signal: ctx.signal, timeoutMs, maxChars: MAX_SHELL_OUTPUT_CHARS });
    const output = [run.stdout, run.stderr]
      .map((s) => s.replace(/\n+$/, ''))
      .filter((s) => s !== '')
      .join('\n');
    const error = runError(cmd, p.command, run, output, timeoutMs);
    if (error) return { ok: false, error };
    prompt += output;
  }

  if (args.trim() !== '' && !new RegExp(PLACEHOLDER.source).test(cmd.body)) prompt += `\n\nARGUMENTS: ${args.trim()}`;
  return { ok: true, prompt, allowedTools: [...cmd.allowedTools], ...(cmd.model ? { model: cmd.model } : {}) };
}
