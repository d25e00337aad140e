import type { McpManager } from '../mcp/manager.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { sandboxedBashTool } from '../tools/bash.ts';
import { builtinTools, toolSchemas } from '../tools/registry.ts';
import { todoWriteFor } from '../tools/todo-write.ts';
import type { Message } from '../providers/types.ts';
import type { ToolDef } from '../tools/types.ts';
import { webFetchTool } from '../tools/web-fetch.ts';

/**
 * A session's own tools: the built-in ones (Bash saying it runs in the sandbox when one is on,
 * SPEC §13), then Task (its subagents'), TodoWrite and WebFetch (SPEC §14).
 */
export function ownTools(sb: Sandbox | undefined, task: ToolDef, web: Parameters<typeof webFetchTool>[0], messages: () => readonly Message[]): ToolDef[] {
  const builtins = sb ? builtinTools.map((t) => (t.name === 'Bash' ? sandboxedBashTool(sb.describe(), sb.config.allowUnsandboxed) : t)) : builtinTools;
  return [...builtins, task, todoWriteFor(messages), webFetchTool(web)];
}

/** A session's tools: its own (built-in, Task, TodoWrite, WebFetch) and those of its MCP servers (SPEC §12). */
export class SessionTools {
  /** The definitions as sent, for the context estimate: made again only when the list changes. */
  private sent?: { mcp?: readonly ToolDef[]; json: string };

  constructor(readonly own: ToolDef[], private readonly mcp?: McpManager) {}

  /** The tools offered now: the session's own, then the tools of the MCP servers that are up. */
  all(): ToolDef[] {
    const mcp = this.mcp?.tools();
    return mcp?.length ? [...this.own, ...mcp] : this.own;
  }

  /** What the tools' definitions add to every request, as JSON. */
  json(): string {
    const mcp = this.mcp?.tools();
    if (!this.sent || this.sent.mcp !== mcp) this.sent = { mcp, json: JSON.stringify(toolSchemas(this.all())) };
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
