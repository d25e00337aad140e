import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeProject } from '../fakes/project.ts';
import { loadCommands, type LoadedCommands } from '../../src/commands/loader.ts';

/** A temp project with command files under .assistant/commands/ and ~/.assistant/commands/. */
export function commandsProject(project: Record<string, string>, user: Record<string, string> = {}): { dir: string; home: string } {
  const files = Object.fromEntries(Object.entries(project).map(([k, v]) => [join('.assistant/commands', k), v]));
  const { dir, home } = makeProject(files);
  for (const [rel, content] of Object.entries(user)) {
    const p = join(home, '.assistant/commands', rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return { dir, home };
}

export function load(project: Record<string, string>, user: Record<string, string> = {}): LoadedCommands & { dir: string; home: string } {
  const { dir, home } = commandsProject(project, user);
  return { ...loadCommands({ projectRoot: dir, home }), dir, home };
}
