import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The stdio transport for the SDK's Client, with the process handling a session needs (SPEC §12:
 * "all server processes end with the session"). The SDK's own StdioClientTransport starts the
 * server in assistant's process group and ends only the direct child; this one:
 * - starts the server in a process group of its own, so ending it ends what it started too
 *   (`npx` → `node` → the server), and a Ctrl-C meant for assistant does not reach it;
 * - pairs it with a watchdog (`sh`, a few hundred bytes of memory) that reads a pipe only
 *   assistant holds: when assistant dies, however it dies (a crash, SIGKILL), the pipe closes
 *   and the watchdog ends the server's group — no orphans;
 * - ends every live group in a `process.on('exit')` handler, for the ordinary ways out;
 * - tells protocol garbage from stray logging: a stdout line that starts with `{` but is not a
 *   JSON-RPC message is fatal (the server is broken; waiting for its answer would only run into
 *   the time limit), a line that does not is kept as log output, as a server that prints a
 *   banner still works in Claude Code.
 * The protocol itself stays the SDK's.
 */

interface GroupStdioOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** Each line of the server's stderr, and stdout lines that are not messages. */
  onLog?: (line: string, stream: 'stderr' | 'stdout') => void;
}

/** Wait after closing the server's stdin before SIGTERM, and after SIGTERM before SIGKILL. */
const STDIN_GRACE_MS = 500;
const TERM_GRACE_MS = 1500;
const MAX_LINE_BYTES = 64 * 1024 * 1024;

const WATCHDOG = 'read _; kill -TERM "-$1" 2>/dev/null; sleep 2; kill -KILL "-$1" 2>/dev/null';

/** Process groups of live servers, ended when assistant exits (see the class comment). */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const g of liveGroups) signalGroup(g, 'SIGTERM');
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

export class GroupStdioTransport implements Transport {
  /**
   * Checks a parsed message against the protocol's schema; set by mcp/sdk.ts when the SDK loads.
   * This module imports nothing of the SDK but types, so a server can be spawned while the SDK is
   * still loading (the server's own start and ours overlap); no message arrives before the
   * client sends `initialize`, by which time the SDK is there.
   */
  static validate?: (value: unknown) => JSONRPCMessage;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the transport gave up on the server (garbage on stdout), if it did. */
  failure?: Error;
  /** How the server process ended, once it has. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };

  private child?: ChildProcess;
  private watchdog?: ChildProcess;
  private buffer: Buffer[] = [];
  private buffered = 0;
  private closed = false;
  private exited?: Promise<void>;

  constructor(private readonly o: GroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private started?: Promise<void>;

  /** Spawns the server; called early by the connection, then again by the SDK's Client (the same promise). */
  start(): Promise<void> {
    return (this.started ??= this.spawn());
  }

  private spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.o.command, [...this.o.args], {
        cwd: this.o.cwd,
        env: this.o.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.child = child;
      let spawned = false;
      this.exited = new Promise((done) => {
        child.once('exit', (code, signal) => {
          this.exit = { code, signal };
          this.ended();
          done();
        });
        // Not started at all (ENOENT): there is no process to wait for.
        child.once('error', (e) => {
          if (spawned) {
            this.onerror?.(e);
            return;
          }
          this.exit = { code: null, signal: null };
          this.finish();
          done();
          reject(e);
        });
      });
      child.once('close', () => this.finish());
      child.once('spawn', () => {
        spawned = true;
        const pid = child.pid!;
        trackGroup(pid);
        const dog = spawn('/bin/sh', ['-c', WATCHDOG, 'mcp-watchdog', String(pid)], {
          stdio: ['pipe', 'ignore', 'ignore'],
          detached: true,
        });
        dog.on('error', () => {
          /* no sh: the exit handler still covers the ordinary ways out */
        });
        dog.unref();
        (dog.stdin as unknown as { unref?: () => void }).unref?.();
        this.watchdog = dog;
        resolve();
      });
      child.stdin!.on('error', () => {
        /* EPIPE when the server is gone: reported by 'close' */
      });
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
      const decoder = new StringDecoder('utf8');
      let partial = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        const lines = (partial + decoder.write(chunk)).split('\n');
        partial = lines.pop()!;
        for (const l of lines) this.o.onLog?.(l.replace(/\r$/, ''), 'stderr');
      });
      child.stderr!.on('end', () => {
        if (partial) this.o.onLog?.(partial, 'stderr');
      });
    });
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.buffer.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.buffer).toString('utf8').replace(/\r$/, '');
      this.buffer = [];
      this.buffered = 0;
      start = nl + 1;
      this.line(line);
      if (this.failure) return;
    }
    if (start < chunk.length) {
      this.buffer.push(chunk.subarray(start));
      this.buffered += chunk.length - start;
      if (this.buffered > MAX_LINE_BYTES)
        this.fail(new Error(`the server wrote a message over ${MAX_LINE_BYTES / 1024 / 1024} MB on stdout`));
    }
  }

  private line(line: string): void {
    if (line.trim() === '') return;
    if (!line.trimStart().startsWith('{')) {
      this.o.onLog?.(line, 'stdout');
      return;
    }
    let message: JSONRPCMessage;
    try {
      const value: unknown = JSON.parse(line);
      message = GroupStdioTransport.validate ? GroupStdioTransport.validate(value) : (value as JSONRPCMessage);
    } catch {
      const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
      this.fail(new Error(`the server wrote something on stdout that is not a JSON-RPC message: ${shown}`));
      return;
    }
    this.onmessage?.(message);
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.onerror?.(e);
    void this.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || !stdin.writable) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * The process ended: end what is left of its group and stop the watchdog. The client is told
   * once its output is read to the end ('close'), so the last stderr lines (a crash's message)
   * are there, or shortly after if something the server started still holds its pipes.
   */
  private ended(): void {
    const pid = this.child!.pid!;
    if (signalGroup(pid, 'SIGTERM')) setTimeout(() => signalGroup(pid, 'SIGKILL'), TERM_GRACE_MS).unref();
    liveGroups.delete(pid);
    this.watchdog?.kill('SIGKILL');
    setTimeout(() => this.finish(), 300).unref();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.onclose?.();
  }

  /**
   * Ends the server as the MCP specification asks: close its stdin, then SIGTERM, then SIGKILL,
   * each to the whole process group. Resolves once the process is gone.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exit) {
      this.finish();
      return;
    }
    child.stdin?.end();
    const pid = child.pid!;
    const wait = (ms: number) => Promise.race([this.exited, new Promise((r) => setTimeout(r, ms).unref())]);
    await wait(STDIN_GRACE_MS);
    if (!this.exit) {
      signalGroup(pid, 'SIGTERM');
      await wait(TERM_GRACE_MS);
    }
    if (!this.exit) {
      signalGroup(pid, 'SIGKILL');
      await this.exited;
    }
    this.finish();
  }
}
