import { BUILTIN_COMMANDS, BUILTIN_NAMES } from './builtins.ts';
import type { CommandDef, LoadedCommands } from './loader.ts';

const MAX_COLUMN = 40;

/** Where a command came from, as the user would write it: `.assistant/commands/…` or `~/.assistant/commands/…`. */
function commandSource(c: CommandDef): string {
  const rel = `${c.name.split(':').join('/')}.md`;
  return c.scope === 'project' ? `project: .assistant/commands/${rel}` : `user: ~/.assistant/commands/${rel}`;
}

function table(rows: Array<{ left: string; right: string; notes?: string[] }>): string[] {
  const width = Math.min(MAX_COLUMN, Math.max(0, ...rows.map((r) => r.left.length)));
  return rows.flatMap((r) => {
    const head = r.left.length > width ? [`  ${r.left}`, `  ${' '.repeat(width)}  ${r.right}`] : [`  ${r.left.padEnd(width)}  ${r.right}`];
    return [...head, ...(r.notes ?? []).map((n) => `  ${' '.repeat(width)}  ${n}`)];
  });
}

const withHint = (invocation: string, hint?: string) => (hint ? `${invocation} ${hint}` : invocation);

/**
 * The text of /help: built-ins with one line each, then custom commands with their source and
 * argument hint; a user command hidden by a project command of the same name is listed under the
 * form that still runs it (/user:NAME) with a note; then any problems with command files. Pure.
 */
export function helpText(loaded: LoadedCommands): string {
  const out = ['Built-in commands:'];
  out.push(...table(BUILTIN_COMMANDS.map((b) => ({ left: withHint(`/${b.name}`, b.argumentHint), right: b.description }))));
  out.push('');
  if (loaded.commands.length === 0) {
    out.push('Custom commands: none. Add Markdown files to .assistant/commands/ (this project) or ~/.assistant/commands/ (all projects).');
  } else {
    const shadowed = new Set(loaded.shadowed);
    out.push('Custom commands:');
    out.push(
      ...table(
        loaded.commands.map((c) => {
          const notes: string[] = [];
          let invocation = `/${c.name}`;
          if (BUILTIN_NAMES.has(c.name)) {
            invocation = `/${c.scope}:${c.name}`;
            notes.push(`(the built-in /${c.name} wins; run this one as ${invocation})`);
          } else if (c.scope === 'user' && shadowed.has(c.name)) {
            invocation = `/user:${c.name}`;
            notes.push(`(/${c.name} runs the project command of the same name: project command wins; run this one as ${invocation})`);
          }
          const description = c.description || '(no description)';
          return { left: withHint(invocation, c.argumentHint), right: `${description} (${commandSource(c)})`, notes };
        }),
      ),
    );
    out.push('', 'Project commands also run as /project:NAME, user commands as /user:NAME.');
  }
  if (loaded.problems.length) {
    out.push('', 'Problems with command files:', ...loaded.problems.map((p) => `  ${p}`));
  }
  return out.join('\n');
}
