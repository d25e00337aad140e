import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDef, ToolResult } from '../tools/types.ts';
import type { McpConfig } from './config.ts';
import { McpConnection, type McpServerStatus, type McpState } from './connection.ts';
import { DEFAULT_LIMITS, type McpLimits } from './limits.ts';
import { mapToolNames, type ToolNameMapping } from './names.ts';
import { toToolResult } from './result.ts';
import { toToolDef, type CallContext, type McpProgress } from './tool-def.ts';
import { admission, skippedWarning, type McpApprovals } from './trust.ts';

export interface McpManagerOptions {
  config: McpConfig;
  approvals: McpApprovals;
  /** The environment servers start with and `${VAR}` reads: the process's, settings `env` over it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The project root. */
  cwd: string;
  clientInfo: { name: string; version: string };
  limits?: Partial<McpLimits>;
  /** Called whenever a server's state or tool list changes (the tool list to offer may differ). */
  onChange?: () => void;
}

/**
 * The MCP servers of a session (SPEC §12). A session with no configured server never creates one
 * (`hasMcpServers`), so the SDK is never loaded. The interface the session plugs into:
 *
 *   const mcp = new McpManager({ config, approvals, env, cwd, clientInfo });
 *   mcp.start();                      // every allowed server, in parallel, in the background
 *   await mcp.whenSettled(ms);        // optional: wait for the ones still starting, at most ms
 *   mcp.tools();                      // ToolDefs of connected servers (`mcp__SERVER__TOOL`)
 *   mcp.statuses();                   // per server: state, error, last stderr lines, tools
 *   mcp.skippedWarnings();            // headless: one warning per unapproved project server
 *   mcp.approve(name);                // after the user said yes (mcp/trust.ts records it): start it
 *   await mcp.close();                // end every server process (also done at process exit)
 *
 * Calls go through the ToolDefs (`execute`), or `callTool(name, input, {signal, onProgress})`;
 * neither throws: failures are error results the model can act on.
 */
