import type { z } from 'zod';
import { parseFrontMatter } from '../commands/front-matter.ts';
import { RECIPE_FILES, TEMPLATE_FILES } from './data/index.ts';
import { RecipeFrontMatterSchema, TemplateFrontMatterSchema, type Recipe, type Template } from './schema.ts';
import { parseDefaults, slotsOf } from './slots.ts';

/** A data file that does not fit its schema: a bug in the product, reported with file and line. */
class RecipeDataError extends Error {}

function parse<S extends z.ZodType>(
  schema: S,
  file: string,
  source: string,
): z.infer<S> & { body: string; file: string; slots: string[]; fileSlot: boolean } {
  const fm = parseFrontMatter(source);
  const where = (line?: number) => `src/recipes/data/${file}${line ? `:${line}` : ''}`;
  if (fm.problems.length) throw new RecipeDataError(fm.problems.map((p) => `${where(p.line)}: ${p.message}`).join('\n'));
  const raw: Record<string, unknown> = {};
  for (const e of fm.entries) raw[e.key] = e.value;
  const r = schema.safeParse(raw);
  if (!r.success) {
    throw new RecipeDataError(
      r.error.issues
        .map((i) => {
          const key = String(i.path[0] ?? '');
          return `${where(fm.entries.find((e) => e.key === key)?.line)}: ${key || 'front matter'}: ${i.message}`;
        })
        .join('\n'),
    );
  }
  const body = fm.body.trim();
  if (!body) throw new RecipeDataError(`${where()}: the template text is empty`);
  return { ...(r.data as object), body, file, ...slotsOf(body) } as z.infer<S> & {
    body: string;
    file: string;
    slots: string[];
    fileSlot: boolean;
  };
}

function parseRecipe(file: string, source: string): Recipe {
  const raw = parse(RecipeFrontMatterSchema, file, source);
  const defaults = parseDefaults(raw.defaults);
  if ('error' in defaults && typeof defaults.error === 'string') throw new RecipeDataError(`src/recipes/data/${file}: ${defaults.error}`);
  const r: Recipe = { ...raw, defaults: defaults as Record<string, string> };
  for (const k of Object.keys(r.defaults))
    if (!r.slots.includes(k)) throw new RecipeDataError(`src/recipes/data/${file}: defaults names [${k}], which the text does not have`);
  const community = r.number >= 21;
  if (community && !r.why) throw new RecipeDataError(`src/recipes/data/${file}: community recipes (21-40) need a "why" note`);
  if (!community && r.why) throw new RecipeDataError(`src/recipes/data/${file}: "why" is for community recipes (21-40) only`);
  return r;
}

function parseTemplate(file: string, source: string): Template {
  return parse(TemplateFrontMatterSchema, file, source);
}

let cache: { recipes: Recipe[]; templates: Template[] } | undefined;

/** The library, in number order. Throws RecipeDataError when a data file is broken (tests catch it). */
export function library(): { recipes: Recipe[]; templates: Template[] } {
  cache ??= {
    recipes: RECIPE_FILES.map((f) => parseRecipe(f.file, f.text)).sort((a, b) => a.number - b.number),
    templates: TEMPLATE_FILES.map((f) => parseTemplate(f.file, f.text)).sort((a, b) => a.number - b.number),
  };
  return cache;
}

/** A recipe by number (`4`) or title words; undefined when none fits. */
export function findRecipe(ref: string): Recipe | undefined {
  const n = Number(ref);
  return library().recipes.find((r) => r.number === n);
}

/** A template by number or name (`explain`). */
export function findTemplate(ref: string): Template | undefined {
  const n = Number(ref);
  return library().templates.find((t) => t.number === n || t.name === ref.toLowerCase());
}
