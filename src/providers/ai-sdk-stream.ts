import type { LanguageModelV4, LanguageModelV4Prompt, LanguageModelV4StreamPart, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { classifyError, INCOMPLETE, isAbort } from './errors.ts';
import { thinkingCall } from './thinking.ts';
import type { ModelFacts, ModelRequest, StreamEvent, Usage } from './types.ts';
import { imagesOutOfToolResults, withoutForbiddenReasoning, withoutImages } from './wire-prompt.ts';

interface AttemptOptions {
  /** Our provider name (anthropic, openai, openai-chat, google, ollama, openai-compatible): what the wire takes. */
  kind?: string;
  /** The model's facts: its thinking setting, whether it reasons. */
  facts?: ModelFacts;
  /** Provider options sent with every request (Ollama's `num_ctx`). */
  providerOptions?: SharedV4ProviderOptions;
  /** Abort the attempt when no stream part arrives for this long (a hung server). */
  idleTimeoutMs: number;
  /** The start of the last response body (body-tap.ts): what a server sent that was not its wire format. */
  body?: () => string;
}

function toUsage(
  u: { inputTokens?: { total?: number; cacheRead?: number; cacheWrite?: number }; outputTokens?: { total?: number } } | undefined,
): Usage {
  return {
    inputTokens: u?.inputTokens?.total ?? 0,
    outputTokens: u?.outputTokens?.total ?? 0,
    cacheReadTokens: u?.inputTokens?.cacheRead ?? 0,
    cacheWriteTokens: u?.inputTokens?.cacheWrite ?? 0,
  };
}

const CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/**
 * Anthropic prompt caching: the system prompt (with the tools before it) and the conversation up to
 * its last message are marked as cache breakpoints, so each turn re-reads them at the cached price
 * instead of paying for them again. Other providers ignore these options (OpenAI caches on its own).
 */
function withCacheBreakpoints(req: ModelRequest): LanguageModelV4Prompt {
  const messages = req.messages.map((m, i) =>
    i === req.messages.length - 1 ? { ...m, providerOptions: { ...m.providerOptions, ...CACHE } } : m,
  );
  return [{ role: 'system', content: req.system, providerOptions: CACHE }, ...messages] as LanguageModelV4Prompt;
}

/**
 * Anthropic marks a failed tool result with `is_error`; the OpenAI-style wires have no such flag,
 * and the AI SDK sends our error text there as `{"error":"…"}`, escaped onto one line. For them
 * the text goes as it is, prefixed `Error: `, so the model reads the message as written.
 */
function plainToolErrors(prompt: LanguageModelV4Prompt, provider: string): LanguageModelV4Prompt {
  if (provider.startsWith('anthropic')) return prompt;
  return prompt.map((m) =>
    m.role !== 'tool'
      ? m
      : {
          ...m,
          content: m.content.map((p) =>
            p.type === 'tool-result' && p.output.type === 'error-text'
              ? { ...p, output: { type: 'text' as const, value: `Error: ${p.output.value}` } }
              : p,
          ),
        },
  );
}

/**
 * One streamed model call through an AI SDK provider (LanguageModelV4.doStream).
 * Never throws: ends with `finish`, `error` (classified, maybe retryable) or `aborted`.
 */
export async function* streamOnce(
  model: LanguageModelV4,
  req: ModelRequest,
  signal: AbortSignal,
  opts: AttemptOptions,
): AsyncGenerator<StreamEvent> {
  if (signal.aborted) {
    yield { type: 'aborted' };
    return;
  }
  const inner = new AbortController();
  const onAbort = () => inner.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let stalled = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      inner.abort(new Error('stalled'));
    }, opts.idleTimeoutMs);
    timer.unref?.();
  };
  let finished = false;
  try {
    arm();
    const kind = opts.kind ?? model.provider;
    const thinking = thinkingCall(kind, req.thinking ?? opts.facts?.thinking, opts.facts);
    const base = plainToolErrors(withCacheBreakpoints(req), model.provider);
    const { stream } = await model.doStream({
      prompt: withoutForbiddenReasoning(imagesOutOfToolResults(opts.facts?.images === false ? withoutImages(base) : base, kind), kind),
      ...(thinking.reasoning ? { reasoning: thinking.reasoning } : {}),
      ...(thinking.providerOptions || opts.providerOptions
        ? { providerOptions: mergeOptions(opts.providerOptions, thinking.providerOptions) }
        : {}),
      tools: [
        ...req.tools.map((t) => ({
          type: 'function' as const,
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema as never,
        })),
        ...webSearchTool(kind, req.webSearch),
      ],
      toolChoice: req.tools.length || req.webSearch ? { type: 'auto' } : undefined,
      maxOutputTokens: req.maxOutputTokens,
      abortSignal: inner.signal,
    });
    const reader = stream.getReader();
    /** Tool calls whose input has started streaming and not yet been completed, by id. */
    const open = new Map<string, string>();
    for (;;) {
      arm();
      const { value, done } = await reader.read();
      if (done) break;
      const part = value as LanguageModelV4StreamPart;
      if (part.type === 'tool-input-start') open.set(part.id, part.toolName);
      if (part.type === 'tool-call') {
        open.delete(part.toolCallId);
        // Chat-style providers flush an unfinished call with its arguments cut short.
        try {
          JSON.parse(part.input || '{}');
        } catch {
          open.set(part.toolCallId, part.toolName);
        }
      }
      // The provider saw the body end with no final event: an incomplete response is a dropped
      // stream (SPEC §3), never an answer; whatever it held (a half-streamed call) is dropped by the retry.
      if (part.type === 'finish' && part.finishReason?.unified === 'interrupted') break;
      // Ollama's provider ends a body that never said `done` (a dropped stream, an error line) with
      // an unnamed reason and no usage: incomplete too.
      if (part.type === 'finish' && kind === 'ollama' && part.finishReason?.raw === undefined) break;
      const ev = mapPart(part, opts.body);
      if (!ev) continue;
      if (ev.type === 'finish') finished = true;
      yield ev;
      if (ev.type === 'error') {
        finished = true;
        await reader.cancel().catch(() => {});
        return;
      }
    }
    if (!finished) {
      const cutCall = [...open.values()][0];
      yield {
        type: 'error',
        error: { message: `${INCOMPLETE} (${cutCall ? `cut off in the middle of a ${cutCall} call` : 'no final event'})`, retryable: true },
      };
    }
  } catch (err) {
    if (stalled && !signal.aborted) {
      yield {
        type: 'error',
        error: { message: `no data from the model server for ${Math.round(opts.idleTimeoutMs / 1000)} s`, retryable: true },
      };
    } else if (isAbort(err, signal) && signal.aborted) {
      yield { type: 'aborted' };
    } else {
      yield { type: 'error', error: classifyError(err, opts.body?.()) };
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

export function mapPart(p: LanguageModelV4StreamPart, body?: () => string): StreamEvent | undefined {
  switch (p.type) {
    case 'text-delta':
      return p.delta ? { type: 'text', delta: p.delta } : undefined;
    case 'reasoning-start':
    case 'reasoning-end':
      return p.providerMetadata
        ? { type: 'reasoning', delta: '', id: p.id, meta: p.providerMetadata as Record<string, Record<string, unknown>> }
        : undefined;
    case 'reasoning-delta':
      return {
        type: 'reasoning',
        delta: p.delta,
        id: p.id,
        ...(p.providerMetadata ? { meta: p.providerMetadata as Record<string, Record<string, unknown>> } : {}),
      };
    // The provider ran it (web search): nothing for the loop to run; the answer's text carries what it found.
    case 'tool-call':
      return p.providerExecuted
        ? undefined
        : {
            type: 'tool-call',
            id: p.toolCallId,
            name: p.toolName,
            input: p.input,
            ...(p.providerMetadata ? { meta: p.providerMetadata as Record<string, Record<string, unknown>> } : {}),
          };
    case 'source':
      return p.sourceType === 'url' ? { type: 'source', url: p.url, ...(p.title ? { title: p.title } : {}) } : undefined;
    case 'tool-result':
      return p.isError ? { type: 'server-tool-error', name: p.toolName, message: serverToolError(p.result) } : undefined;
    case 'finish':
      return { type: 'finish', reason: p.finishReason?.unified ?? 'other', usage: toUsage(p.usage) };
    case 'error':
      return { type: 'error', error: classifyError(p.error, body?.()) };
    default:
      return undefined;
  }
}

/** Two sets of provider options, merged one level deep (per provider). */
function mergeOptions(a: SharedV4ProviderOptions | undefined, b: SharedV4ProviderOptions | undefined): SharedV4ProviderOptions {
  const out: SharedV4ProviderOptions = { ...a };
  for (const [k, v] of Object.entries(b ?? {})) out[k] = { ...out[k], ...v };
  return out;
}

/** What a provider's failed server tool said: Anthropic's `errorCode` (`max_uses_exceeded`, `unavailable`), else the result as text. */
function serverToolError(result: unknown): string {
  const r = result as { errorCode?: unknown; message?: unknown } | undefined;
  if (typeof r?.errorCode === 'string') return r.errorCode;
  if (typeof r?.message === 'string') return r.message;
  return typeof result === 'string' ? result : JSON.stringify(result);
}

/** Wire kinds whose provider runs a web search itself (SPEC §14): Anthropic, OpenAI Responses, Google. */
export function hasWebSearch(kind: string): boolean {
  return kind === 'anthropic' || kind === 'openai' || kind === 'google';
}

/** The provider's own web search tool for the request (WebSearch's side request), or none where the provider has none. */
function webSearchTool(kind: string, ws: ModelRequest['webSearch']) {
  if (!ws || !hasWebSearch(kind)) return [];
  if (kind === 'anthropic') {
    // The API takes one of the two lists, not both.
    const domains = ws.allowedDomains?.length
      ? { allowedDomains: ws.allowedDomains }
      : ws.blockedDomains?.length
        ? { blockedDomains: ws.blockedDomains }
        : {};
    return [
      { type: 'provider' as const, id: 'anthropic.web_search_20250305' as const, name: 'web_search', args: { maxUses: 5, ...domains } },
    ];
  }
  if (kind === 'openai')
    return [
      {
        type: 'provider' as const,
        id: 'openai.web_search' as const,
        name: 'web_search',
        args: ws.allowedDomains?.length ? { filters: { allowedDomains: ws.allowedDomains } } : {},
      },
    ];
  return [{ type: 'provider' as const, id: 'google.google_search' as const, name: 'google_search', args: {} }];
}
