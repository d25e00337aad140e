import type { McpManager } from '../mcp/manager.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { sandboxedBashTool } from '../tools/bash.ts';
import { builtinTools, toolSchemas } from '../tools/registry.ts';
import { todoWriteFor } from '../tools/todo-write.ts';
import type { Message } from '../providers/types.ts';
import type { ToolDef } from '../tools/types.ts';
import { webFetchTool } from '../tools/web-fetch.ts';
import { webSearchTool } from '../tools/web-search.ts';

/**
 * A session's own tools: the built-in ones (Bash saying it runs in the sandbox when one is on,
 * SPEC §13), then Task (its subagents'), TodoWrite, WebFetch and WebSearch (SPEC §14).
 */
export function ownTools(
  sb: Sandbox | undefined,
  task: ToolDef,
  web: Parameters<typeof webFetchTool>[0],
  messages: () => readonly Message[],
  search?: Parameters<typeof webSearchTool>[0],
): ToolDef[] {
  const builtins = sb
    ? builtinTools.map((t) => (t.name === 'Bash' ? sandboxedBashTool(sb.describe(), sb.config.allowUnsandboxed) : t))
    : builtinTools;
  return [...builtins, task, todoWriteFor(messages), webFetchTool(web), ...(search ? [webSearchTool(search)] : [])];
}

/** A session's tools: its own (built-in, Task, TodoWrite, WebFetch, WebSearch) and those of its MCP servers (SPEC §12). */
export class SessionTools {
  /** The definitions as sent, for the context estimate: made again only when the list changes. */
  private sent?: { mcp?: readonly ToolDef[]; count: number; json: string };

  /** `offered`: whether one of the session's own tools is offered now (WebSearch: only where the current model's provider can search). */
  constructor(
    readonly own: ToolDef[],
    private readonly mcp?: McpManager,
    private readonly offered?: (t: ToolDef) => boolean,
  ) {}

  /** The session's own tools offered now. */
  ownNow(): ToolDef[] {
    return this.offered ? this.own.filter(this.offered) : this.own;
  }

  /** The tools offered now: the session's own, then the tools of the MCP servers that are up. */
  all(): ToolDef[] {
    const mcp = this.mcp?.tools();
    const own = this.ownNow();
    return mcp?.length ? [...own, ...mcp] : own;
  }

  /** What the tools' definitions add to every request, as JSON. */
  json(): string {
    const mcp = this.mcp?.tools();
    const count = this.ownNow().length;
    if (!this.sent || this.sent.mcp !== mcp || this.sent.count !== count)
      this.sent = { mcp, count, json: JSON.stringify(toolSchemas(this.all())) };
    return this.sent.json;
  }

  /** The tools of one run; they follow the MCP servers during it: a server that fails takes its tools with it. */
  forRun(): { specs: ReturnType<typeof toolSchemas>; map: Map<string, ToolDef>; unfollow?: () => void } {
    const specs = toolSchemas(this.all());
    const map = new Map(this.all().map((t) => [t.name, t]));
    const unfollow = this.mcp?.subscribe(() => {
      const now = this.all();
      specs.splice(0, specs.length, ...toolSchemas(now));
      map.clear();
      for (const t of now) map.set(t.name, t);
    });
    return { specs, map, unfollow };
  }
}
