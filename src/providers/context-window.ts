import { knownModel, UNKNOWN_CONTEXT_WINDOW } from './catalogue.ts';

/**
 * A model's context window and where it comes from (SPEC §11.14): the catalogue for a model it
 * knows; else what the provider says (Ollama's `/api/show`, an OpenAI-compatible server's
 * `/v1/models` entry); else the setting `modelContextWindow`; else 200k. Never throws: a server
 * that does not answer in time, or answers without a figure, falls through to the next source.
 */
export interface ContextWindow { tokens: number; source: string }

export interface ContextWindowQuery {
  provider: string;
  model: string;
  /** The provider's base URL: Ollama's root (no /v1), or an OpenAI-compatible server's with /v1. */
  baseURL?: string;
  apiKey?: string;
  /** Settings `modelContextWindow`. */
  setting?: number;
  timeoutMs?: number;
}

const positive = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined);

/**
 * Ollama's answer: a `num_ctx` the model was created with is what the server runs it with, so it
 * wins over the model's trained `<architecture>.context_length`.
 */
export function fromOllamaShow(body: unknown): number | undefined {
  const b = body as { parameters?: unknown; model_info?: Record<string, unknown> } | undefined;
  const numCtx = typeof b?.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(b.parameters)?.[1] : undefined;
  if (numCtx) return positive(Number(numCtx));
  const info = b?.model_info ?? {};
  const arch = info['general.architecture'];
  return positive(typeof arch === 'string' ? info[`${arch}.context_length`] : undefined)
    ?? positive(Object.entries(info).find(([k]) => k.endsWith('.context_length'))?.[1]);
}

/** The figure of one `/v1/models` entry, under the names servers use (OpenRouter, vLLM, LM Studio, LiteLLM …). */
export function fromModelsList(body: unknown, model: string): number | undefined {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return undefined;
  const entry = data.find((m) => (m as { id?: unknown })?.id === model) as Record<string, unknown> | undefined;
  if (!entry) return undefined;
  for (const key of ['context_length', 'context_window', 'max_model_len', 'max_context_length', 'max_input_tokens']) {
    const n = positive(entry[key]);
    if (n) return n;
  }
  return positive((entry.top_provider as Record<string, unknown> | undefined)?.context_length);
}

async function ask(url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return res.ok ? await res.json() : undefined;
  } catch {
    return undefined;
  }
}

export async function contextWindow(q: ContextWindowQuery): Promise<ContextWindow> {
  const known = knownModel(q.model);
  if (known) return { tokens: known.contextWindow, source: 'the model catalogue' };
  const timeoutMs = q.timeoutMs ?? 2000;
  if (q.baseURL && q.provider === 'ollama') {
    const n = fromOllamaShow(await ask(`${q.baseURL}/api/show`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: q.model }) }, timeoutMs));
    if (n) return { tokens: n, source: "Ollama's /api/show" };
  }
  if (q.baseURL && q.provider === 'openai-compatible') {
    const n = fromModelsList(await ask(`${q.baseURL}/models`, { headers: q.apiKey ? { authorization: `Bearer ${q.apiKey}` } : {} }, timeoutMs), q.model);
    if (n) return { tokens: n, source: "the server's /v1/models" };
  }
  if (q.setting) return { tokens: q.setting, source: 'settings modelContextWindow' };
  return { tokens: UNKNOWN_CONTEXT_WINDOW, source: 'the default for models the catalogue does not know (set modelContextWindow to change it)' };
}
