import { isAbsolute, relative, resolve } from 'node:path';
import { groupedRead, knownKinds } from '../tools/kinds.ts';
import type { ToolKinds } from '../tools/types.ts';

/** How a tool call is named to people, in the terminal UI and on a headless run's stderr. */

/** Are this tool's calls shown as one group ("Read 3 files, searched 2 patterns")? File reads are (ToolDef access `read`, family Read). */
export const groupedTool = (name: string, kinds: ToolKinds = knownKinds): boolean => groupedRead(kinds.get(name));

/** A path inside `cwd` relative to it; anything else absolute (never `../../etc/x`). */
export function shortPath(p: string, cwd: string): string {
  if (p.startsWith('~')) return p;
  const abs = resolve(cwd, p);
  const rel = relative(cwd, abs);
  if (rel === '') return isAbsolute(p) ? p : '.';
  return !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

export function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s*\n\s*/g, ' ↵ ').trim();
  return flat.length > max ? `${flat.slice(0, Math.max(1, max - 1))}…` : flat;
}

/** Claude Code's names for the tools in the transcript (`Update` for an edit). */
const TITLES: Record<string, string> = { Edit: 'Update' };

/** `Bash(npm test)`, `Update(src/a.ts)`, `Grep("foo" in src)`: the call as one line. */
export function toolTitle(name: string, input: unknown, cwd: string, max = 200): string {
  const i = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const str = (k: string) => (typeof i[k] === 'string' ? (i[k] as string) : undefined);
  let arg: string | undefined;
  switch (name) {
    case 'Bash':
      arg = str('command');
      break;
    case 'Read':
    case 'Edit':
    case 'Write': {
      const p = str('file_path');
      arg = p && shortPath(p, cwd);
      if (name === 'Read' && p && (i.offset !== undefined || i.limit !== undefined))
        arg += `:${i.offset ?? 1}${i.limit !== undefined ? `+${i.limit}` : ''}`;
      break;
    }
    case 'Grep':
      arg = `"${str('pattern') ?? ''}"${str('path') ? ` in ${shortPath(str('path')!, cwd)}` : ''}${str('glob') ? ` (${str('glob')})` : ''}`;
      break;
    case 'Glob':
      arg = `${str('pattern') ?? ''}${str('path') ? ` in ${shortPath(str('path')!, cwd)}` : ''}`;
      break;
    case 'LS':
      arg = shortPath(str('path') ?? '.', cwd);
      break;
    case 'Task':
      arg = `${str('subagent_type') ?? '?'}: ${str('description') ?? ''}`;
      break;
    case 'TodoWrite':
      return 'Update Todos';
    case 'WebFetch':
      arg = str('url');
      break;
    case 'WebSearch':
      arg = str('query');
      break;
    default:
      arg = Object.keys(i).length ? JSON.stringify(i) : undefined;
  }
  const title = TITLES[name] ?? name;
  return arg === undefined ? title : `${title}(${oneLine(arg, Math.max(10, max - title.length - 2))})`;
}
