import { resolveSlash } from '../commands/resolve.ts';
import { expandCommand } from '../commands/expand.ts';
import { helpText } from '../commands/help.ts';
import { bashRuleCheck, type SessionPermissions } from '../commands/rule-check.ts';
import { Exit } from './exit.ts';
import initPrompt from '../commands/init-prompt.md';

/** What a headless prompt becomes after slash-command expansion (SPEC §6). */
export type SlashOutcome =
  | { kind: 'prompt'; prompt: string; allowedTools: string[]; model?: string; source?: string; warnings: string[]; recipeMode?: string }
  /** A built-in that answers without the model: print `text`, exit 0. */
  | { kind: 'print'; text: string }
  /** `/compact [instructions]` on the resumed conversation. */
  | { kind: 'compact'; instructions: string };

/** Built-ins that make sense without the terminal UI and without a model turn. */
const INFO_BUILTINS = new Set(['help']);

/**
 * Expands `/NAME args` (custom commands of `.assistant/commands/` and `~/.assistant/commands/`,
 * both invocation forms) into the prompt to send; answers `/help`; refuses unknown commands with
 * "did you mean". A prompt that is not a command passes through unchanged.
 */
export async function expandSlash(prompt: string, o: {
  cwd: string; home: string; signal: AbortSignal; status: () => string | Promise<string>; memory: () => string; cost: () => string;
  /** The session's mode, added directories and merged rules: a custom command's `!` commands are decided under them. */
  permissions: () => Omit<SessionPermissions, 'cwd' | 'home'>;
  /** PreToolUse hooks for a custom command's `!` commands (SPEC §4). */
  hook?: (command: string, signal: AbortSignal) => Promise<string | undefined>;
}): Promise<SlashOutcome> {
  if (!prompt.startsWith('/')) return { kind: 'prompt', prompt, allowedTools: [], warnings: [] };
  // Loaded here, not at start-up: reading command files needs the YAML parser (a lazy chunk).
  const { loadCommands } = await import('../commands/loader.ts');
  const loaded = loadCommands({ projectRoot: o.cwd, home: o.home });
  const res = resolveSlash(prompt, loaded);
  switch (res.kind) {
    case 'none':
      return { kind: 'prompt', prompt, allowedTools: [], warnings: loaded.problems };
    case 'unknown':
      throw new Exit(2, `Unknown command /${res.name}.${res.suggestions.length ? ` Did you mean ${res.suggestions.map((s) => `/${s}`).join(', ')}?` : ''} Run "assistant -p /help" for the list.`);
    case 'builtin':
      if (INFO_BUILTINS.has(res.name)) return { kind: 'print', text: helpText(loaded) };
      if (res.name === 'status') return { kind: 'print', text: await o.status() };
      if (res.name === 'compact') return { kind: 'compact', instructions: res.args };
      if (res.name === 'memory') return { kind: 'print', text: o.memory() };
      if (res.name === 'cost') return { kind: 'print', text: o.cost() };
      if (res.name === 'agents') {
        const { agentsText, loadAgents } = await import('../agent/agents.ts');
        const { knownToolNames } = await import('../tools/kinds.ts');
        const a = loadAgents({ projectRoot: o.cwd, home: o.home, known: knownToolNames() });
        return { kind: 'print', text: agentsText(a.agents, a.problems) };
      }
      if (res.name === 'recipes' || res.name === 'recipe') {
        const { recipeSlash } = await import('../recipes/slash.ts');
        const r = recipeSlash(res.name, res.args);
        if (r.kind === 'error') throw new Exit(2, `/${res.name}: ${r.message}`);
        if (r.kind === 'print') return { kind: 'print', text: r.text };
        return { kind: 'prompt', prompt: r.prompt, allowedTools: [], warnings: loaded.problems, recipeMode: r.recipe.mode };
      }
      if (res.name === 'clear') return { kind: 'print', text: 'Every headless run without -c or -r starts a fresh conversation; nothing to clear.' };
      if (res.name === 'init') {
        // The model may read anything and write only ASSISTANT.md (extending, never replacing: the prompt says so and Write refuses a file it has not read).
        return { kind: 'prompt', prompt: `${initPrompt.trim()}${res.args ? `\n\nAlso: ${res.args}` : ''}`, allowedTools: ['Edit(/ASSISTANT.md)'], source: '/init', warnings: loaded.problems };
      }
      if (res.name === 'model') throw new Exit(2, '/model belongs to the interactive session; a headless run takes --model PROVIDER:MODEL (or settings "model").');
      throw new Exit(2, `/${res.name} belongs to the interactive session: run "assistant" and type it there.`);
    case 'custom': {
      const expanded = await expandCommand(res.command, res.args, {
        cwd: o.cwd,
        signal: o.signal,
        check: await bashRuleCheck({ cwd: o.cwd, home: o.home, ...o.permissions() }),
        hook: o.hook,
      });
      if (!expanded.ok) throw new Exit(2, `/${res.command.name}: ${expanded.error}`);
      return { kind: 'prompt', prompt: expanded.prompt, allowedTools: expanded.allowedTools, model: expanded.model, source: `/${res.command.name} (${res.command.file})`, warnings: loaded.problems };
    }
  }
}
