/**
 * The built-in slash commands (SPEC §6), as data: the resolver matches their names and /help lists
 * them. Their behaviour lives with the integrator; this module only knows names and one-line help.
 */
interface BuiltinCommand {
  name: string;
  argumentHint?: string;
  description: string;
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: 'help', description: 'List the built-in and custom commands' },
  { name: 'clear', description: 'Start a fresh conversation (the transcript is kept on disk)' },
  { name: 'compact', argumentHint: '[instructions]', description: 'Summarise the conversation so far to free context' },
  { name: 'init', description: 'Write a first ASSISTANT.md for this project' },
  { name: 'memory', description: 'Open ASSISTANT.md in your editor' },
  { name: 'mode', argumentHint: '[plan|normal|auto-accept|bypass]', description: 'Show or change the permission mode' },
  { name: 'permissions', description: 'Show the permission rules in force and where they come from' },
  { name: 'hooks', description: 'List the hooks in force' },
  { name: 'mcp', argumentHint: '[reconnect NAME]', description: 'Show the MCP servers: status, tools, last error; reconnect one' },
  { name: 'agents', description: 'List the agents the Task tool can start' },
  { name: 'recipes', description: 'Browse the recipe library' },
  { name: 'recipe', argumentHint: 'N', description: 'Use recipe N from the library' },
  { name: 'cost', description: 'Show tokens used and the cost of this session' },
  {
    name: 'model',
    argumentHint: '[provider:model]',
    description: 'Switch the model for the rest of the session (a picker without a name)',
  },
  { name: 'status', description: 'Show the model, mode, settings files and working directory' },
  { name: 'resume', argumentHint: '[session]', description: 'Resume an earlier session of this project' },
  { name: 'rewind', description: 'Go back to an earlier point of the conversation and its files' },
  { name: 'exit', description: 'End the session' },
];

export const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTIN_COMMANDS.map((b) => b.name));
