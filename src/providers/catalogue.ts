import type { CompactCatalogue, CompactEntry } from './catalogue-compact.ts';
import type { Usage } from './types.ts';

/**
 * What the model catalogue knows of a model: context window, output limit, prices, image and
 * reasoning support. The figures are models.dev's (catalogue-compact.ts), never typed in here; the
 * data loads on first use, so a run that needs no model (replay, --version) never reads it.
 * A model it does not know gets its window from its server or settings (context-window.ts).
 */
interface CatalogueEntry {
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens: input, output, cache read, cache write. */
  price: Price;
  images: boolean;
  reasoning: boolean;
  /** The catalogue section and id it was found under ("openrouter: qwen/qwen3-coder"). */
  foundAs: string;
}
type Price = [number, number, number, number];

/** A model the catalogue does not know: its window comes from the provider or settings when they say (SPEC §11.14). */
export const UNKNOWN_CONTEXT_WINDOW = 200_000;
/** The output limit asked for when the catalogue gives none. */
export const UNKNOWN_MAX_OUTPUT = 8_192;
/** The output limit asked for at most (Claude Code's default), whatever larger limit a model has: a turn this long is rare, and providers reserve room for it. */
export const MAX_OUTPUT_CAP = 32_000;

/** The model used when a provider is chosen without one. */
export const DEFAULT_MODELS: Record<string, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5',
  google: 'gemini-2.5-pro',
};

/** Where to look for each of our providers; an OpenAI-compatible server may be any host, so every section is tried. */
function sectionsFor(provider: string, all: string[]): string[] {
  switch (provider) {
    case 'anthropic':
      return ['anthropic'];
    case 'openai':
    case 'openai-chat':
      return ['openai'];
    case 'google':
      return ['google'];
    case 'openai-compatible':
      return ['openrouter', ...all.filter((s) => s !== 'openrouter')];
    default:
      return []; // ollama: a local model's figures come from the server (/api/show)
  }
}

/** The ids a model may be listed under: as given, and without a date suffix or a `models/` prefix. */
function idsFor(model: string): string[] {
  const ids = [model, model.replace(/^models\//, ''), model.replace(/-\d{8}$/, ''), model.replace(/-\d{4}-\d{2}-\d{2}$/, '')];
  return [...new Set(ids)];
}

let data: Promise<CompactCatalogue> | undefined;
const load = () => (data ??= import('./catalogue-data.ts').then((m) => m.CATALOGUE));

/** The catalogue's entry for a model of a provider, or undefined when it does not know it. */
export async function lookupModel(provider: string, model: string): Promise<CatalogueEntry | undefined> {
  const sections = sectionsFor(provider, []);
  if (sections.length === 0) return undefined;
  const cat = await load();
  for (const section of sectionsFor(provider, Object.keys(cat))) {
    for (const id of idsFor(model)) {
      const e: CompactEntry | undefined = cat[section]?.[id];
      if (e)
        return {
          contextWindow: e[0],
          maxOutputTokens: e[1],
          price: [e[2], e[3], e[4], e[5]],
          images: e[6] === 1,
          reasoning: e[7] === 1,
          foundAs: `${section}: ${id}`,
        };
    }
  }
  return undefined;
}

/** The cost of some usage at a price (none known: 0). Providers report cached tokens inside or beside inputTokens; each is priced once. */
export function costUsd(price: Price | undefined, u: Usage): number {
  if (!price) return 0;
  const fresh = Math.max(0, u.inputTokens - u.cacheReadTokens - u.cacheWriteTokens);
  return (fresh * price[0] + u.outputTokens * price[1] + u.cacheReadTokens * price[2] + u.cacheWriteTokens * price[3]) / 1_000_000;
}

/**
 * The models the catalogue lists for one of our providers (anthropic, openai, google), for a
 * picker: newest names first, without dated snapshots, `-latest` aliases, dated previews and
 * audio/live variants (they can still be named by hand). Empty for other providers.
 */
export async function catalogueModels(provider: string): Promise<string[]> {
  const section = provider === 'anthropic' || provider === 'openai' || provider === 'google' ? provider : undefined;
  if (!section) return [];
  const ids = Object.keys((await load())[section] ?? {});
  const skip = /-\d{8}$|-\d{4}-\d{2}-\d{2}$|-latest$|preview-\d{2}-\d{2}$|preview-\d{2}-\d{4}$|live|audio|customtools|deep-research|^gemma/;
  return ids.filter((id) => !skip.test(id)).sort((a, b) => version(b) - version(a) || a.localeCompare(b, 'en', { numeric: true }));
}

/** A model id's version as a number, for "newest first": `claude-opus-4-7` 4.7, `gpt-5.4-mini` 5.4, `o3` 3; 0 when none. */
function version(id: string): number {
  const m = /(\d+)(?:[.-](\d))?(?!\d)/.exec(id);
  return m ? Number(m[1]) + Number(m[2] ?? 0) / 10 : 0;
}
