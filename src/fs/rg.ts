import { spawn } from 'node:child_process';

let rgBinary: Promise<string> | undefined;

/** The ripgrep shipped with @vscode/ripgrep; `rg` on PATH when its platform package is missing. */
export function ripgrepPath(): Promise<string> {
  rgBinary ??= import('@vscode/ripgrep').then((m) => m.rgPath, () => 'rg');
  return rgBinary;
}

/** Flags every search shares: .gitignore honoured even outside a git repository, hidden files included but not VCS folders. */
export const COMMON_RG_FLAGS = [
  '--no-config', '--no-require-git', '--hidden', '--glob', '!.git', '--glob', '!.svn', '--glob', '!.hg', '--glob', '!.jj',
];

interface RgEnd {
  /** 0: found, 1: nothing found, 2: error (possibly with partial results). null when killed. */
  code: number | null;
  stderr: string;
  aborted: boolean;
  spawnError?: Error;
}

/** Runs rg, handing each stdout line to `onLine` as it arrives (memory stays bounded); kill on abort. Never rejects. */
export async function runRg(args: string[], cwd: string, signal: AbortSignal, onLine: (line: string) => void): Promise<RgEnd> {
  const bin = await ripgrepPath();
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ code: null, stderr: '', aborted: true });
    const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let carry = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      const parts = (carry + s).split('\n');
      carry = parts.pop()!;
      for (const p of parts) onLine(p);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s: string) => { if (stderr.length < 10_000) stderr += s; });
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    let done = false;
    const finish = (end: RgEnd) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      resolve(end);
    };
    child.on('error', (e) => finish({ code: null, stderr, aborted: false, spawnError: e }));
    child.on('close', (code) => {
      if (carry !== '') onLine(carry);
      finish({ code, stderr: stderr.trim(), aborted: signal.aborted });
    });
  });
}

/** Splits Grep's `glob` into patterns: by whitespace, and by commas outside `{…}`. */
export function splitGlobs(glob: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of glob) {
    if (ch === '{') depth++;
    if (ch === '}') depth = Math.max(0, depth - 1);
    if ((/\s/.test(ch) || (ch === ',' && depth === 0))) {
      if (cur) out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur) out.push(cur);
  return out;
}