export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly limits: McpLimits;
  private mapping: ToolNameMapping[] = [];
  private defs: ToolDef[] = [];
  private listeners = new Set<() => void>();

  constructor(private readonly o: McpManagerOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...o.limits };
    if (o.onChange) this.listeners.add(o.onChange);
    for (const entry of o.config.servers) {
      const conn = new McpConnection(entry, {
        env: o.env,
        cwd: o.cwd,
        clientInfo: o.clientInfo,
        startTimeoutMs: this.limits.startTimeoutMs,
        onChange: () => this.changed(),
      });
      const a = admission(entry, o.approvals);
      if (a.state === 'disabled') {
        conn.state = 'disabled';
        conn.error = a.reason;
      }
      if (a.state === 'needs-approval') conn.state = 'needs-approval';
      this.connections.set(entry.name, conn);
    }
  }

  /** Subscribes to changes of state or tools; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    const connected = [...this.connections.values()].filter((c) => c.state === 'connected');
    const pairs = connected.flatMap((c) => c.tools.map((t) => ({ server: c.entry.name, tool: t.name, def: t })));
    this.mapping = mapToolNames(pairs);
    this.defs = pairs.map((p, i) => toToolDef(p.def, this.mapping[i], (m, input, ctx) => this.callMapped(m, input, ctx)));
    for (const l of this.listeners) l();
  }

  /** Starts every allowed server that has not started, in parallel; returns at once. */
  start(): void {
    for (const c of this.connections.values()) if (c.state === 'starting') void c.start();
  }

  /**
   * Resolves once no server is starting, or after `timeoutMs` (default: MCP_TIMEOUT), whichever
   * comes first: true when all have settled. Never rejects; a slow server goes on starting.
   */
  whenSettled(timeoutMs = this.limits.startTimeoutMs): Promise<boolean> {
    const settled = () => ![...this.connections.values()].some((c) => c.state === 'starting');
    if (settled()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        off();
        resolve(false);
      }, timeoutMs);
      timer.unref();
      const off = this.subscribe(() => {
        if (settled()) {
          clearTimeout(timer);
          off();
          resolve(true);
        }
      });
    });
  }

  statuses(): McpServerStatus[] {
    return [...this.connections.values()].map((c) => c.status());
  }

  /** The tools of connected servers, as ToolDefs; recomputed when a server connects, fails or changes its list. */
  tools(): ToolDef[] {
    return this.defs;
  }

  /** Model-facing name → server and tool, for every offered tool (`mcp list` shows the changed ones). */
  toolNames(): ToolNameMapping[] {
    return this.mapping;
  }

  /** One warning per project server that was not started for want of approval (headless runs print them). */
  skippedWarnings(): string[] {
    return [...this.connections.values()].filter((c) => c.state === 'needs-approval').map((c) => skippedWarning(c.entry, this.o.cwd));
  }

  /** The user approved a server for this session (record it with mcp/trust.ts's recordMcpApproval): starts it. */
  approve(name: string): Promise<void> {
    const c = this.connections.get(name);
    if (!c || c.state !== 'needs-approval') return Promise.resolve();
    c.state = 'starting';
    return c.start();
  }

  /** Ends a server and starts it again (`/mcp` reconnect). */
  async reconnect(name: string): Promise<void> {
    const old = this.connections.get(name);
    if (!old || old.state === 'needs-approval' || old.state === 'disabled') return;
    await old.close();
    const fresh = new McpConnection(old.entry, {
      env: this.o.env,
      cwd: this.o.cwd,
      clientInfo: this.o.clientInfo,
      startTimeoutMs: this.limits.startTimeoutMs,
      onChange: () => this.changed(),
    });
    this.connections.set(name, fresh);
    await fresh.start();
  }

  /** Calls a tool by its model-facing name. Never throws. */
  callTool(
    name: string,
    input: Record<string, unknown>,
    o: { signal?: AbortSignal; onProgress?: (p: McpProgress) => void } = {},
  ): Promise<ToolResult> {
    const m = this.mapping.find((x) => x.name === name);
    if (!m) return Promise.resolve({ output: `There is no MCP tool named "${name}" (its server may have stopped).`, isError: true });
    return this.callMapped(m, input, { signal: o.signal ?? new AbortController().signal, onProgress: o.onProgress });
  }

  private async callMapped(m: ToolNameMapping, input: Record<string, unknown>, ctx: CallContext): Promise<ToolResult> {
    const conn = this.connections.get(m.server);
    if (!conn || conn.state !== 'connected') {
      return {
        output: `The MCP server "${m.server}" is not available${conn?.error ? ` (${conn.error})` : ''}; its tools cannot be used now.`,
        isError: true,
      };
    }
    try {
      const result = await conn.callTool(m.tool, input, {
        signal: ctx.signal,
        timeoutMs: this.limits.toolTimeoutMs,
        onProgress: ctx.onProgress,
      });
      return toToolResult(result, this.limits.maxOutputTokens);
    } catch (e) {
      if (ctx.signal?.aborted) return { output: `${m.name} was interrupted; the server was told to cancel the call.`, isError: true };
      const code = (e as { code?: unknown }).code;
      if (code === -32001)
        return {
          output: `${m.name} did not answer within ${this.limits.toolTimeoutMs / 1000} s (MCP_TOOL_TIMEOUT); the call was cancelled.`,
          isError: true,
        };
      const msg = (e as Error)?.message ?? String(e);
      if ((conn.state as McpState) === 'failed')
        return {
          output: `The MCP server "${m.server}" failed during the call (${conn.error}); its tools cannot be used now.`,
          isError: true,
        };
      return { output: `${m.name} failed: ${msg}`, isError: true };
    }
  }

  private live(server: string): McpConnection {
    const c = this.connections.get(server);
    if (!c) throw new Error(`There is no MCP server named "${server}".`);
    return c;
  }

  listResources(server: string): Promise<Resource[]> {
    return this.live(server).listResources();
  }
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.live(server).readResource(uri, signal);
  }
  listPrompts(server: string): Promise<Prompt[]> {
    return this.live(server).listPrompts();
  }
  getPrompt(server: string, name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.live(server).getPrompt(name, args, signal);
  }

  /** Ends every server, in parallel; resolves once their processes are gone. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }
}
