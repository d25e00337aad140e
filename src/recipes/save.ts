import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUILTIN_NAMES } from '../commands/builtins.ts';
import { COMMANDS_DIR } from '../commands/loader.ts';
import type { Recipe } from './schema.ts';
import { fileReference, normaliseSlotName, substitute, type Fill } from './slots.ts';
import { replaceFileSync } from '../fs/atomic-write.ts';

const NAME = /^[a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)*$/i;

type SaveResult = { ok: true; file: string; command: string; argumentHint: string } | { ok: false; error: string };

/**
 * `recipes save N --as NAME`: writes the recipe as a custom command (SPEC §6). Slots given with
 * --set/--file are filled now; the rest become `$1`…`$9` in order, named in argument-hint, so
 * `/NAME "value" … path` fills them when the command runs. `a:b` becomes `a/b.md`.
 */
export function saveRecipe(r: Recipe, name: string, fill: Fill, o: { root: string; force?: boolean }): SaveResult {
  if (!NAME.test(name)) return { ok: false, error: `"${name}" cannot be a command name: use letters, digits, - and _ (a:b for a folder)` };
  if (BUILTIN_NAMES.has(name)) return { ok: false, error: `/${name} is a built-in command; choose another name` };
  const set = new Map(Object.entries(fill.set).map(([k, v]) => [normaliseSlotName(k), v]));
  // Optional slots not given take their default now; the others become $1…$9.
  for (const [k, v] of Object.entries(r.defaults)) if (!set.get(k)) set.set(k, v);
  const open = r.slots.filter((s) => !set.get(s));
  const unknown = Object.keys(fill.set)
    .map(normaliseSlotName)
    .filter((k) => !r.slots.includes(k));
  if (unknown.length)
    return {
      ok: false,
      error: `recipe ${r.number} has no slot ${unknown.map((s) => `[${s}]`).join(', ')}; its slots are ${r.slots.map((s) => `[${s}]`).join(', ') || 'none'}`,
    };
  const fileArg = r.fileSlot && fill.files.length === 0;
  const positions = open.length + (fileArg ? 1 : 0);
  if (positions > 9) return { ok: false, error: `recipe ${r.number} would need ${positions} arguments (at most 9); fill some with --set` };
  const body = substitute(
    r.body,
    (slot) => {
      const v = set.get(slot);
      if (v) return v;
      const i = open.indexOf(slot);
      return i >= 0 ? `$${i + 1}` : undefined;
    },
    fileArg ? `@$${open.length + 1}` : fill.files.map(fileReference).join(' '),
  );
  const argumentHint = [...open.map((s) => `[${s}]`), ...(fileArg ? ['[path]'] : [])].join(' ');
  const file = join(o.root, COMMANDS_DIR, `${name.split(':').join('/')}.md`);
  if (existsSync(file) && !o.force) return { ok: false, error: `${file} exists; add --force to replace it` };
  const front = [
    '---',
    `description: ${JSON.stringify(`Recipe ${r.number}: ${r.title}`)}`,
    ...(argumentHint ? [`argument-hint: ${JSON.stringify(argumentHint)}`] : []),
    '---',
  ];
  mkdirSync(dirname(file), { recursive: true });
  replaceFileSync(file, `${front.join('\n')}\n${body}\n`);
  return { ok: true, file, command: `/${name}`, argumentHint };
}
