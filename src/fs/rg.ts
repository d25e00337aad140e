import { runGroup } from '../process/run.ts';

/** Bytes of rg's error output kept (its results go to `onLine` as they come). */
const STDERR_KEPT = 10_000;

let rgBinary: Promise<string> | undefined;

/** The ripgrep shipped with @vscode/ripgrep; `rg` on PATH when its platform package is missing. */
export function ripgrepPath(): Promise<string> {
  rgBinary ??= import('@vscode/ripgrep').then(
    (m) => m.rgPath,
    () => 'rg',
  );
  return rgBinary;
}

/** Flags every search shares: .gitignore honoured even outside a git repository, hidden files included but not VCS folders. */
export const COMMON_RG_FLAGS = [
  '--no-config',
  '--no-require-git',
  '--hidden',
  '--glob',
  '!.git',
  '--glob',
  '!.svn',
  '--glob',
  '!.hg',
  '--glob',
  '!.jj',
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
  let carry = '';
  const r = await runGroup({
    command: [bin, ...args],
    cwd,
    signal,
    maxBytes: STDERR_KEPT,
    group: false,
    onOutput(text, stream) {
      if (stream !== 'stdout') return;
      const parts = (carry + text).split('\n');
      carry = parts.pop()!;
      for (const p of parts) onLine(p);
    },
  });
  if (r.spawnError) return { code: null, stderr: r.stderr.headOnly().text, aborted: false, spawnError: r.spawnError };
  if (carry !== '') onLine(carry);
  return { code: r.code, stderr: r.stderr.headOnly().text.trim(), aborted: signal.aborted };
}

/** Splits Grep's `glob` into patterns: by whitespace, and by commas outside `{…}`. */
export function splitGlobs(glob: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of glob) {
    if (ch === '{') depth++;
    if (ch === '}') depth = Math.max(0, depth - 1);
    if (/\s/.test(ch) || (ch === ',' && depth === 0)) {
      if (cur) out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur) out.push(cur);
  return out;
}
