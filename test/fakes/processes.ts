import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when the process is gone (or only a zombie waiting to be reaped). */
export async function isGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat === '' || /\) Z /.test(stat);
}

/** Waits up to `ms` for the process to be gone; true when it is. */
export async function waitGone(pid: number, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await isGone(pid)) return true;
    await sleep(50);
  }
  return isGone(pid);
}
