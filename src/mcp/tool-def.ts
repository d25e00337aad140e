import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext, ToolDef, ToolResult } from '../tools/types.ts';
import type { ToolNameMapping } from './names.ts';

/** Any JSON object: the server checks its own input; the model is shown the server's JSON Schema. */
const Passthrough = z.looseObject({});

/** Progress of a call, as the server reports it. */
export type McpProgress = { progress: number; total?: number; message?: string };

/**
 * What a call needs of its context: the signal (Esc cancels: the server is sent
 * `notifications/cancelled`), and where progress goes, when the caller shows it. A ToolContext
 * with an `onProgress` added is one.
 */
export type CallContext = Pick<ToolContext, 'signal'> & { onProgress?: (p: McpProgress) => void };

/** Runs one call of a server's tool (McpManager's, bound). */
type McpCall = (mapping: ToolNameMapping, input: Record<string, unknown>, ctx: CallContext) => Promise<ToolResult>;

/** The server's input schema as the model sees it: as sent, with `type: "object"` made sure of. */
function modelInputSchema(tool: Pick<Tool, 'inputSchema'>): Record<string, unknown> {
  const schema = { ...(tool.inputSchema as Record<string, unknown> | undefined) };
  delete schema.$schema;
  schema.type = 'object';
  return schema;
}

/**
 * A server's tool as a ToolDef (SPEC §12): named `mcp__SERVER__TOOL` (made safe, mcp/names.ts),
 * with the server's JSON Schema and description, read-only when the server marks it
 * `readOnlyHint` (Plan Mode runs only those).
 */
export function toToolDef(tool: Tool, mapping: ToolNameMapping, call: McpCall): ToolDef {
  const title = tool.title ?? tool.annotations?.title;
  const description = tool.description?.trim() || (title ? title : `Tool "${mapping.tool}" of the MCP server "${mapping.server}".`);
  return {
    name: mapping.name,
    description,
    schema: Passthrough,
    inputJsonSchema: modelInputSchema(tool),
    readOnly: tool.annotations?.readOnlyHint === true,
    access: tool.annotations?.readOnlyHint === true ? 'read' : 'other',
    execute: (input, ctx) => call(mapping, input as Record<string, unknown>, ctx),
  };
}
