import type { LanguageModelV4Message } from '@ai-sdk/provider';

/** The conversation as the model sees it. We keep the AI SDK's provider-level prompt format as our
 *  own message format: it is provider-neutral, JSON-serialisable, and needs no conversion. */
export type Message = LanguageModelV4Message;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxOutputTokens?: number;
  /** Thinking for this request, over the model's own setting (a summary needs none). */
  thinking?: ThinkingLevel;
  /** Enable the provider's own web search tool (SPEC §14), where it has one: WebSearch's side request, never the main one. */
  webSearch?: { allowedDomains?: string[]; blockedDomains?: string[] };
}

/** How much the model reasons before it answers (settings `thinking`, `--thinking`); unset: the provider's default. */
export type ThinkingLevel = 'off' | 'low' | 'medium' | 'high';

export interface ProviderErrorInfo {
  message: string;
  /** HTTP status when the server answered. */
  status?: number;
  retryable: boolean;
  /** Milliseconds the server asked us to wait (retry-after). */
  retryAfterMs?: number;
}

/** One model response as a stream. A stream never throws: it ends with `finish`, `error` or `aborted`. */
export type StreamEvent =
  | { type: 'text'; delta: string }
  /** Reasoning as it streams. `id` tells one block from the next; `meta` is what the provider wants back with it (Anthropic's signature, OpenAI's item id). */
  | { type: 'reasoning'; delta: string; id?: string; meta?: Record<string, Record<string, unknown>> }
  /** `meta`: the provider's metadata of the call (Gemini's thought signature), sent back with it next turn. */
  | { type: 'tool-call'; id: string; name: string; input: string; meta?: Record<string, Record<string, unknown>> }
  | { type: 'finish'; reason: string; usage: Usage }
  /** A page the provider's own search found (WebSearch's side request). */
  | { type: 'source'; url: string; title?: string }
  /** The provider's own tool (its search) failed: `message` is its error code or text. */
  | { type: 'server-tool-error'; name: string; message: string }
  /** A retry is about to happen: consumers drop whatever partial output they kept from this response. */
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: ProviderErrorInfo }
  | { type: 'error'; error: ProviderErrorInfo }
  | { type: 'aborted' };

export interface ModelHandle {
  /** `provider:model`, as the user wrote it or as chosen. */
  id: string;
  provider: string;
  model: string;
  /** What the UI shows ("replay:demo.json (replay)"). */
  label: string;
  contextWindow: number;
  /** Where `contextWindow` comes from, for `/status` (SPEC §11.14): "the model catalogue", "Ollama's /api/show", … */
  contextSource?: string;
  /** What is known of the model beyond its window (catalogue, or the server): prices, image and reasoning support. */
  facts?: ModelFacts;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
}

export interface ModelFacts {
  /** USD per million tokens: input, output, cache read, cache write. */
  price?: [number, number, number, number];
  /** Takes images: true or false when known; undefined when not (images are sent and the server decides). */
  images?: boolean;
  /** Reasons (extended thinking, reasoning effort) when asked: as `images`. */
  reasoning?: boolean;
  /** The output limit asked for on each request. */
  maxOutputTokens?: number;
  /** The thinking asked for on each request (settings `thinking`, `--thinking`); unset: the provider's default. */
  thinking?: ThinkingLevel;
  /** Where the facts come from, for `/status`. */
  source?: string;
}
