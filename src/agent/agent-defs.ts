import { knownKinds } from '../tools/kinds.ts';

/**
 * The agents the Task tool can start (SPEC §14): the two built-ins, and `/agents`' listing. Custom
 * agents are read by agents.ts (which needs the YAML parser, so it is loaded only when an agents
 * directory exists).
 */
export interface AgentDef {
  name: string;
  description: string;
  /** Tool names the agent gets; undefined: every tool of the session (but Task and TodoWrite). */
  tools?: string[];
  /** `PROVIDER:MODEL`, or undefined / `inherit`: the session's model. */
  model?: string;
  prompt: string;
  source: 'built-in' | 'project' | 'user';
  file?: string;
}

/** The explore agent's tools: those that read files (ToolDef access `read`, family Read). */
const FILE_READERS = [...knownKinds].filter(([, k]) => k.access === 'read' && k.family === 'Read').map(([name]) => name);

export const BUILTIN_AGENTS: AgentDef[] = [
  {
    name: 'general-purpose',
    description:
      'General-purpose agent for researching complex questions, searching for code and carrying out multi-step tasks. Use it when a search may take several rounds, or to do a self-contained piece of work in parallel with others.',
    prompt:
      'You are an agent started by a coding assistant to carry out one task on its behalf. Do what the task asks, using the tools you have, and nothing more. ' +
      'When you are done, answer with a concise report of what you found or did: the caller sees only that final answer, not your tool calls. ' +
      'Give absolute file paths and relevant code lines in the report; do not create files unless the task asks for them.',
    source: 'built-in',
  },
  {
    name: 'explore',
    description:
      'Fast read-only agent for exploring a codebase: finding files by pattern, searching code for keywords, answering questions about how the code works. It cannot change files. Say how thorough it should be.',
    tools: FILE_READERS,
    prompt:
      'You are a read-only search agent started by a coding assistant. Find what the task asks for with Read, Grep, Glob and LS; you cannot change files or run commands. ' +
      'Search broadly first, then read what matters. Finish with a concise report: the answer, the absolute paths and line numbers that support it, and anything you could not find.',
    source: 'built-in',
  },
];

/** `/agents`: every agent the Task tool can start, where it comes from, its tools and model. */
export function agentsText(agents: readonly AgentDef[], problems: readonly string[] = []): string {
  const width = Math.max(...agents.map((a) => a.name.length));
  const lines = ['Agents the model can start with the Task tool:', ''];
  for (const a of agents) {
    const from = a.source === 'built-in' ? 'built-in' : `${a.source}: ${a.file}`;
    lines.push(`  ${a.name.padEnd(width)}  ${a.description.length > 100 ? `${a.description.slice(0, 99)}…` : a.description}`);
    lines.push(
      `  ${''.padEnd(width)}  ${from}; tools: ${a.tools ? a.tools.join(', ') || 'none' : 'all'}${a.model ? `; model: ${a.model}` : ''}`,
    );
  }
  lines.push(
    '',
    'Add one: a Markdown file in .assistant/agents/ (this project) or ~/.assistant/agents/ (all projects), with front matter name, description, tools, model; its body is the system prompt.',
  );
  if (problems.length) lines.push('', 'Problems:', ...problems.map((p) => `  ${p}`));
  return lines.join('\n');
}
