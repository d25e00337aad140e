import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI (npm test builds it first). */
export const CLI = fileURLToPath(new URL('../../dist/assistant.js', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  home: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Give the CLI a standard input pipe that stays open and silent (as some CI runners do). */
  stdinOpen?: boolean;
  timeoutMs?: number;
}

/** Environment with no real keys or proxies from the developer's machine. */
export function cleanEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(ANTHROPIC|OPENAI|GEMINI|GOOGLE|OLLAMA|ASSISTANT|CLAUDE)_/.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, { HOME: home, OLLAMA_HOST: '127.0.0.1:9', ASSISTANT_RETRY_BASE_MS: '10', NO_COLOR: '1' }, extra);
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

export function startCli(args: string[], o: CliOptions): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], {
    cwd: o.cwd,
    env: cleanEnv(o.home, o.env),
    stdio: [o.stdin === undefined && !o.stdinOpen ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
}

/** Runs the CLI to the end and collects its output. */
export function runCli(args: string[], o: CliOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, o);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
    });
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    if (o.stdin !== undefined) child.stdin!.end(o.stdin);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, o.timeoutMs ?? 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      child.stdin?.destroy();
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A hook that appends its event's JSON to the project's events.log (read back with `hookEvents`). */
export const LOG_HOOK = {
  type: 'command',
  command: 'cat >> "$ASSISTANT_PROJECT_DIR/events.log"; echo >> "$ASSISTANT_PROJECT_DIR/events.log"',
};

/** The hook inputs LOG_HOOK recorded in `dir`, in order. */
export function hookEvents(dir: string): Array<Record<string, any>> {
  const file = join(dir, 'events.log');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
}
