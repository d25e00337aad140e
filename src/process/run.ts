import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { killAlone, killProcessGroup } from './group.ts';
import { OutputCap } from './output-cap.ts';
import { findShell } from './shell.ts';

/** How long to wait for output still in the pipes after the child exits (a background job may hold them open for ever). */
export const DRAIN_MS = 200;
/** The most text of fd 3 kept (`fd3`). */
const FD3_MAX = 8192;

export interface RunOptions {
  /** A command line, run as `bash -c command`; or an argv started as it is (a wrapper such as the sandbox's). */
  command: string | readonly string[];
  cwd: string;
  /** Default: this process's environment. */
  env?: NodeJS.ProcessEnv;
  /**
   * Written to standard input, then end-of-file; a child that does not read it, or exits first,
   * breaks nothing (EPIPE is ignored). Without it standard input is /dev/null. Never a terminal.
   */
  stdin?: string;
  /** Then the whole process group is stopped (`stopped: 'timeout'`). Without it, no time limit. */
  timeoutMs?: number;
  /** On abort the whole process group is stopped (`stopped: 'interrupt'`); already aborted: nothing starts. */
  signal: AbortSignal;
  /** Bytes kept of each stream: a number keeps the first N; `{ head, tail }` the beginning and a rolling end. */
  maxBytes: number | { head: number; tail: number };
  /** Standard error goes into the same cap as standard output, in the order it arrives. */
  mergeStderr?: boolean;
  /** Each piece of output as it arrives, decoded (a character split between two reads comes whole). */
  onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** Descriptor 3 is a pipe whose text (the first 8 KB) comes back as `fd3`. */
  fd3?: boolean;
  /** Descriptors handed to the child as 4, 5, … (needs `fd3`). */
  fds?: readonly number[];
  /**
   * false: for a program that starts no children of its own (ripgrep): no session and process
   * group of its own, and a stop signals it alone. A new session costs the kernel a scheduling
   * group (autogroup) per run, measurably on a busy machine.
   */
  group?: boolean;
}

export interface RunResult {
  /** The exit code; null when the child died of a signal (a kill for timeout or interrupt included) or did not start. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The capped output (with `mergeStderr`, both streams are in `stdout`). */
  stdout: OutputCap;
  stderr: OutputCap;
  stopped?: 'timeout' | 'interrupt';
  spawnError?: Error;
  /** What the child wrote to descriptor 3 (with `fd3`). */
  fd3?: string;
  durationMs: number;
}

function newCap(max: RunOptions['maxBytes']): OutputCap {
  return typeof max === 'number' ? new OutputCap(max, 0) : new OutputCap(max.head, max.tail);
}

/**
 * The one child-process runner: starts the command in a session and process group of its own
 * (`detached`; not with `group: false`), so a timeout or an abort stops it with everything it
 * started (SIGTERM, then SIGKILL: group.ts), and it has no terminal to read;
 * keeps at most `maxBytes` of each stream; is done when the child has exited and its pipes are
 * drained, or DRAIN_MS after it exited when a background job holds them open. Never rejects.
 */
export function runGroup(o: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const stdout = newCap(o.maxBytes);
  const stderr = o.mergeStderr ? stdout : newCap(o.maxBytes);
  if (o.signal.aborted) {
    return Promise.resolve({ code: null, signal: null, stdout, stderr, stopped: 'interrupt', durationMs: 0 });
  }
  return new Promise((resolve) => {
    const argv = typeof o.command === 'string' ? [findShell(), '-c', o.command] : o.command;
    const stdio: StdioOptions = [o.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'];
    if (o.fd3) stdio.push('pipe', ...(o.fds ?? []));
    let stopped: RunResult['stopped'];
    let fd3 = '';
    let done = false;
    let drain: NodeJS.Timeout | undefined;
    let child: ChildProcess;
    try {
      child = spawn(argv[0], argv.slice(1), { cwd: o.cwd, env: o.env ?? process.env, detached: o.group !== false, stdio });
    } catch (e) {
      // Arguments spawn() refuses at once (a NUL byte in the command): a start that failed, too.
      resolve({ code: null, signal: null, stdout, stderr, spawnError: e as Error, durationMs: performance.now() - started });
      return;
    }
    const pipe3 = o.fd3 ? (child.stdio[3] as NodeJS.ReadableStream | null) : null;

    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(drain);
      o.signal.removeEventListener('abort', onAbort);
      for (const s of [child.stdin, child.stdout, child.stderr, pipe3]) (s as { destroy?: () => void } | null)?.destroy?.();
      resolve({
        code,
        signal,
        stdout,
        stderr,
        durationMs: performance.now() - started,
        ...(stopped ? { stopped } : {}),
        ...(spawnError ? { spawnError } : {}),
        ...(o.fd3 ? { fd3 } : {}),
      });
    };
    const stop = (why: 'timeout' | 'interrupt') => {
      if (stopped || child.exitCode !== null || child.signalCode !== null) return;
      stopped = why;
      if (o.group === false) killAlone(child);
      else killProcessGroup(child);
    };
    const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), o.timeoutMs);
    const onAbort = () => stop('interrupt');
    o.signal.addEventListener('abort', onAbort, { once: true });

    const out = o.onOutput;
    if (out) {
      const decOut = new StringDecoder('utf8');
      const decErr = new StringDecoder('utf8');
      child.stdout!.on('data', (b: Buffer) => {
        stdout.push(b);
        out(decOut.write(b), 'stdout');
      });
      child.stderr!.on('data', (b: Buffer) => {
        stderr.push(b);
        out(decErr.write(b), 'stderr');
      });
    } else {
      child.stdout!.on('data', (b: Buffer) => stdout.push(b));
      child.stderr!.on('data', (b: Buffer) => stderr.push(b));
    }
    pipe3?.on('data', (b: Buffer) => {
      if (fd3.length < FD3_MAX) fd3 += b.toString('utf8');
    });
    if (o.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => {});
      child.stdin.end(o.stdin);
    }
    child.on('error', (e) => finish(null, null, e));
    child.on('close', (code, sig) => finish(code, sig));
    child.on('exit', (code, sig) => {
      drain = setTimeout(() => finish(code, sig), DRAIN_MS).unref();
    });
  });
}
