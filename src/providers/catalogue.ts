/** What we know about models: context windows (for compaction and the status line) and prices
 *  (USD per million tokens, for `total_cost_usd`). Unknown models get no price; their window: context-window.ts. */
export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  /** [input, output, cache read, cache write] USD per million tokens. */
  price?: [number, number, number, number];
}

const MODELS: Array<[RegExp, ModelInfo]> = [
  [/claude-(opus-4-[5-9]|opus-4\.[5-9])/, { contextWindow: 200_000, maxOutputTokens: 32_000, price: [5, 25, 0.5, 6.25] }],
  [/claude-(opus-4|4-opus)/, { contextWindow: 200_000, maxOutputTokens: 32_000, price: [15, 75, 1.5, 18.75] }],
  [/claude-(sonnet|3-7-sonnet|3-5-sonnet)/, { contextWindow: 200_000, maxOutputTokens: 32_000, price: [3, 15, 0.3, 3.75] }],
  [/claude-haiku-4/, { contextWindow: 200_000, maxOutputTokens: 16_000, price: [1, 5, 0.1, 1.25] }],
  [/claude-3-5-haiku/, { contextWindow: 200_000, maxOutputTokens: 8_192, price: [0.8, 4, 0.08, 1] }],
  [/^gpt-5(\.\d)?(-codex)?$/, { contextWindow: 400_000, maxOutputTokens: 32_000, price: [1.25, 10, 0.125, 0] }],
  [/^gpt-5(\.\d)?-mini/, { contextWindow: 400_000, maxOutputTokens: 32_000, price: [0.25, 2, 0.025, 0] }],
  [/^gpt-4\.1/, { contextWindow: 1_000_000, maxOutputTokens: 32_000, price: [2, 8, 0.5, 0] }],
  [/^gpt-4o/, { contextWindow: 128_000, maxOutputTokens: 16_000, price: [2.5, 10, 1.25, 0] }],
  [/^gemini-2\.5-pro/, { contextWindow: 1_000_000, maxOutputTokens: 32_000, price: [1.25, 10, 0.31, 0] }],
  [/^gemini-2\.5-flash/, { contextWindow: 1_000_000, maxOutputTokens: 32_000, price: [0.3, 2.5, 0.075, 0] }],
];

/** A model the catalogue does not know: its window comes from the provider or settings when they say (SPEC §11.14). */
export const UNKNOWN_CONTEXT_WINDOW = 200_000;
const UNKNOWN: ModelInfo = { contextWindow: UNKNOWN_CONTEXT_WINDOW, maxOutputTokens: 8_192 };

/** The catalogue's entry for a model, or undefined when it does not know it. */
export function knownModel(model: string): ModelInfo | undefined {
  for (const [re, info] of MODELS) if (re.test(model)) return info;
  return undefined;
}

export function modelInfo(model: string): ModelInfo {
  return knownModel(model) ?? UNKNOWN;
}

export function costUsd(model: string, u: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }): number {
  const p = modelInfo(model).price;
  if (!p) return 0;
  // Providers report cached tokens inside or beside inputTokens; we price what they report, once.
  const fresh = Math.max(0, u.inputTokens - u.cacheReadTokens - u.cacheWriteTokens);
  return (fresh * p[0] + u.outputTokens * p[1] + u.cacheReadTokens * p[2] + u.cacheWriteTokens * p[3]) / 1_000_000;
}

/** The model used when a provider is chosen without one. */
export const DEFAULT_MODELS: Record<string, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5',
  google: 'gemini-2.5-pro',
};
