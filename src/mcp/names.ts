import { createHash } from 'node:crypto';

/**
 * The name the model sees for a server's tool: `mcp__SERVER__TOOL` (SPEC §12), made safe for every
 * provider's tool-name rule (Anthropic and OpenAI: `^[a-zA-Z0-9_-]{1,64}$`; Gemini also wants a
 * letter or `_` first, which the `mcp__` prefix gives). Characters outside the rule become `_`, as
 * in Claude Code; a name over 64 characters keeps its start and ends with a short hash of the
 * whole; a name that would collide with one already given gets `_2`, `_3`… Permission rules and
 * hook matchers see the same name.
 */
export const TOOL_NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

const safePart = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';

const shortHash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);

function fit(name: string, whole: string): string {
  return name.length <= MAX ? name : `${name.slice(0, MAX - 9)}_${shortHash(whole)}`;
}

export interface ToolNameMapping {
  /** What the model and the rules see. */
  name: string;
  server: string;
  /** The server's own name for the tool (what `tools/call` sends). */
  tool: string;
  /** True when `name` is not simply `mcp__SERVER__TOOL` (shown by `mcp list`). */
  changed: boolean;
}

/**
 * Names for a list of (server, tool) pairs, in order: the first keeps a contested name. `taken`
 * holds names already in use (built-in tools), which MCP tools never take.
 */
export function mapToolNames(pairs: ReadonlyArray<{ server: string; tool: string }>, taken: Iterable<string> = []): ToolNameMapping[] {
  const used = new Set(taken);
  return pairs.map(({ server, tool }) => {
    const plain = `mcp__${server}__${tool}`;
    const base = fit(`mcp__${safePart(server)}__${safePart(tool)}`, plain);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base.slice(0, MAX - String(n).length - 1)}_${n}`;
    used.add(name);
    return { name, server, tool, changed: name !== plain };
  });
}
