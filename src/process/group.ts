import type { ChildProcess } from 'node:child_process';

/** Grace between SIGTERM and SIGKILL when stopping a process group. */
const KILL_GRACE_MS = 2000;

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is already gone
  }
}

/**
 * Stops a child started with `detached: true` and everything it started: SIGTERM to its process
 * group, then SIGKILL to whatever is left of the group after KILL_GRACE_MS.
 */
export function killProcessGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (!signalGroup(pid, 'SIGTERM')) child.kill('SIGTERM');
  setTimeout(() => {
    if (!signalGroup(pid, 'SIGKILL') && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, KILL_GRACE_MS).unref();
}

/** Stops a child that has no group of its own: SIGTERM, then SIGKILL after KILL_GRACE_MS if it is still there. */
export function killAlone(child: ChildProcess): void {
  child.kill('SIGTERM');
  setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, KILL_GRACE_MS).unref();
}
