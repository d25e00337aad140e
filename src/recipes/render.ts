import { CATEGORIES, MINUTES, MODE_NAMES, type Recipe, type Template } from './schema.ts';

const SHORT_MODE = { plan: 'plan', normal: 'normal', 'auto-accept': 'auto' } as const;
/** Titles longer than this are cut with … so a row fits 80 columns. */
const TITLE_MAX = 50;
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** `assistant recipes`: the library by category, one row of at most 80 columns per recipe. */
export function libraryText(recipes: Recipe[]): string {
  const out: string[] = [];
  const width = Math.min(TITLE_MAX, Math.max(...recipes.map((r) => r.title.length)));
  for (const cat of CATEGORIES) {
    const of = recipes.filter((r) => r.category === cat);
    if (!of.length) continue;
    out.push(`${cat}`);
    for (const r of of)
      out.push(
        `  ${String(r.number).padStart(2)}  ${cut(r.title, width).padEnd(width)}  ${SHORT_MODE[r.mode].padEnd(6)} ${MINUTES[r.complexity].padEnd(8)} ${r.risk}`,
      );
    out.push('');
  }
  out.push('Columns: mode (plan, normal, auto-accept), time (<5, 5-30, >30 minutes), risk.');
  out.push('Show one:      assistant recipes show N');
  out.push('Fill it:       assistant recipes use N --set "name=value" --file PATH');
  out.push('Run it:        assistant recipes run N …   (in its mode)');
  out.push('Which fits?    assistant advise "your task"');
  return `${out.join('\n')}\n`;
}

/** An example command line that fills every slot of a recipe or template. */
function exampleUse(
  kind: 'recipes' | 'templates',
  ref: string | number,
  r: { slots: string[]; fileSlot: boolean; defaults?: Record<string, string> },
): string {
  return [
    `assistant ${kind} use ${ref}`,
    ...r.slots.filter((s) => !r.defaults?.[s]).map((s) => `--set "${s}=…"`),
    ...(r.fileSlot ? ['--file PATH'] : []),
  ].join(' ');
}

/** `assistant recipes show N`. */
export function recipeText(r: Recipe): string {
  const out = [
    `Recipe ${r.number}: ${r.title}`,
    `${r.category} · ${MODE_NAMES[r.mode]} · complexity ${r.complexity} (${MINUTES[r.complexity]}) · ${r.risk} risk`,
    '',
    `When: ${r.scenario}`,
  ];
  if (r.reads.length || r.writes.length)
    out.push(
      `Files: ${[r.reads.length ? `reads ${r.reads.join(', ')}` : '', r.writes.length ? `writes ${r.writes.join(', ')}` : ''].filter(Boolean).join('; ')}`,
    );
  out.push(
    `Slots: ${[...r.slots.map((s) => `[${s}]${r.defaults[s] ? ' (optional)' : ''}`), ...(r.fileSlot ? ['@<path> (--file)'] : [])].join(', ') || 'none'}`,
  );
  out.push('', indent(r.body), '', `Note: ${r.note}`);
  if (r.why) out.push(`Why it works: ${r.why}`, '(The rules by number: assistant rules N)');
  out.push('', `Use: ${exampleUse('recipes', r.number, r)}`);
  return `${out.join('\n')}\n`;
}

/** `assistant templates`: one row of at most 80 columns each. */
export function templatesText(templates: Template[]): string {
  const out = templates.map(
    (t) =>
      `  ${String(t.number).padStart(2)}  ${t.name.padEnd(10)} ${t.title.padEnd(22)} ${SHORT_MODE[t.mode].padEnd(6)} ${cut(t.body, 80 - 47)}`,
  );
  out.push(
    '',
    'Show one:  assistant templates show NAME',
    'Use one:   assistant templates use NAME --file PATH',
    'Run one:   assistant templates run NAME --file PATH   (in its mode)',
  );
  return `${out.join('\n')}\n`;
}

/** `assistant templates show NAME`. */
export function templateText(t: Template): string {
  const slots = [...t.slots.map((s) => `[${s}]`), ...(t.fileSlot ? ['@<path> (--file: a file, directory or path:function)'] : [])].join(
    ', ',
  );
  return `Template ${t.number}: ${t.name} (${t.title}) · ${MODE_NAMES[t.mode]}\nSlots: ${slots || 'none'}\n\n${indent(t.body)}\n\nUse: ${exampleUse('templates', t.name, t)}\n`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `    ${l}` : l))
    .join('\n');

/** The JSON form of a recipe for scripts (`--json`). */
export function recipeJson(r: Recipe) {
  const { body, file: _file, ...rest } = r;
  return { ...rest, template: body };
}

export function templateJson(t: Template) {
  const { body, file: _file, ...rest } = t;
  return { ...rest, template: body };
}
