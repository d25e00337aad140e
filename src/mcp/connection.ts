import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerEntry } from './config.ts';
import { describeMissing, expandServer } from './expand.ts';
import type { GroupStdioTransport } from './stdio-transport.ts';

type Sdk = typeof import('./sdk.ts');
let sdk: Promise<Sdk> | undefined;
/** The SDK, loaded on first use only (see mcp/sdk.ts). */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('./sdk.ts'));

export type McpState = 'needs-approval' | 'disabled' | 'starting' | 'connected' | 'failed';
type McpTransportKind = 'stdio' | 'http' | 'sse';

/** What `mcp list`, `/mcp` and the session show of one server. */
export interface McpServerStatus {
  name: string;
  scope: McpServerEntry['scope'];
  file: string;
  transport: McpTransportKind;
  state: McpState;
  /** Why it is failed or disabled: one sentence naming the cause. */
  error?: string;
  /** The last lines the server wrote on stderr (and stray stdout lines), oldest first. */
  log: string[];
  /** The server's tools, as it lists them (connected servers only). */
  tools: Tool[];
  /** The server process (stdio). */
  pid?: number;
  serverInfo?: { name: string; version: string };
  /** The server's `instructions`, for the system prompt. */
  instructions?: string;
}

interface ConnectionOptions {
  /** Environment a stdio server starts with (the server's own `env` is added); also what `${VAR}` reads. */
  env: Readonly<Record<string, string | undefined>>;
  /** The project root: a stdio server's default working directory. */
  cwd: string;
  clientInfo: { name: string; version: string };
  /** MCP_TIMEOUT: start, initialize and the first tools/list together. */
  startTimeoutMs: number;
  /** Called on every change of state or tools. */
  onChange: () => void;
}

const LOG_LINES = 20;
/** How long a server may take to answer a ping after a call ran out of time, before it counts as hung. */
const PING_TIMEOUT_MS = 5000;

const transportOf = (e: Pick<McpServerEntry, 'config'>): McpTransportKind => e.config.type ?? 'stdio';

/** One configured server: its process or HTTP session, the SDK client over it, its state. */
export class McpConnection {
  state: McpState = 'starting';
  error?: string;
  tools: Tool[] = [];
  readonly log: string[] = [];
  private client?: Client;
  private transport?: Transport;
  private closing = false;
  private started?: Promise<void>;
  private resources?: Resource[];
  private prompts?: Prompt[];

  constructor(
    readonly entry: McpServerEntry,
    private readonly o: ConnectionOptions,
  ) {}

  status(): McpServerStatus {
    const version = this.client?.getServerVersion();
    return {
      name: this.entry.name,
      scope: this.entry.scope,
      file: this.entry.file,
      transport: transportOf(this.entry),
      state: this.state,
      error: this.error,
      log: [...this.log],
      tools: this.state === 'connected' ? this.tools : [],
      pid: (this.transport as GroupStdioTransport | undefined)?.pid,
      serverInfo: version ? { name: version.name, version: version.version } : undefined,
      instructions: this.client?.getInstructions(),
    };
  }

  /** Starts the server once; resolves when it is connected or failed. Never rejects. */
  start(): Promise<void> {
    return (this.started ??= this.run());
  }

  private note(line: string): void {
    this.log.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
    if (this.log.length > LOG_LINES) this.log.splice(0, this.log.length - LOG_LINES);
  }

  private set(state: McpState, error?: string): void {
    this.state = state;
    this.error = error;
    this.o.onChange();
  }

