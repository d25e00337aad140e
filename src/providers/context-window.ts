import { UNKNOWN_CONTEXT_WINDOW } from './catalogue.ts';

/**
 * A model's context window and where it comes from (SPEC §11.14): the catalogue for a model it
 * knows; else what the provider says (Ollama's `/api/show`, an OpenAI-compatible server's
 * `/v1/models` entry); else the setting `modelContextWindow`; else 200k. Never throws: a server
 * that does not answer in time, or answers without a figure, falls through to the next source.
 */
interface ContextWindow {
  tokens: number;
  source: string;
}

interface ContextWindowQuery {
  provider: string;
  model: string;
  /** The catalogue's window for this model, when it knows it. */
  catalogue?: number;
  /** The provider's base URL: Ollama's root (no /v1), or an OpenAI-compatible server's with /v1. */
  baseURL?: string;
  apiKey?: string;
  /** Settings `modelContextWindow`. */
  setting?: number;
  /** Ollama: what `/api/show` said (undefined: ask it now; null: it did not answer). */
  ollama?: OllamaShow | null;
  /** Ollama: settings `ollamaMaxContext`, the most `num_ctx` asked for (default 32768). */
  ollamaCap?: number;
  timeoutMs?: number;
}

/** The `num_ctx` assistant asks Ollama for when settings say nothing: large enough for real work, small enough for a laptop's memory. */
const OLLAMA_DEFAULT_CAP = 32_768;

/** What Ollama's `/api/show` says of a model. */
export interface OllamaShow {
  /** A `num_ctx` the model was created with (its Modelfile's PARAMETER). */
  numCtx?: number;
  /** The context length the model was trained for (`<architecture>.context_length`). */
  contextLength?: number;
  /** `capabilities`: `vision`, `thinking`, `tools`, … (absent on old servers). */
  capabilities?: string[];
}

const positive = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined);

export function parseOllamaShow(body: unknown): OllamaShow | undefined {
  const b = body as { parameters?: unknown; model_info?: Record<string, unknown>; capabilities?: unknown } | undefined;
  if (!b || typeof b !== 'object') return undefined;
  const numCtx = typeof b.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(b.parameters)?.[1] : undefined;
  const info = b.model_info ?? {};
  const arch = info['general.architecture'];
  const contextLength =
    positive(typeof arch === 'string' ? info[`${arch}.context_length`] : undefined) ??
    positive(Object.entries(info).find(([k]) => k.endsWith('.context_length'))?.[1]);
  const capabilities = Array.isArray(b.capabilities) ? b.capabilities.filter((c): c is string => typeof c === 'string') : undefined;
  return { numCtx: numCtx ? positive(Number(numCtx)) : undefined, contextLength, capabilities };
}

/**
 * The `num_ctx` to send with every Ollama request, so the prompt is never cut to Ollama's small
 * default without a word: the Modelfile's own `num_ctx` when it sets one (the user chose it), else
 * the model's trained length capped by `ollamaMaxContext`; a server that does not say: the setting
 * `modelContextWindow`, else the cap.
 */
export function ollamaContext(show: OllamaShow | null | undefined, setting: number | undefined, cap = OLLAMA_DEFAULT_CAP): ContextWindow {
  if (show?.numCtx) return { tokens: show.numCtx, source: "Ollama's /api/show (the model's num_ctx)" };
  if (show?.contextLength) {
    return show.contextLength > cap
      ? { tokens: cap, source: `Ollama's /api/show (the model takes ${show.contextLength}; capped by ollamaMaxContext)` }
      : { tokens: show.contextLength, source: "Ollama's /api/show" };
  }
  if (setting) return { tokens: setting, source: 'settings modelContextWindow' };
  return { tokens: cap, source: "ollamaMaxContext (the server did not say the model's length)" };
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

/** Ollama's `/api/show` for a model; null when the server does not answer (in time) or does not know it. */
export async function askOllamaShow(baseURL: string, model: string, timeoutMs = 2000): Promise<OllamaShow | null> {
  const body = await ask(
    `${baseURL}/api/show`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model }) },
    timeoutMs,
  );
  return parseOllamaShow(body) ?? null;
}

export async function contextWindow(q: ContextWindowQuery): Promise<ContextWindow> {
  if (q.catalogue) return { tokens: q.catalogue, source: 'the model catalogue' };
  const timeoutMs = q.timeoutMs ?? 2000;
  if (q.provider === 'ollama') {
    const show = q.ollama !== undefined ? q.ollama : q.baseURL ? await askOllamaShow(q.baseURL, q.model, timeoutMs) : null;
    return ollamaContext(show, q.setting, q.ollamaCap);
  }
  if (q.baseURL && q.provider === 'openai-compatible') {
    const n = fromModelsList(
      await ask(`${q.baseURL}/models`, { headers: q.apiKey ? { authorization: `Bearer ${q.apiKey}` } : {} }, timeoutMs),
      q.model,
    );
    if (n) return { tokens: n, source: "the server's /v1/models" };
  }
  if (q.setting) return { tokens: q.setting, source: 'settings modelContextWindow' };
  return {
    tokens: UNKNOWN_CONTEXT_WINDOW,
    source: 'the default for models the catalogue does not know (set modelContextWindow to change it)',
  };
}
