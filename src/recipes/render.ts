import { CATEGORIES, type Recipe, type Template } from './schema.ts';

const MODE = { plan: 'Plan Mode', normal: 'Normal', 'auto-accept': 'Auto-Accept' } as const;
const MINUTES = { low: '<5 min', medium: '5-30 min', high: '>30 min' } as const;

/** `assistant recipes`: the library by category. */
export function libraryText(recipes: Recipe[]): string {
  const out: string[] = [];
  const width = Math.max(...recipes.map((r) => r.title.length));
  for (const cat of CATEGORIES) {
    const of = recipes.filter((r) => r.category === cat);
    if (!of.length) continue;
    out.push(`${cat}`);
    for (const r of of) out.push(`  ${String(r.number).padStart(2)}  ${r.title.padEnd(width)} ${MODE[r.mode].padEnd(11)} ${MINUTES[r.complexity].padEnd(8)} ${r.risk} risk`);
    out.push('');
  }
  out.push('Show one: assistant recipes show N    Fill its slots: assistant recipes use N --set "name=value" --file PATH');
  out.push('Run it in its mode: assistant recipes run N …    Which one fits? assistant advise "your task"');
  return `${out.join('\n')}\n`;
}

/** An example command line that fills every slot of a recipe or template. */
export function exampleUse(kind: 'recipes' | 'templates', ref: string | number, r: { slots: string[]; fileSlot: boolean; defaults?: Record<string, string> }): string {
  return [`assistant ${kind} use ${ref}`, ...r.slots.filter((s) => !r.defaults?.[s]).map((s) => `--set "${s}=…"`), ...(r.fileSlot ? ['--file PATH'] : [])].join(' ');
}

/** `assistant recipes show N`. */
export function recipeText(r: Recipe): string {
  const out = [
    `Recipe ${r.number}: ${r.title}`,
    `${r.category} · ${MODE[r.mode]} · complexity ${r.complexity} (${MINUTES[r.complexity]}) · ${r.risk} risk`,
    '',
    `When: ${r.scenario}`,
  ];
  if (r.reads.length || r.writes.length) out.push(`Files: ${[r.reads.length ? `reads ${r.reads.join(', ')}` : '', r.writes.length ? `writes ${r.writes.join(', ')}` : ''].filter(Boolean).join('; ')}`);
  out.push(`Slots: ${[...r.slots.map((s) => `[${s}]${r.defaults[s] ? ' (optional)' : ''}`), ...(r.fileSlot ? ['@<path> (--file)'] : [])].join(', ') || 'none'}`);
  out.push('', indent(r.body), '', `Note: ${r.note}`);
  if (r.why) out.push(`Why it works: ${r.why}`);
  out.push('', `Use: ${exampleUse('recipes', r.number, r)}`);
  return `${out.join('\n')}\n`;
}

export function templatesText(templates: Template[]): string {
  const out = templates.map((t) => `  ${String(t.number).padStart(2)}  ${t.name.padEnd(10)} ${t.title.padEnd(24)} ${t.body.length > 90 ? `${t.body.slice(0, 87)}…` : t.body}`);
  out.push('', 'Use one: assistant templates use NAME --file PATH   (run it: assistant templates run NAME --file PATH)');
  return `${out.join('\n')}\n`;
}

const indent = (text: string) => text.split('\n').map((l) => (l ? `    ${l}` : l)).join('\n');

/** The JSON form of a recipe for scripts (`--json`). */
export function recipeJson(r: Recipe) {
  const { body, file: _file, ...rest } = r;
  return { ...rest, template: body };
}

export function templateJson(t: Template) {
  const { body, file: _file, ...rest } = t;
  return { ...rest, template: body };
}