  private async run(): Promise<void> {
    this.set('starting');
    const { server, missing } = expandServer(this.entry.config, this.o.env);
    if (missing.length) {
      this.set('failed', describeMissing(missing));
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`it did not finish starting within ${this.o.startTimeoutMs / 1000} s (MCP_TIMEOUT)`)),
        this.o.startTimeoutMs,
      );
    });
    try {
      // A stdio server is spawned before the SDK has loaded: its start and the SDK's load overlap.
      const kind = transportOf(this.entry);
      if (kind === 'stdio') {
        const { GroupStdioTransport } = await import('./stdio-transport.ts');
        const early = new GroupStdioTransport({
          command: server.command!,
          args: server.args ?? [],
          cwd: resolve(this.o.cwd, server.cwd ?? '.'),
          env: clean({ ...this.o.env, ...server.env }),
          onLog: (line, stream) => this.note(stream === 'stdout' ? `(stdout) ${line}` : line),
        });
        this.transport = early;
        early.start().catch(() => {
          /* reported when the client starts it (the same promise) */
        });
      }
      const s = await loadSdk();
      const client = new s.Client(this.o.clientInfo, {
        capabilities: {},
        listChanged: {
          tools: {
            autoRefresh: false,
            onChanged: () => {
              void this.refreshTools();
            },
          },
          resources: {
            autoRefresh: false,
            onChanged: () => {
              this.resources = undefined;
            },
          },
          prompts: {
            autoRefresh: false,
            onChanged: () => {
              this.prompts = undefined;
            },
          },
        },
      });
      this.client = client;
      if (kind !== 'stdio') {
        const url = new URL(server.url!);
        const requestInit = { headers: server.headers ?? {} };
        this.transport =
          kind === 'http' ? new s.StreamableHTTPClientTransport(url, { requestInit }) : new s.SSEClientTransport(url, { requestInit });
      }
      client.onclose = () => this.lost();
      await Promise.race([
        (async () => {
          await client.connect(this.transport!, { timeout: this.o.startTimeoutMs });
          this.tools = await this.listTools(this.o.startTimeoutMs);
        })(),
        timeout,
      ]);
      clearTimeout(timer);
      if (this.closing) return;
      this.set('connected');
    } catch (e) {
      clearTimeout(timer);
      if (this.closing) return;
      this.set('failed', this.why(e));
      await this.transport?.close().catch(() => {});
    }
  }

  /** The cause of a failure, in words: the transport's own finding first (garbage, exit code). */
  private why(e: unknown): string {
    const t = this.transport as Partial<GroupStdioTransport> | undefined;
    if (t?.failure) return t.failure.message;
    const err = e as NodeJS.ErrnoException & { cause?: { code?: string } };
    if (err?.code === 'ENOENT' && transportOf(this.entry) === 'stdio')
      return `the command "${this.entry.config.command}" was not found (check "command" and PATH)`;
    if (t?.exit) return `the server exited${exitWords(t.exit)} before it was ready`;
    const net = networkCause(e);
    if (net) return `cannot reach ${this.entry.config.url}: ${net}`;
    const status = (err as { code?: unknown })?.code;
    if (typeof status === 'number' && status >= 400 && status < 600 && transportOf(this.entry) !== 'stdio') {
      const auth = status === 401 || status === 403 ? ' (check the token in "headers"; OAuth sign-in is not supported yet)' : '';
      return `the server answered HTTP ${status}${auth}: ${err.message}`;
    }
    return (err?.message ?? String(e)).replace(/^MCP error -?\d+: /, '');
  }

  /**
   * The connection ended while nobody was closing it: a crash, or a remote server gone. While
   * starting, the pending request fails too and run() reports the cause.
   */
  private lost(): void {
    if (this.closing || this.state !== 'connected') return;
    const t = this.transport as Partial<GroupStdioTransport> | undefined;
    const why = t?.failure?.message ?? (t?.exit ? `the server exited${exitWords(t.exit)}` : 'the connection closed');
    this.set('failed', why);
  }

  /** Marks the server failed (hung, or its calls cannot reach it) and ends it. */
  async fail(why: string): Promise<void> {
    if (this.state === 'failed') return;
    this.set('failed', why);
    await this.transport?.close().catch(() => {});
  }

  private async listTools(timeout: number): Promise<Tool[]> {
    const out: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client!.listTools(cursor ? { cursor } : undefined, { timeout });
      out.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  private async refreshTools(): Promise<void> {
    if (this.state !== 'connected') return;
    try {
      this.tools = await this.listTools(this.o.startTimeoutMs);
      this.o.onChange();
    } catch (e) {
      this.note(`tools/list after a change failed: ${(e as Error).message}`);
    }
  }

  private connected(): Client {
    if (this.state !== 'connected' || !this.client)
      throw new Error(`MCP server "${this.entry.name}" is ${this.state === 'failed' ? `failed: ${this.error}` : this.state}`);
    return this.client;
  }

  /**
   * Calls a tool. Rejects on a protocol error, a time-out (`timeoutMs`; the server is sent
   * `notifications/cancelled`) or an abort (the same); a server that then does not answer a ping
   * is marked failed and ended.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    o: { signal?: AbortSignal; timeoutMs: number; onProgress?: (p: { progress: number; total?: number; message?: string }) => void },
  ): Promise<CallToolResult> {
    const client = this.connected();
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: o.signal,
        timeout: o.timeoutMs,
        onprogress: o.onProgress,
      })) as CallToolResult;
    } catch (e) {
      if (!o.signal?.aborted && this.state === 'connected') {
        const code = (e as { code?: unknown }).code;
        if (code === -32001 /* RequestTimeout */) {
          const alive = await client.ping({ timeout: PING_TIMEOUT_MS }).then(
            () => true,
            () => false,
          );
          if (!alive)
            void this.fail(`it stopped answering (a call ran out of time and a ping got no answer within ${PING_TIMEOUT_MS / 1000} s)`);
        } else if (transportOf(this.entry) !== 'stdio' && typeof code !== 'number') {
          void this.fail(`it cannot be reached: ${(e as Error).message}`);
        }
      }
      throw e;
    }
  }

  async listResources(): Promise<Resource[]> {
    const client = this.connected();
    if (!client.getServerCapabilities()?.resources) return [];
    if (this.resources) return this.resources;
    const out: Resource[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : undefined, { timeout: this.o.startTimeoutMs });
      out.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor);
    return (this.resources = out);
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.connected().readResource({ uri }, { signal, timeout: this.o.startTimeoutMs });
  }

  async listPrompts(): Promise<Prompt[]> {
    const client = this.connected();
    if (!client.getServerCapabilities()?.prompts) return [];
    if (this.prompts) return this.prompts;
    const out: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : undefined, { timeout: this.o.startTimeoutMs });
      out.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor);
    return (this.prompts = out);
  }

  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.connected().getPrompt({ name, arguments: args }, { signal, timeout: this.o.startTimeoutMs });
  }

  /** Ends the server (its whole process group, for stdio). Resolves when it is gone. */
  async close(): Promise<void> {
    this.closing = true;
    await this.client?.close().catch(() => {});
    await this.transport?.close().catch(() => {});
  }
}

/** `fetch failed` says nothing: the cause below it does (ECONNREFUSED, a DNS error, a bad port). */
function networkCause(e: unknown): string | undefined {
  if ((e as Error)?.message !== 'fetch failed') return undefined;
  for (
    let c = (e as { cause?: unknown }).cause as { code?: string; message?: string; cause?: unknown } | undefined;
    c;
    c = c.cause as typeof c
  ) {
    if (c.code) return c.code === 'ECONNREFUSED' ? 'connection refused' : c.code === 'ENOTFOUND' ? 'no such host' : c.code;
    if (!c.cause && c.message) return c.message;
  }
  return 'the request failed';
}

function exitWords(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.signal ? ` (killed by ${exit.signal})` : exit.code !== null ? ` with code ${exit.code}` : '';
}

function clean(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
