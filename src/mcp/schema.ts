import { z } from 'zod';

/**
 * One MCP server entry, in Claude Code's format (SPEC §12): a local process over stdio
 * (`command`, `args`, `env`, `cwd`; `type` may be left out), or a remote server over Streamable
 * HTTP (`"type": "http"`) or the older SSE transport (`"type": "sse"`) with `url` and `headers`.
 * One flat object checked field by field (not a union), so an error names the field that is wrong.
 */
export const McpServerSchema = z
  .object({
    type: z.enum(['stdio', 'http', 'sse']).optional().describe('"stdio" (the default: a local command), "http" (Streamable HTTP) or "sse"'),
    command: z.string().optional().describe('stdio: the program to run (looked up on PATH), e.g. "npx"'),
    args: z.array(z.string()).optional().describe('stdio: its arguments'),
    env: z.record(z.string(), z.string()).optional().describe('stdio: variables added to its environment'),
    cwd: z.string().optional().describe('stdio: its working directory (default: the project root)'),
    url: z.string().optional().describe("http, sse: the server's URL"),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('http, sse: HTTP headers sent with every request, e.g. {"Authorization": "Bearer ${TOKEN}"}'),
  })
  .superRefine((s, ctx) => {
    const type = s.type ?? (s.url !== undefined && s.command === undefined ? undefined : 'stdio');
    if (type === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message: 'is missing: an entry with "url" needs "type": "http" (Streamable HTTP) or "type": "sse"',
      });
      return;
    }
    if (type === 'stdio') {
      if (s.command === undefined || s.command.trim() === '')
        ctx.addIssue({
          code: 'custom',
          path: ['command'],
          message: 'is missing: a stdio server needs the program to run, e.g. "command": "npx"',
        });
      for (const k of ['url', 'headers'] as const) {
        if (s[k] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [k],
            message: `belongs to "type": "http" or "sse"; a stdio server (command) does not take it`,
          });
      }
      return;
    }
    if (s.url === undefined || s.url.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['url'], message: `is missing: a "${type}" server needs "url"` });
    } else if (!/^https?:\/\//i.test(s.url) && !s.url.startsWith('${')) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: `"${s.url}" is not an http:// or https:// URL` });
    }
    for (const k of ['command', 'args', 'env', 'cwd'] as const) {
      if (s[k] !== undefined)
        ctx.addIssue({ code: 'custom', path: [k], message: `belongs to a stdio server; a "${type}" server takes "url" and "headers"` });
    }
  });
export type McpServerConfig = z.infer<typeof McpServerSchema>;

/** Server names `mcp add` accepts: letters, digits, `_` and `-` (as Claude Code), not starting with `-`. */
export const SERVER_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_-]*$/;

const McpServersSchema = z.record(z.string(), McpServerSchema);

/** `.mcp.json` at the project root, and the value of `--mcp-config` (a file or inline JSON). */
export const McpJsonSchema = z.object({
  mcpServers: McpServersSchema.optional().describe('MCP servers by name'),
});

/**
 * The MCP keys of a settings file (SPEC §2, §12), composed into config/schema.ts. The approval
 * keys count only from the user's own files (user, local, --settings): a project's shared
 * settings cannot approve its own servers (mcp/trust.ts).
 */
export const McpSettingsShape = {
  mcpServers: McpServersSchema.optional().describe('MCP servers by name, as in .mcp.json (docs/mcp.md)'),
  enabledMcpjsonServers: z
    .array(z.string())
    .optional()
    .describe("Servers of the project's .mcp.json you approved (written by the approval question)"),
  disabledMcpjsonServers: z.array(z.string()).optional().describe("Servers of the project's .mcp.json you turned down: never started"),
  enableAllProjectMcpServers: z.boolean().optional().describe("Approve every server of the project's .mcp.json"),
};
