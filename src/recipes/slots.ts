/**
 * Slots of a recipe or template text (SPEC §7): `[module name]` is filled by `--set "module name=…"`,
 * `@<path>` by `--file` (every occurrence gets the same files). A bracket followed by `(` is a
 * Markdown link, not a slot.
 */
const SLOT = /\[([a-z][a-z0-9 -]*)\](?!\()/g;
const FILE_SLOT = '@<path>';

export function slotsOf(body: string): { slots: string[]; fileSlot: boolean } {
  const slots: string[] = [];
  for (const m of body.matchAll(SLOT)) if (!slots.includes(m[1])) slots.push(m[1]);
  return { slots, fileSlot: body.includes(FILE_SLOT) };
}

type FillResult = { ok: true; text: string } | { ok: false; error: string };

export interface Fill {
  /** Slot values by name (`--set "name=value"`). */
  set: Record<string, string>;
  /** Files for `@<path>` (`--file`). */
  files: string[];
}

/**
 * A `--file` value as a reference: `src/a.ts` → `@src/a.ts`; `src/a.ts:40-80` keeps its lines;
 * a function reference `src/a.ts:login` or `src/a.ts#login` → `@src/a.ts (the function login)`.
 */
export function fileReference(f: string): string {
  const ref = f.replace(/^@/, '');
  const fn = /^(.+?)(?::|#)([A-Za-z_$][\w$.]*)$/.exec(ref);
  return fn ? `@${fn[1]} (the function ${fn[2]})` : `@${ref}`;
}

/** `name=value` → [name, value]; the name is matched case-insensitively with spaces normalised. */
export function parseSet(arg: string): [string, string] | undefined {
  const eq = arg.indexOf('=');
  if (eq <= 0) return undefined;
  return [normalise(arg.slice(0, eq)), arg.slice(eq + 1).trim()];
}

/** A slot name as `--set` may write it (`Module_Name`) → as the text has it (`module name`). */
export const normaliseSlotName = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');
const normalise = normaliseSlotName;

/** Replaces each `[name]` slot with `value(name)` (left as written when undefined) and every `@<path>` with `files`. */
export function substitute(body: string, value: (name: string) => string | undefined, files: string): string {
  return body
    .split(FILE_SLOT)
    .join(files)
    .replace(SLOT, (m, name: string) => value(name) ?? m);
}

/** `name = text` lines of a recipe's `defaults:` → a map; a slot with a default is optional. */
export function parseDefaults(lines: string[]): Record<string, string> | { error: string } {
  const out: Record<string, string> = {};
  for (const l of lines) {
    const eq = l.indexOf('=');
    if (eq <= 0) return { error: `defaults: "${l}" is not "slot name = text"` };
    out[normalise(l.slice(0, eq))] = l.slice(eq + 1).trim();
  }
  return out;
}

/**
 * Fills every slot (a slot with a default is optional). Fails naming each missing slot, and each `--set` name the text does not have
 * (a typo would otherwise be silently dropped). Values are inserted as given, never re-scanned.
 */
export function fillSlots(body: string, fill: Fill, what: string, defaults: Record<string, string> = {}): FillResult {
  const { slots, fileSlot } = slotsOf(body);
  const set = new Map(Object.entries(fill.set).map(([k, v]) => [normalise(k), v]));
  const problems: string[] = [];
  const missing = slots.filter((s) => !set.get(s) && !defaults[s]);
  if (missing.length)
    problems.push(
      `missing ${missing.length === 1 ? 'slot' : 'slots'} ${missing.map((s) => `[${s}]`).join(', ')}: add ${missing.map((s) => `--set "${s}=…"`).join(' ')}`,
    );
  if (fileSlot && fill.files.length === 0)
    problems.push('missing file for @<path>: add --file PATH (a file, directory or function reference)');
  const unknown = [...set.keys()].filter((k) => !slots.includes(k));
  if (unknown.length)
    problems.push(
      `${what} has no ${unknown.length === 1 ? 'slot' : 'slots'} ${unknown.map((s) => `[${s}]`).join(', ')}; its slots are ${slots.length ? slots.map((s) => `[${s}]`).join(', ') : 'none'}`,
    );
  if (!fileSlot && fill.files.length) problems.push(`${what} takes no file (no @<path> slot); name files in a --set value instead`);
  if (problems.length) return { ok: false, error: `${what}: ${problems.join('; ')}.` };
  const files = fill.files.map(fileReference).join(' ');
  const text = substitute(body, (name) => set.get(name) || defaults[name] || undefined, files);
  return { ok: true, text };
}
