import { BUILTIN_COMMANDS, BUILTIN_NAMES } from './builtins.ts';
import type { CommandDef, CommandScope, LoadedCommands } from './loader.ts';
import { suggestNames } from '../text/did-you-mean.ts';

export type SlashResolution =
  /** Not a slash command: send the input to the model as a prompt. */
  | { kind: 'none' }
  | { kind: 'builtin'; name: string; args: string }
  | { kind: 'custom'; command: CommandDef; args: string }
  /** `name` as typed (without the slash); suggestions in the form to type (without the slash). */
  | { kind: 'unknown'; name: string; suggestions: string[] };

const SCOPES: readonly CommandScope[] = ['project', 'user'];

/**
 * What the user's input asks for. A slash command starts at the very first character with `/`
 * followed by a name (no whitespace, no further `/`); the arguments are the rest, trimmed.
 * Not commands: input not starting with `/` (a leading space is the way to send a prompt that
 * starts with "/"), a bare `/`, and paths such as `/usr/bin/env x` (a second `/` in the first word).
 * Order: built-ins, then a custom command by its full name (project before user), then the
 * `/project:NAME` and `/user:NAME` forms. Pure.
 */
export function resolveSlash(input: string, loaded: LoadedCommands): SlashResolution {
  const m = /^\/([^\s/]+)(?=\s|$)([\s\S]*)$/.exec(input);
  if (!m) return { kind: 'none' };
  const name = m[1];
  const args = m[2].trim();
  if (BUILTIN_NAMES.has(name)) return { kind: 'builtin', name, args };

  const find = (n: string, scope?: CommandScope) =>
    loaded.commands.find((c) => c.name === n && c.scope === 'project' && scope !== 'user') ??
    loaded.commands.find((c) => c.name === n && c.scope === 'user' && scope !== 'project');
  const exact = find(name);
  if (exact) return { kind: 'custom', command: exact, args };

  const scoped = scopedName(name);
  if (scoped) {
    const command = find(scoped.rest, scoped.scope);
    if (command) return { kind: 'custom', command, args };
  }
  return { kind: 'unknown', name, suggestions: suggestionsFor(name, loaded) };
}

function scopedName(name: string): { scope: CommandScope; rest: string } | undefined {
  const scope = SCOPES.find((s) => name.startsWith(`${s}:`));
  return scope ? { scope, rest: name.slice(scope.length + 1) } : undefined;
}

/** `/user:revew` is compared with user commands; a plain name with built-ins and every custom name. */
function suggestionsFor(name: string, loaded: LoadedCommands): string[] {
  const scoped = scopedName(name);
  if (!scoped) return suggestNames(name, [...BUILTIN_COMMANDS.map((b) => b.name), ...loaded.commands.map((c) => c.name)]);
  const inScope = loaded.commands.filter((c) => c.scope === scoped.scope).map((c) => c.name);
  const found = suggestNames(scoped.rest, inScope).map((n) => `${scoped.scope}:${n}`);
  const elsewhere = loaded.commands.find((c) => c.scope !== scoped.scope && c.name === scoped.rest);
  return elsewhere ? [`${elsewhere.scope}:${elsewhere.name}`, ...found].slice(0, 5) : found;
}
