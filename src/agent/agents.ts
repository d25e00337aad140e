import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { parseFrontMatter, type FrontEntry, type FrontProblem } from '../commands/front-matter.ts';
import { splitRuleList } from '../commands/words.ts';
import { BUILTIN_AGENTS, type AgentDef } from './agent-defs.ts';

export { agentsText } from './agent-defs.ts';

/**
 * Custom agents (SPEC §14): Markdown files under
 * `.assistant/agents/` and `~/.assistant/agents/` (Claude Code's `.claude/agents/` when a scope has
 * no `.assistant/agents/`). The body is the agent's system prompt; the front matter says its name,
 * description, tools and model, read with the same front-matter reader as slash commands.
 */
const AgentFrontMatterSchema = z.object({
  name: z
    .string({ error: 'must be text, not a list' })
    .regex(/^[A-Za-z0-9][\w.-]*$/, { error: 'must be one word of letters, digits, - _ or .' })
    .optional()
    .describe("The agent's name, as the Task tool's subagent_type; defaults to the file name"),
  description: z
    .string({ error: 'must be text, not a list' })
    .optional()
    .describe('When to use the agent: the model reads this to choose it'),
  tools: z
    .union([z.string(), z.array(z.string())], { error: 'must be tool names: "Read, Grep" or a YAML list' })
    .optional()
    .describe("The tools the agent gets; omitted: all of the session's"),
  model: z
    .string({ error: 'must be text, not a list' })
    .optional()
    .describe("PROVIDER:MODEL, or inherit (the session's model, the default)"),
  color: z.string().optional().describe("Accepted for Claude Code's files; not used"),
});
const KEYS = Object.keys(AgentFrontMatterSchema.shape);

function toolList(v: string | string[]): string[] {
  const items = Array.isArray(v) ? v : [v.trim().replace(/^\[([\s\S]*)\]$/, '$1')];
  return items
    .flatMap(splitRuleList)
    .map((t) => t.replace(/^(["'])(.*)\1$/, '$2').trim())
    .filter(Boolean);
}

/**
 * Claude Code reads `key: value` lines whose plain value has ": " in it (its generated agents'
 * descriptions do), which YAML refuses: such values are quoted, line numbers unchanged.
 */
function quoteColonValues(text: string): string {
  const lines = text.split('\n');
  const end = lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---');
  for (let i = 1; i < end; i++) {
    const m = /^([A-Za-z_][\w-]*):[ \t]+(.*?)\r?$/.exec(lines[i]);
    if (m && /: /.test(m[2]) && !/^["'[{|>&*!]/.test(m[2])) lines[i] = `${m[1]}: '${m[2].replace(/'/g, "''")}'`;
  }
  return lines.join('\n');
}

/** One agent file; its problems are reported `file:line: message` and cost only the key they concern. */
function readAgentFile(
  file: string,
  text: string,
  source: 'project' | 'user',
  known: readonly string[],
  problems: string[],
): AgentDef | undefined {
  let fm = parseFrontMatter(text);
  if (fm.problems.length) {
    const again = parseFrontMatter(quoteColonValues(text));
    if (again.problems.length < fm.problems.length) fm = again;
  }
  const own: FrontProblem[] = [...fm.problems];
  const shape = AgentFrontMatterSchema.shape as Record<string, z.ZodType>;
  const def: AgentDef = { name: basename(file, '.md'), description: '', prompt: fm.body.trim(), source, file };
  for (const { key, value, line } of fm.entries as FrontEntry[]) {
    const field = shape[key];
    if (!field) {
      own.push({ line, message: `unknown key "${key}" is ignored (known: ${KEYS.join(', ')})` });
      continue;
    }
    const r = field.safeParse(value);
    if (!r.success) {
      own.push({ line, message: `${key} ${r.error.issues[0]?.message ?? 'is not valid'}` });
      continue;
    }
    if (key === 'name') def.name = (r.data as string).trim();
    else if (key === 'description') def.description = (r.data as string).trim();
    else if (key === 'model') {
      const m = (r.data as string).trim();
      if (m !== 'inherit') def.model = m;
    } else if (key === 'tools') {
      const tools = toolList(r.data as string | string[]);
      const unknown = tools.filter((t) => !known.includes(t));
      if (unknown.length)
        own.push({
          line,
          message: `tools: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a tool' : 'are not tools'} and left out (tools: ${known.join(', ')})`,
        });
      def.tools = tools.filter((t) => known.includes(t) && t !== 'Task');
    }
  }
  for (const p of own.sort((a, b) => a.line - b.line)) problems.push(`${file}:${p.line}: ${p.message}`);
  // A tools line that could not be read must not leave the agent with every tool.
  const lines = text.split('\n');
  const fence = lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---');
  const toolsLine = lines
    .slice(0, Math.max(fence, 0))
    .findIndex((l, i) => /^tools[ \t]*:[ \t]*\S/.test(l) || (/^tools[ \t]*:\s*$/.test(l) && /^\s+-/.test(lines[i + 1] ?? '')));
  if (def.tools === undefined && toolsLine > 0 && fm.entries.every((e) => e.key !== 'tools')) {
    problems.push(`${file}:${toolsLine + 1}: its tools could not be read, so the agent is not loaded (it would get every tool)`);
    return undefined;
  }
  if (!def.prompt) {
    problems.push(`${file}: the agent has no system prompt (the file is empty after its front matter); it is not loaded`);
    return undefined;
  }
  if (!def.description) {
    problems.push(`${file}: no "description" in the front matter: the model cannot tell when to use this agent; its first line is used`);
    def.description = def.prompt
      .split('\n')
      .find((l) => l.trim())!
      .replace(/^#+\s*/, '')
      .slice(0, 100);
  }
  return def;
}

interface LoadedAgents {
  agents: AgentDef[];
  problems: string[];
  notices: string[];
}

/**
 * Built-ins, then project agents, then user agents; a later one of the same name replaces an
 * earlier one, as project commands win over user ones (a project agent beats a user agent, and
 * both beat a built-in). Never throws.
 */
export function loadAgents(o: { projectRoot: string; home: string; known: readonly string[] }): LoadedAgents {
  const problems: string[] = [];
  const notices: string[] = [];
  const byName = new Map<string, AgentDef>(BUILTIN_AGENTS.map((a) => [a.name, a]));
  const scopes: Array<['user' | 'project', string]> = [
    ['user', o.home],
    ['project', o.projectRoot],
  ];
  const seen = new Set<string>();
  for (const [source, root] of scopes) {
    let dir = join(root, '.assistant', 'agents');
    if (!existsSync(dir) && existsSync(join(root, '.claude', 'agents'))) {
      dir = join(root, '.claude', 'agents');
      notices.push(`Reading agents from ${dir} (Claude Code's directory), as there is no ${join(root, '.assistant', 'agents')}.`);
    }
    if (seen.has(dir) || !existsSync(dir)) continue;
    seen.add(dir);
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => n.endsWith('.md') && !n.startsWith('.'))
        .sort();
    } catch (e) {
      problems.push(`${dir}: cannot be read (${(e as Error).message})`);
      continue;
    }
    for (const n of names) {
      const file = join(dir, n);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        problems.push(`${file}: cannot be read (${(e as Error).message})`);
        continue;
      }
      const def = readAgentFile(file, text, source, o.known, problems);
      if (def) byName.set(def.name, def);
    }
  }
  return { agents: [...byName.values()], problems, notices };
}
