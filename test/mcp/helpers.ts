import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { McpServerEntry } from '../../src/mcp/config.ts';
import type { McpServerConfig } from '../../src/mcp/schema.ts';

/** The real servers the tests start (devDependencies), and the project's own fault server. */
export const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
export const FILESYSTEM = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);
export const FAULT = fileURLToPath(new URL('../fakes/mcp-fault-server.mjs', import.meta.url));

export const node = (script: string, ...args: string[]): McpServerConfig => ({ command: process.execPath, args: [script, ...args] });

export function entry(name: string, config: McpServerConfig, extra: Partial<McpServerEntry> = {}): McpServerEntry {
  return { name, scope: 'cli', file: '--mcp-config', config, shared: false, hides: [], ...extra };
}

export const NO_APPROVALS = { enabled: new Set<string>(), disabled: new Set<string>(), all: false, warnings: [] };

/**
 * Whether a process is alive. A zombie counts as gone: an orphan whose new parent does not reap
 * it (a container's init) stays a zombie, but it runs nothing.
 */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `cond` every 50 ms until it holds; fails after `ms`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, ms = 30_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts the fault server in a network mode; resolves with its URL and the process. */
export function startNetworkServer(
  mode: '--http' | '--sse',
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FAULT, mode], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ url: line.trim(), child });
    });
    child.on('exit', (code) => reject(new Error(`fault server ${mode} exited with ${code}`)));
  });
}
