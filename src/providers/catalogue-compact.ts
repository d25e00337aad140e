/**
 * The model catalogue's data, cut down from models.dev's (as `@mariozechner/pi-ai` ships it,
 * regenerated there from models.dev) to what assistant reads. Pure: the build runs it once and
 * bundles the result (scripts/build.mjs); tests and `tsx` run it when catalogue-data.ts loads.
 */

/** One model: [context window, output limit, USD per million tokens for input, output, cache read, cache write, takes images (1/0), reasons (1/0)]. */
export type CompactEntry = [number, number, number, number, number, number, number, number];
export type CompactCatalogue = Record<string, Record<string, CompactEntry>>;

/** The catalogue sections kept: the providers assistant talks to, and the hosts an OpenAI-compatible server is likely to be. */
const KEPT_SECTIONS = [
  'anthropic',
  'openai',
  'google',
  'openrouter',
  'deepseek',
  'mistral',
  'xai',
  'groq',
  'cerebras',
  'fireworks',
  'moonshotai',
  'zai',
  'minimax',
  'huggingface',
];

interface SourceModel {
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  input: string[];
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export function compactCatalogue(models: Record<string, Record<string, SourceModel>>): CompactCatalogue {
  const out: CompactCatalogue = {};
  for (const section of KEPT_SECTIONS) {
    const entries = models[section];
    if (!entries) continue;
    out[section] = {};
    for (const [id, m] of Object.entries(entries)) {
      out[section][id] = [
        m.contextWindow,
        m.maxTokens,
        m.cost.input,
        m.cost.output,
        m.cost.cacheRead,
        m.cost.cacheWrite,
        m.input.includes('image') ? 1 : 0,
        m.reasoning ? 1 : 0,
      ];
    }
  }
  return out;
}
