import { parsePromptCommand, type PromptCommand } from '../mcp/prompts.ts';
import { parseMode, type PermissionMode } from '../permissions/gate.ts';
import { expandCommand } from './expand.ts';
import { helpText } from './help.ts';
import initPrompt from './init-prompt.md';
import { resolveSlash } from './resolve.ts';
import { bashRuleCheck, type SessionPermissions } from './rule-check.ts';

/** Allow rules added for one prompt (a command's allowed-tools, /init's), with where they come from. */
export interface Grant {
  rules: string[];
  source: string;
}

/** Built-ins that need a session or a terminal: the front door answers them (a picker, a print, a refusal). */
export type UiAction =
  | 'clear'
  | 'memory'
  | 'mode'
  | 'permissions'
  | 'hooks'
  | 'mcp'
  | 'agents'
  | 'cost'
  | 'status'
  | 'model'
  | 'resume'
  | 'rewind'
  | 'exit';

/**
 * What a typed line asks for (SPEC §6). The same line gives the same value in the terminal UI, a
 * headless run and the SDK; each front door then shows it its own way.
 */
export type Dispatch =
  /**
   * Send `prompt` to the model. `shown`: the line as typed (a command), for the history; `grant`:
   * allow rules for this one prompt; `model`: the model that answers it (a command's `model:`);
   * `mode`: the mode it runs in, and `recipe` the number of the recipe that says so (SPEC §7); `mcp`: an MCP server's prompt to get
   * first (SPEC §12), which then replaces `prompt`; `reloadMemory`: the prompt writes ASSISTANT.md.
   * `warnings`: problems with command files, for a front door that has not shown them yet; `of`:
   * the custom command it comes from.
   */
  | {
      kind: 'prompt';
      prompt: string;
      shown?: string;
      of?: string;
      grant?: Grant;
      model?: string;
      mode?: PermissionMode;
      recipe?: number;
      mcp?: PromptCommand;
      reloadMemory?: true;
      warnings: string[];
    }
  /** Text to show; nothing is sent. `topic: 'help'`: /help (the terminal UI adds its keys). */
  | { kind: 'print'; text: string; topic?: 'help' }
  /** `/compact [instructions]` on the conversation. */
  | { kind: 'compact'; instructions: string }
  /** A built-in that needs the session or the terminal. */
  | { kind: 'ui'; action: UiAction; args: string }
  /**
   * Nothing is sent: why. `unknown`: no such command (the front door says where the list is);
   * `of`: the command the message is about, for a front door that names it.
   */
  | { kind: 'error'; message: string; unknown?: true; of?: string };

/** What the dispatcher needs: where the commands are, and what a command's `` !`cmd` `` is decided under. */
export interface DispatchContext {
  cwd: string;
  home: string;
  /** Stops a command's `!` commands. */
  signal: AbortSignal;
  /** The session's mode, added directories and rules: a custom command's `!` commands are decided under them. */
  permissions(): Omit<SessionPermissions, 'cwd' | 'home'>;
  /** PreToolUse hooks for a custom command's `!` commands (SPEC §4). */
  hook?(command: string, signal: AbortSignal): Promise<string | undefined>;
}

const UI_ACTIONS: ReadonlySet<string> = new Set<UiAction>([
  'clear',
  'memory',
  'mode',
  'permissions',
  'hooks',
  'mcp',
  'agents',
  'cost',
  'status',
  'model',
  'resume',
  'rewind',
  'exit',
]);

/**
 * Turns a typed line into what it asks for: a prompt (plain text, a custom command of
 * `.assistant/commands/` or `~/.assistant/commands/` expanded, `/init`, a filled recipe, an MCP
 * prompt), a text to print (`/help`, `/recipes`), `/compact`, a built-in for the front door (`ui`), or an
 * error with "did you mean". Runs a custom command's `!` commands (after their permission check and
 * PreToolUse hooks); touches no session. Never throws for a bad command.
 */
export async function dispatch(text: string, ctx: DispatchContext): Promise<Dispatch> {
  if (!text.startsWith('/')) return { kind: 'prompt', prompt: text, warnings: [] };
  // `/mcp__SERVER__PROMPT args`: a server's prompt, got once the session's servers are up (SPEC §12).
  const mcp = parsePromptCommand(text);
  if (mcp) return { kind: 'prompt', prompt: text, shown: text, mcp, warnings: [] };
  // Loaded here, not at start-up: reading command files needs the YAML parser (a lazy chunk).
  const { loadCommands } = await import('./loader.ts');
  const loaded = loadCommands({ projectRoot: ctx.cwd, home: ctx.home });
  const warnings = loaded.problems;
  const res = resolveSlash(text, loaded);
  switch (res.kind) {
    case 'none':
      return { kind: 'prompt', prompt: text, warnings };
    case 'unknown':
      return {
        kind: 'error',
        unknown: true,
        message: `Unknown command /${res.name}.${res.suggestions.length ? ` Did you mean ${res.suggestions.map((s) => `/${s}`).join(', ')}?` : ''}`,
      };
    case 'custom': {
      const { command } = res;
      const expanded = await expandCommand(command, res.args, {
        cwd: ctx.cwd,
        signal: ctx.signal,
        hook: ctx.hook,
        check: await bashRuleCheck({ cwd: ctx.cwd, home: ctx.home, ...ctx.permissions() }),
      });
      if (!expanded.ok) return { kind: 'error', message: `/${command.name}: ${expanded.error}` };
      return {
        kind: 'prompt',
        prompt: expanded.prompt,
        shown: text,
        of: `/${command.name}`,
        warnings,
        grant: { rules: expanded.allowedTools, source: `/${command.name} (${command.file}) allowed-tools` },
        ...(expanded.model ? { model: expanded.model } : {}),
      };
    }
    case 'builtin':
      break;
  }
  const { name, args } = res;
  switch (name) {
    case 'help':
      return { kind: 'print', text: helpText(loaded), topic: 'help' };
    case 'compact':
      return { kind: 'compact', instructions: args };
    case 'init':
      // The model may read anything and write only ASSISTANT.md (extending, never replacing: the prompt says so and Write refuses a file it has not read).
      return {
        kind: 'prompt',
        prompt: `${initPrompt.trim()}${args ? `\n\nAlso: ${args}` : ''}`,
        shown: text,
        grant: { rules: ['Edit(/ASSISTANT.md)'], source: '/init' },
        reloadMemory: true,
        warnings,
      };
    case 'recipes':
    case 'recipe': {
      const { recipeSlash } = await import('../recipes/slash.ts');
      const r = recipeSlash(name, args);
      if (r.kind === 'error') return { kind: 'error', message: r.message, of: `/${name}` };
      if (r.kind === 'print') return { kind: 'print', text: r.text };
      const mode = parseMode(r.recipe.mode);
      return { kind: 'prompt', prompt: r.prompt, shown: text, ...(mode ? { mode } : {}), recipe: r.recipe.number, warnings };
    }
  }
  if (UI_ACTIONS.has(name)) return { kind: 'ui', action: name as UiAction, args };
  return { kind: 'error', message: `/${name} is not known to this version.` };
}
