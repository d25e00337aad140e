import { splitWords } from '../commands/words.ts';
import { findRecipe, library } from './load.ts';
import { libraryText, recipeText } from './render.ts';
import type { Recipe } from './schema.ts';
import { fillSlots, parseSet, type Fill } from './slots.ts';

type RecipeSlash =
  | { kind: 'print'; text: string }
  | { kind: 'prompt'; prompt: string; recipe: Recipe }
  | { kind: 'error'; message: string };

/**
 * `/recipes` lists the library; `/recipe N` shows recipe N; `/recipe N --set "name=value" … --file
 * PATH` (or `name=value` words and paths) fills it and sends it as the prompt (SPEC §7).
 */
export function recipeSlash(name: 'recipes' | 'recipe', args: string): RecipeSlash {
  if (name === 'recipes') return { kind: 'print', text: libraryText(library().recipes) };
  const words = splitWords(args);
  if (!words.length) return { kind: 'print', text: libraryText(library().recipes) };
  const r = findRecipe(words[0]);
  if (!r)
    return {
      kind: 'error',
      message: `There is no recipe "${words[0]}": recipes are numbered 1 to ${library().recipes.length}. /recipes lists them.`,
    };
  if (words.length === 1) {
    const use = [
      `/recipe ${r.number}`,
      ...r.slots.filter((s) => !r.defaults[s]).map((s) => `--set "${s}=…"`),
      ...(r.fileSlot ? ['--file PATH'] : []),
    ].join(' ');
    return { kind: 'print', text: recipeText(r).replace(/\nUse: .*\n$/, `\nUse: ${use}\n`) };
  }
  const fill: Fill = { set: {}, files: [] };
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const value = (flag: string) => {
      const v = words[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    try {
      if (w === '--set') {
        const kv = parseSet(value('--set'));
        if (!kv) return { kind: 'error', message: '--set needs name=value' };
        fill.set[kv[0]] = kv[1];
      } else if (w === '--file') fill.files.push(value('--file'));
      else if (parseSet(w) && !w.startsWith('@')) {
        const kv = parseSet(w)!;
        fill.set[kv[0]] = kv[1];
      } else fill.files.push(w.replace(/^@/, ''));
    } catch (e) {
      return { kind: 'error', message: (e as Error).message };
    }
  }
  const out = fillSlots(r.body, fill, `recipe ${r.number}`, r.defaults);
  return out.ok ? { kind: 'prompt', prompt: out.text, recipe: r } : { kind: 'error', message: out.error };
}
