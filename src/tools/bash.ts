import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { OutputCap, shareBudget } from './output-cap.ts';
import { killProcessGroup } from './process-group.ts';
import type { ToolDef, ToolResult } from './types.ts';
import { optionalInt, optionalString } from './zod-helpers.ts';
import description from './bash.md';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** Characters of output the model gets, stdout and stderr together. */
export const MAX_OUTPUT_CHARS = 30_000;
/** How long to wait for output still in the pipes after the shell exits (background jobs may hold them open). */
const DRAIN_MS = 200;

const schema = z.object({
  command: z.string().min(1).describe('The shell command to run.'),
  timeout: optionalInt(`Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`, 1),
  description: optionalString('A short (5-10 word) description of what the command does, for the user.'),
});

let shellPath: string | undefined;
/** bash when there is one, else sh. */
function findShell(): string {
  if (shellPath) return shellPath;
  const dirs = ['/bin', '/usr/bin', ...(process.env.PATH ?? '').split(':').filter(Boolean)];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, 'bash'), constants.X_OK);
      return (shellPath = join(dir, 'bash'));
    } catch { /* keep looking */ }
  }
  return (shellPath = '/bin/sh');
}

const isDir = (p: string) => { try { return statSync(p).isDirectory(); } catch { return false; } };

/**
 * Runs the user's command (passed as $1, so syntax errors point at it, not at this wrapper) with
 * fd 3 closed, so background jobs do not hold it; then writes the shell's final directory to fd 3
 * for the next call.
 */
const WRAPPER = '__assistant_cmd=$1; shift\neval "$__assistant_cmd" 3>&-\n__assistant_rc=$?\npwd -P >&3 2>/dev/null\nexit $__assistant_rc\n';

interface RunEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: OutputCap;
  stderr: OutputCap;
  finalCwd?: string;
  stopped?: 'timeout' | 'interrupt';
  spawnError?: Error;
}

/** What to start: the shell itself, or the sandbox around it (with descriptors 4, 5, … for it). */
interface Launch { file: string; args: string[]; env: NodeJS.ProcessEnv; fds: number[] }

function run(launch: Launch, cwd: string, timeoutMs: number, signal: AbortSignal, progress?: (chunk: string) => void): Promise<RunEnd> {
  return new Promise((resolvePromise) => {
    const stdout = new OutputCap();
    const stderr = new OutputCap();
    let pwdOut = '';
    let stopped: RunEnd['stopped'];
    const child = spawn(launch.file, launch.args, { cwd, env: launch.env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe', ...launch.fds] });
    const fd3 = child.stdio[3] as NodeJS.ReadableStream | null;
    // Decoded apart from the capped copies, so a character split between two reads shows whole.
    const decoders = progress ? [new StringDecoder('utf8'), new StringDecoder('utf8')] : [];
    child.stdout!.on('data', (b: Buffer) => { stdout.push(b); if (progress) progress(decoders[0].write(b)); });
    child.stderr!.on('data', (b: Buffer) => { stderr.push(b); if (progress) progress(decoders[1].write(b)); });
    fd3?.on('data', (b: Buffer) => { if (pwdOut.length < 8192) pwdOut += b.toString('utf8'); });

    const stop = (why: 'timeout' | 'interrupt') => {
      if (stopped || child.exitCode !== null || child.signalCode !== null) return;
      stopped = why;
      killProcessGroup(child);
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('interrupt');
    signal.addEventListener('abort', onAbort, { once: true });

    let done = false;
    const finish = (end: Omit<RunEnd, 'stdout' | 'stderr' | 'stopped'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      for (const s of [child.stdout, child.stderr, fd3]) (s as { destroy?: () => void } | null)?.destroy?.();
      const finalCwd = pwdOut.endsWith('\n') ? pwdOut.slice(0, -1) : undefined;
      resolvePromise({ ...end, stdout, stderr, stopped, finalCwd });
    };
    child.on('error', (e) => finish({ code: null, signal: null, spawnError: e }));
    child.on('close', (code, sig) => finish({ code, signal: sig }));
    child.on('exit', (code, sig) => {
      // 'close' waits for every holder of the pipes; a background job may keep them open for ever.
      setTimeout(() => finish({ code, signal: sig }), DRAIN_MS).unref();
    });
    if (signal.aborted) stop('interrupt');
  });
}

const outsideSchema = schema.extend({
  dangerouslyDisableSandbox: z.boolean().optional().describe('Run this command outside the sandbox. Only when the sandbox stopped something the task needs; the user is asked first.'),
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
    const env = { ...process.env, GIT_EDITOR: 'true', ...ctx.env };
    const shell = [findShell(), '-c', WRAPPER, 'bash', input.command];
    let launch: Launch = { file: shell[0], args: shell.slice(1), env, fds: [] };
    // Inside the OS sandbox when there is one (SPEC §13); if it cannot start, the command does not run.
    let sandboxed: Awaited<ReturnType<NonNullable<typeof ctx.sandbox>['wrap']>> | undefined;
    if (ctx.sandbox && await ctx.sandbox.runsInside(input.command, (input as { dangerouslyDisableSandbox?: unknown }).dangerouslyDisableSandbox)) {
      try {
        sandboxed = await ctx.sandbox.wrap(shell, cwd, env);
      } catch (e) {
        return { output: `The sandbox could not start, so the command did not run: ${(e as Error).message}`, isError: true };
      }
      launch = sandboxed;
    }
    const end = await run(launch, cwd, timeoutMs, ctx.signal, ctx.progress);
    if (end.spawnError) {
      sandboxed?.finish('');
      return { output: `Could not start the shell (${launch.file}) in ${cwd}: ${end.spawnError.message}`, isError: true };
    }
    if (end.finalCwd && isDir(end.finalCwd)) ctx.shell.cwd = end.finalCwd;

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
