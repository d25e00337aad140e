import { statSync } from 'node:fs';
import { z } from 'zod';
import { envWith } from '../process/env.ts';
import { shareBudget } from '../process/output-cap.ts';
import { runGroup } from '../process/run.ts';
import { findShell } from '../process/shell.ts';
import type { ToolDef, ToolResult } from './types.ts';
import { optionalInt, optionalString } from './zod-helpers.ts';
import description from './bash.md';

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** Characters of output the model gets, stdout and stderr together. */
const MAX_OUTPUT_CHARS = 30_000;
/** Bytes kept of each stream while it runs: the beginning and a rolling end. */
const KEEP = { head: 16_000, tail: 16_000 };

const schema = z.object({
  command: z.string().min(1).describe('The shell command to run.'),
  timeout: optionalInt(`Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`, 1),
  description: optionalString('A short (5-10 word) description of what the command does, for the user.'),
});

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Runs the user's command (passed as $1, so syntax errors point at it, not at this wrapper) with
 * fd 3 closed, so background jobs do not hold it; then writes the shell's final directory to fd 3
 * for the next call.
 */
const WRAPPER =
  '__assistant_cmd=$1; shift\neval "$__assistant_cmd" 3>&-\n__assistant_rc=$?\npwd -P >&3 2>/dev/null\nexit $__assistant_rc\n';

const outsideSchema = schema.extend({
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe('Run this command outside the sandbox. Only when the sandbox stopped something the task needs; the user is asked first.'),
});

/**
 * Bash as the model sees it when commands run in the OS sandbox (SPEC §13): the description says
 * what the sandbox allows (`note`), and with `sandbox.allowUnsandboxedCommands` the model may ask
 * to run a command outside it (`dangerouslyDisableSandbox`, Claude Code's name).
 */
export function sandboxedBashTool(note: string, allowOutside: boolean): ToolDef {
  return { ...bashTool, description: `${description.trimEnd()}\n\n${note}\n`, schema: allowOutside ? outsideSchema : schema } as ToolDef;
}

export const bashTool: ToolDef<typeof schema> = {
  name: 'Bash',
  description,
  schema,
  readOnly: false,
  access: 'execute',

  async execute(input, ctx): Promise<ToolResult> {
    const timeoutMs = Math.min(input.timeout ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    const notes: string[] = [];
    let cwd = ctx.shell.cwd || ctx.cwd;
    if (!isDir(cwd)) {
      notes.push(`(The previous working directory ${cwd} no longer exists; ran in ${ctx.cwd} instead.)`);
      cwd = ctx.cwd;
      ctx.shell.cwd = ctx.cwd;
    }
    const env = envWith({ GIT_EDITOR: 'true' }, ctx.env);
    const shell = [findShell(), '-c', WRAPPER, 'bash', input.command];
    let launch: { argv: string[]; env: NodeJS.ProcessEnv; fds: number[] } = { argv: shell, env, fds: [] };
    // Inside the OS sandbox when there is one (SPEC §13); if it cannot start, the command does not run.
    let sandboxed: Awaited<ReturnType<NonNullable<typeof ctx.sandbox>['wrap']>> | undefined;
    if (
      ctx.sandbox &&
      (await ctx.sandbox.runsInside(input.command, (input as { dangerouslyDisableSandbox?: unknown }).dangerouslyDisableSandbox))
    ) {
      try {
        sandboxed = await ctx.sandbox.wrap(shell, cwd, env);
      } catch (e) {
        return { output: `The sandbox could not start, so the command did not run: ${(e as Error).message}`, isError: true };
      }
      launch = { argv: [sandboxed.file, ...sandboxed.args], env: sandboxed.env, fds: sandboxed.fds };
    }
    // fd 3 carries the final directory back (WRAPPER); the sandbox's descriptors follow it.
    const end = await runGroup({
      command: launch.argv,
      cwd,
      env: launch.env,
      timeoutMs,
      signal: ctx.signal,
      maxBytes: KEEP,
      fd3: true,
      fds: launch.fds,
      onOutput: ctx.progress,
    });
    if (end.spawnError) {
      sandboxed?.finish('');
      return { output: `Could not start the shell (${launch.argv[0]}) in ${cwd}: ${end.spawnError.message}`, isError: true };
    }
    const finalCwd = end.fd3?.endsWith('\n') ? end.fd3.slice(0, -1) : undefined;
    if (finalCwd && isDir(finalCwd)) ctx.shell.cwd = finalCwd;

    const [outBudget, errBudget] = shareBudget(end.stdout.size, end.stderr.size, MAX_OUTPUT_CHARS);
    const stdout = end.stdout.render(outBudget).replace(/\n+$/, '');
    const stderr = end.stderr.render(errBudget).replace(/\n+$/, '');
    const parts = [stdout, stderr].filter((s) => s !== '');
    const stopped = sandboxed?.finish(`${stdout}\n${stderr}`) ?? {};
    let isError = false;
    if (end.stopped === 'timeout') {
      parts.push(`Command timed out after ${timeoutMs / 1000}s and was killed (with every process it started).`);
      isError = true;
    } else if (end.stopped === 'interrupt') {
      parts.push('Command was interrupted by the user and killed.');
      isError = true;
    } else if (end.code !== null && end.code !== 0) {
      parts.push(`Exit code ${end.code}`);
      isError = true;
    } else if (end.signal) {
      parts.push(`Command was killed by signal ${end.signal}`);
      isError = true;
    }
    parts.push(...notes);
    if (stopped.report) parts.push(stopped.report);
    const output = parts.join('\n') || '(Command completed with no output)';
    const status = end.stopped ?? (end.code !== null ? `exit ${end.code}` : `signal ${end.signal}`);
    return {
      output,
      isError,
      display: `${input.description ?? input.command}: ${status}, ${end.stdout.newlines + end.stderr.newlines} lines of output${stopped.summary ? ` (${stopped.summary})` : ''}`,
      response: { stdout, stderr, interrupted: end.stopped !== undefined, isImage: false, noOutputExpected: false },
    };
  },
};
