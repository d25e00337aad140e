import { z } from 'zod';

/**
 * A recipe's and a template's front matter (SPEC §7): the one source of truth for the data files in
 * `src/recipes/data/`. Values arrive as text or lists of text from commands/front-matter.ts.
 */
export const CATEGORIES = [
  'Project setup',
  'Debugging',
  'Refactor and migration',
  'Review and release',
  'Documentation',
  'Testing',
  'Security',
  'Community',
] as const;
const RECIPE_MODES = ['plan', 'normal', 'auto-accept'] as const;
const LEVELS = ['low', 'medium', 'high'] as const;
/** How a recipe's mode and complexity are written for people (lists, show, advise, docs). */
export const MODE_NAMES = { plan: 'Plan Mode', normal: 'Normal', 'auto-accept': 'Auto-Accept' } as const;
export const MINUTES = { low: '<5 min', medium: '5-30 min', high: '>30 min' } as const;

const text = (what: string) =>
  z
    .string({ error: `must be text (${what})` })
    .trim()
    .min(1, `must not be empty (${what})`);
const list = z.union([z.string().transform((s) => [s]), z.array(z.string())]).default([]);

export const RecipeFrontMatterSchema = z
  .object({
    number: z.coerce.number().int().min(1).max(40),
    category: z.enum(CATEGORIES),
    title: text('a short title'),
    scenario: text('when to use the recipe'),
    mode: z.enum(RECIPE_MODES),
    /** low: under 5 minutes; medium: 5 to 30; high: over 30 (the source's complexity table). */
    complexity: z.enum(LEVELS),
    risk: z.enum(LEVELS),
    reads: list,
    writes: list,
    /** Words of a task that point to this recipe (`advise`). */
    keywords: list,
    /** `slot name = text`: the text used when the slot is not given, which makes the slot optional. */
    defaults: list,
    note: text('advice for the user'),
    why: z.string().trim().min(1).optional(),
  })
  .strict();
type RecipeFrontMatter = z.infer<typeof RecipeFrontMatterSchema>;

export const TemplateFrontMatterSchema = z
  .object({
    number: z.coerce.number().int().min(1).max(10),
    name: z.string().regex(/^[a-z][a-z-]*$/, 'must be one lowercase word'),
    title: text('a short title'),
    mode: z.enum(RECIPE_MODES),
    /** Words of a task that point to this template (`advise`). */
    keywords: list,
  })
  .strict();
type TemplateFrontMatter = z.infer<typeof TemplateFrontMatterSchema>;

export interface Recipe extends Omit<RecipeFrontMatter, 'defaults'> {
  /** Optional slots and the text they get when not given. */
  defaults: Record<string, string>;
  /** The template text with its slots. */
  body: string;
  /** Data file, relative to src/recipes/data/. */
  file: string;
  /** `[name]` slots in order of first appearance. */
  slots: string[];
  /** Whether the text has `@<path>` file slots (filled by `--file`). */
  fileSlot: boolean;
}

export interface Template extends TemplateFrontMatter {
  body: string;
  file: string;
  slots: string[];
  fileSlot: boolean;
}
