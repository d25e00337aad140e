import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runGroup } from '../process/run.ts';

/** What to run to get what the sandbox needs on Debian and Ubuntu (SPEC §13). */
const INSTALL_HINT = 'apt-get install bubblewrap socat';

export type Availability =
  | { ok: true; bwrap: string; socat: string; nsenter: string; disableUserns: boolean; version: string }
  | { ok: false; problem: string; fix: string };

function which(program: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, program);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      /* keep looking */
    }
  }
  return undefined;
}

async function run(file: string, args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const r = await runGroup({
    command: [file, ...args],
    cwd: '/',
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    maxBytes: 64 * 1024,
  });
  const stderr = r.stderr.headOnly().text;
  return {
    code: r.code,
    stdout: r.stdout.headOnly().text,
    stderr: stderr || r.spawnError?.message || (r.stopped ? `${file} took longer than 10 s` : ''),
  };
}

const PROBE = [
  '--die-with-parent',
  '--unshare-user',
  '--unshare-pid',
  '--unshare-net',
  '--cap-drop',
  'ALL',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--',
  'true',
];

/**
 * Can the sandbox run here? Linux with bubblewrap, socat and nsenter on PATH, and user
 * namespaces that work: a tiny sandbox is started to find out (about as long as one command).
 * Never throws; says what is missing and how to get it.
 */
export async function checkSandbox(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<Availability> {
  if (platform !== 'linux') {
    return {
      ok: false,
      problem: `the sandbox is not available on ${platform === 'darwin' ? 'macOS' : platform} yet (it uses bubblewrap, which is Linux only)`,
      fix: 'run without --sandbox, or on Linux',
    };
  }
  const bwrap = which('bwrap', env);
  const socat = which('socat', env);
  const nsenter = which('nsenter', env);
  const missing = [!bwrap && 'bubblewrap (bwrap)', !socat && 'socat', !nsenter && 'nsenter (util-linux)'].filter(Boolean);
  if (!bwrap || !socat || !nsenter) {
    const list = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}` : missing[0];
    return {
      ok: false,
      problem: `${list} ${missing.length > 1 ? 'are' : 'is'} not installed`,
      fix: `${INSTALL_HINT}${nsenter ? '' : ' util-linux'} (Fedora: dnf install bubblewrap socat; Arch: pacman -S bubblewrap socat)`,
    };
  }
  const version = (await run(bwrap, ['--version'])).stdout.trim().replace(/^bubblewrap\s*/, '') || 'unknown';
  let disableUserns = true;
  let probe = await run(bwrap, ['--disable-userns', ...PROBE]);
  if (probe.code !== 0 && /disable-userns/.test(probe.stderr)) {
    disableUserns = false; // bubblewrap before 0.8
    probe = await run(bwrap, PROBE);
  }
  if (probe.code !== 0) {
    const why = probe.stderr.trim().split('\n').pop() ?? `exit ${probe.code}`;
    return {
      ok: false,
      problem: `bubblewrap cannot make a sandbox here (${why})`,
      fix: 'user namespaces must be allowed: sysctl kernel.unprivileged_userns_clone=1 (Debian), or kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04+); in a container, run it with user namespaces allowed',
    };
  }
  return { ok: true, bwrap, socat, nsenter, disableUserns, version };
}
