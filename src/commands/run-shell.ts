import { spawn } from 'node:child_process';
import { killProcessGroup } from '../tools/process-group.ts';

/** How a `!` command of a command file ended. Output is capped at maxChars per stream. */
export interface ShellRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stopped?: 'timeout' | 'interrupt';
  spawnError?: string;
}

/** How long to wait for pipes after the shell exits (a background job may hold them open). */
const DRAIN_MS = 200;

class Capped {
  text = '';
  dropped = 0;
  constructor(private readonly max: number) {}
  push(b: Buffer) {
    const s = b.toString('utf8');
    const room = this.max - this.text.length;
    if (room >= s.length) this.text += s;
    else { this.text += s.slice(0, Math.max(0, room)); this.dropped += s.length - Math.max(0, room); }
  }
  render() { return this.dropped ? `${this.text}\n… (${this.dropped} more characters cut)` : this.text; }
}

/**
 * Runs `bash -c command` in cwd with its own process group, killed (with everything it started)
 * on timeout or abort. Never rejects.
 */
export function runShell(command: string, o: { cwd: string; signal: AbortSignal; timeoutMs: number; maxChars: number }): Promise<ShellRun> {
  return new Promise((resolve) => {
    const out = new Capped(o.maxChars);
    const err = new Capped(o.maxChars);
    let stopped: ShellRun['stopped'];
    let done = false;
    const child = spawn('bash', ['-c', command], { cwd: o.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const stop = (why: 'timeout' | 'interrupt') => {
      if (stopped || child.exitCode !== null || child.signalCode !== null) return;
      stopped = why;
      killProcessGroup(child);
    };
    const timer = setTimeout(() => stop('timeout'), o.timeoutMs);
    const onAbort = () => stop('interrupt');
    o.signal.addEventListener('abort', onAbort, { once: true });
    const finish = (end: Pick<ShellRun, 'code' | 'signal' | 'spawnError'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ ...end, stdout: out.render(), stderr: err.render(), ...(stopped ? { stopped } : {}) });
    };
    child.on('error', (e) => finish({ code: null, signal: null, spawnError: e.message }));
    child.on('close', (code, sig) => finish({ code, signal: sig }));
    child.on('exit', (code, sig) => { setTimeout(() => finish({ code, signal: sig }), DRAIN_MS).unref(); });
    if (o.signal.aborted) stop('interrupt');
  });
}
