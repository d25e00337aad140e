import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_NAMES } from './builtins.ts';
import { parseFrontMatter } from './front-matter.ts';
import { readCommandMeta } from './schema.ts';

/**
 * Custom slash commands: Markdown files under `<project>/.assistant/commands/` and
 * `~/.assistant/commands/` (SPEC §6). `frontend/component.md` is the command `frontend:component`.
 */
export type CommandScope = 'project' | 'user';

export interface CommandDef {
  /** e.g. 'review', 'frontend:component' */
  name: string;
  scope: CommandScope;
  /** Absolute path of the Markdown file. */
  file: string;
  description: string;
  argumentHint?: string;
  allowedTools: string[];
  model?: string;
  /** The prompt: the file after its front matter. */
  body: string;
}

export interface LoadedCommands {
  /** Project commands first, then user commands, each sorted by name; a shadowed user command is still here (reachable as /user:NAME). */
  commands: CommandDef[];
  /** `file:line: message` (or `file: message`): bad front matter, unreadable files, names that cannot be typed. */
  problems: string[];
  /** Names of user commands hidden, for plain /NAME, by a project command of the same name. */
  shadowed: string[];
}

export const COMMANDS_DIR = join('.assistant', 'commands');
const DESCRIPTION_MAX = 80;

/** `.md` files under dir, relative paths sorted; hidden entries skipped; symlink loops cut. */
function listMarkdown(dir: string, problems: string[]): string[] {
  const out: string[] = [];
  const visited = new Set<string>();
  const walk = (abs: string, rel: string) => {
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch (e) {
      problems.push(`${abs}: cannot be read (${(e as Error).message})`);
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const childAbs = join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      let st;
      try {
        st = statSync(childAbs);
      } catch {
        continue;
      } // a dangling symlink
      if (st.isDirectory()) walk(childAbs, childRel);
      else if (st.isFile() && name.endsWith('.md')) out.push(childRel);
    }
  };
  walk(dir, '');
  return out;
}

/** The first non-empty line of the body, without Markdown heading marks, shortened. */
function firstLine(body: string): string {
  const line =
    body
      .split('\n')
      .map((l) => l.replace(/^#+\s*/, '').trim())
      .find((l) => l !== '') ?? '';
  return line.length > DESCRIPTION_MAX ? `${line.slice(0, DESCRIPTION_MAX - 1)}…` : line;
}

function loadFile(file: string, rel: string, scope: CommandScope, problems: string[]): CommandDef | undefined {
  const segments = rel.slice(0, -'.md'.length).split('/');
  const bad = segments.find((s) => s === '' || /[\s:]/.test(s));
  if (bad !== undefined) {
    problems.push(`${file}: cannot be a command: "${bad}" contains a space or a colon, which cannot be typed after "/"; rename it`);
    return undefined;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    problems.push(`${file}: cannot be read (${(e as Error).message})`);
    return undefined;
  }
  const name = segments.join(':');
  const fm = parseFrontMatter(text);
  const { meta, problems: metaProblems } = readCommandMeta(fm.entries);
  for (const p of [...fm.problems, ...metaProblems].sort((a, b) => a.line - b.line)) problems.push(`${file}:${p.line}: ${p.message}`);
  const body = fm.body.replace(/^\s*\n/, '').replace(/\s+$/, '');
  if (body === '') problems.push(`${file}: the command has no prompt (the file is empty after its front matter)`);
  if (BUILTIN_NAMES.has(name)) problems.push(`${file}: /${name} is a built-in command and wins; run this file as /${scope}:${name}`);
  return {
    name,
    scope,
    file,
    description: meta.description || firstLine(body),
    ...(meta.argumentHint ? { argumentHint: meta.argumentHint } : {}),
    allowedTools: meta.allowedTools,
    ...(meta.model ? { model: meta.model } : {}),
    body,
  };
}

function loadScope(dir: string, scope: CommandScope, problems: string[]): CommandDef[] {
  return listMarkdown(dir, problems)
    .map((rel) => loadFile(join(dir, ...rel.split('/')), rel, scope, problems))
    .filter((c): c is CommandDef => c !== undefined)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const realOrSelf = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * Never throws. Every file that is not loaded, and every front-matter problem of a file that is,
 * is in `problems`. When the project is the home directory, its commands are loaded once, as
 * project commands.
 */
export function loadCommands(o: { projectRoot: string; home: string }): LoadedCommands {
  const problems: string[] = [];
  const projectDir = join(o.projectRoot, COMMANDS_DIR);
  const userDir = join(o.home, COMMANDS_DIR);
  const project = loadScope(projectDir, 'project', problems);
  const user = realOrSelf(projectDir) === realOrSelf(userDir) ? [] : loadScope(userDir, 'user', problems);
  const projectNames = new Set(project.map((c) => c.name));
  const shadowed = user.filter((c) => projectNames.has(c.name)).map((c) => c.name);
  return { commands: [...project, ...user], problems, shadowed };
}
