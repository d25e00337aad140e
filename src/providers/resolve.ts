import type { LanguageModelV4 } from '@ai-sdk/provider';
import { streamOnce } from './ai-sdk-stream.ts';
import { bodyTap } from './body-tap.ts';
import { DEFAULT_MODELS, lookupModel, MAX_OUTPUT_CAP, UNKNOWN_MAX_OUTPUT } from './catalogue.ts';
import { askOllamaShow, contextWindow, type OllamaShow } from './context-window.ts';
import { ollamaFetch } from './ollama-fetch.ts';
import { useProxyFromEnv } from './proxy.ts';
import { loadReplay, replayModel, ReplayFileError } from './replay.ts';
import { retryPolicyFromEnv, withRetries } from './retry.ts';
import type { ModelFacts, ModelHandle, ThinkingLevel } from './types.ts';

/** A model that cannot be set up: the CLI exits 2 with this message. */
class ModelConfigError extends Error {
  readonly exitCode = 2;
}

const PROVIDERS = ['anthropic', 'openai', 'openai-chat', 'openai-compatible', 'google', 'ollama', 'replay'] as const;

const HOW_TO_CONFIGURE = `No model is configured. Do one of these:
  export ANTHROPIC_API_KEY=sk-ant-…      (Anthropic; ANTHROPIC_BASE_URL for a proxy)
  export OPENAI_API_KEY=sk-…             (OpenAI; OPENAI_BASE_URL for a proxy or compatible server)
  export GEMINI_API_KEY=…                (Google Gemini)
  start Ollama (ollama serve; OLLAMA_HOST if it is not on 127.0.0.1:11434) and pull a model
or name one explicitly: assistant --model anthropic:claude-sonnet-4-5 | openai:gpt-5 | ollama:qwen3-coder
  | openai-compatible:MODEL (with OPENAI_COMPATIBLE_BASE_URL) | replay:examples/demo-replay.json
or set "model" in .assistant/settings.json.`;

export interface ResolveOptions {
  /** `--model`, else settings `model`. */
  spec?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Settings `modelContextWindow`: the window of a model neither the catalogue nor its server knows (SPEC §11.14). */
  contextWindow?: number;
  /** `--thinking`, else settings `thinking`. */
  thinking?: ThinkingLevel;
  /** Settings `ollamaMaxContext`: the most `num_ctx` asked of Ollama. */
  ollamaMaxContext?: number;
}

function inferProvider(model: string): string | undefined {
  if (/^claude/.test(model)) return 'anthropic';
  if (/^(gpt|o\d|codex)/.test(model)) return 'openai';
  if (/^gemini/.test(model)) return 'google';
  return undefined;
}

/** Claude Code's model aliases. */
const ALIASES: Record<string, string> = {
  sonnet: 'anthropic:claude-sonnet-4-5',
  opus: 'anthropic:claude-opus-4-5',
  haiku: 'anthropic:claude-haiku-4-5',
};

function splitSpec(raw: string): { provider: string; model: string } {
  const spec = ALIASES[raw] ?? raw;
  const i = spec.indexOf(':');
  if (i <= 0) {
    const provider = inferProvider(spec);
    if (!provider)
      throw new ModelConfigError(
        `model "${spec}" (from --model or settings "model"): say which provider serves it, as PROVIDER:MODEL (providers: ${PROVIDERS.join(', ')}; aliases: sonnet, opus, haiku).`,
      );
    return { provider, model: spec };
  }
  const provider = spec.slice(0, i) === 'gemini' ? 'google' : spec.slice(0, i);
  return { provider, model: spec.slice(i + 1) };
}

/** Anthropic's convention is a base URL without /v1 (SPEC §11.10); a trailing /v1 is accepted too. */
export function anthropicBaseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const u = raw.replace(/\/+$/, '');
  return u.endsWith('/v1') ? u : `${u}/v1`;
}

function ollamaBase(env: NodeJS.ProcessEnv): string {
  let host = env.OLLAMA_HOST?.trim() || '127.0.0.1:11434';
  if (!/^https?:\/\//.test(host)) host = `http://${host}`;
  return host.replace(/\/+$/, '');
}

function need(env: NodeJS.ProcessEnv, name: string, provider: string, alternatives: string[] = []): string {
  for (const n of [name, ...alternatives]) if (env[n]) return env[n] as string;
  throw new ModelConfigError(`The ${provider} provider needs an API key: export ${name}=… (or choose another model with --model).`);
}

async function languageModel(
  provider: string,
  model: string,
  env: NodeJS.ProcessEnv,
  fetch: typeof globalThis.fetch,
): Promise<LanguageModelV4> {
  // The AI SDK's modules build a default provider from process.env when they load, and an empty
  // base URL there throws; an empty variable means unset, as in the vendors' own SDKs.
  for (const k of ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL'])
    if (process.env[k] !== undefined && !process.env[k]!.trim()) delete process.env[k];
  switch (provider) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      // An empty variable counts as unset, as in the vendors' SDKs (the AI SDK would read it itself).
      const custom = anthropicBaseUrl(env.ANTHROPIC_BASE_URL?.trim());
      const baseURL = custom ?? 'https://api.anthropic.com/v1';
      // ANTHROPIC_AUTH_TOKEN (a Bearer token, for gateways) as in Claude Code; the key wins when both are set.
      if (!env.ANTHROPIC_API_KEY && env.ANTHROPIC_AUTH_TOKEN)
        return createAnthropic({ authToken: env.ANTHROPIC_AUTH_TOKEN, baseURL, fetch })(model) as LanguageModelV4;
      const apiKey = env.ANTHROPIC_API_KEY || (custom ? 'none' : need(env, 'ANTHROPIC_API_KEY', 'anthropic'));
      return createAnthropic({ apiKey, baseURL, fetch })(model) as LanguageModelV4;
    }
    case 'openai':
    case 'openai-chat': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const custom = env.OPENAI_BASE_URL?.trim().replace(/\/+$/, '') || undefined;
      const apiKey = env.OPENAI_API_KEY || (custom ? 'none' : need(env, 'OPENAI_API_KEY', 'openai'));
      const p = createOpenAI({ apiKey, baseURL: custom ?? 'https://api.openai.com/v1', fetch });
      return (provider === 'openai' ? p.responses(model) : p.chat(model)) as LanguageModelV4;
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      const apiKey = need(env, 'GEMINI_API_KEY', 'google', ['GOOGLE_GENERATIVE_AI_API_KEY', 'GOOGLE_API_KEY']);
      return createGoogleGenerativeAI({ apiKey, baseURL: env.GOOGLE_GEMINI_BASE_URL || undefined, fetch })(model) as LanguageModelV4;
    }
    case 'ollama': {
      // Ollama's own /api/chat, not its OpenAI-compatible /v1: only the native API takes num_ctx.
      const { createOllama } = await import('ollama-ai-provider-v2');
      return createOllama({ baseURL: `${ollamaBase(env)}/api`, fetch: ollamaFetch(fetch) })(model) as LanguageModelV4;
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const baseURL = env.OPENAI_COMPATIBLE_BASE_URL || env.OPENAI_BASE_URL;
      if (!baseURL)
        throw new ModelConfigError(
          `openai-compatible:${model} needs the server's address: export OPENAI_COMPATIBLE_BASE_URL=http://host:port/v1`,
        );
      const apiKey = env.OPENAI_COMPATIBLE_API_KEY || env.OPENAI_API_KEY;
      return createOpenAICompatible({ name: provider, baseURL: baseURL.replace(/\/+$/, ''), apiKey, includeUsage: true, fetch })(
        model,
      ) as LanguageModelV4;
    }
    default:
      throw new ModelConfigError(`Unknown provider "${provider}". Known providers: ${PROVIDERS.join(', ')}.`);
  }
}

async function firstOllamaModel(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const res = await fetch(`${ollamaBase(env)}/api/tags`, { signal: AbortSignal.timeout(400) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { models?: Array<{ name: string }> };
    return body.models?.[0]?.name;
  } catch {
    return undefined;
  }
}

/**
 * V8 optimises hot WebAssembly (the shell grammar, fetch's HTTP parser where fetch is used) at a
 * cost of tens to hundreds of MiB for no gain at our sizes. A flag change makes Node's code cache
 * miss for built-ins loaded afterwards (bench/README.md); fetch's client (undici) is no longer one
 * of them in a plain session (the model requests go out on node:http, http-post.ts), and loading
 * it here only to keep its cache would cost 17 MiB; where it loads later (a proxy, the web tools)
 * it compiles once without the cache.
 */
function keepWasmOnBaselineTier(): void {
  (process.getBuiltinModule?.('node:v8') as typeof import('node:v8') | undefined)?.setFlagsFromString('--wasm-tiering-budget=1000000000');
}

/** Chooses and sets up the model: the explicit spec, else the first provider with a key, else Ollama. */
export async function resolveModel(opts: ResolveOptions): Promise<ModelHandle> {
  const { env } = opts;
  let spec = opts.spec;
  if (!spec?.startsWith('replay:')) await useProxyFromEnv(env);
  if (!spec) {
    // A key, a token, or a base URL (a local proxy may need no key) names the provider.
    if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN) spec = `anthropic:${DEFAULT_MODELS.anthropic}`;
    else if (env.OPENAI_API_KEY) spec = `openai:${DEFAULT_MODELS.openai}`;
    else if (env.GEMINI_API_KEY || env.GOOGLE_GENERATIVE_AI_API_KEY) spec = `google:${DEFAULT_MODELS.google}`;
    else if (env.ANTHROPIC_BASE_URL?.trim()) spec = `anthropic:${DEFAULT_MODELS.anthropic}`;
    else if (env.OPENAI_BASE_URL?.trim()) spec = `openai:${DEFAULT_MODELS.openai}`;
    else {
      const m = await firstOllamaModel(env);
      if (!m) throw new ModelConfigError(HOW_TO_CONFIGURE);
      spec = `ollama:${m}`;
    }
  }
  const { provider, model } = splitSpec(spec);
  if (!model) throw new ModelConfigError(`--model "${spec}" names no model after the provider.`);
  if (provider === 'replay') {
    try {
      const { resolve } = await import('node:path');
      return replayModel(model, loadReplay(resolve(opts.cwd, model)));
    } catch (e) {
      if (e instanceof ReplayFileError) throw new ModelConfigError(e.message);
      throw e;
    }
  }
  const tap = bodyTap(4096, env);
  const [lm, known, show] = await Promise.all([
    languageModel(provider, model, env, tap.fetch),
    lookupModel(provider, model),
    provider === 'ollama' ? askOllamaShow(ollamaBase(env), model) : undefined,
  ]);
  keepWasmOnBaselineTier();
  const window = await contextWindow({
    provider,
    model,
    setting: opts.contextWindow,
    catalogue: known?.contextWindow,
    ollama: show,
    ollamaCap: opts.ollamaMaxContext,
    baseURL: provider === 'ollama' ? ollamaBase(env) : (env.OPENAI_COMPATIBLE_BASE_URL || env.OPENAI_BASE_URL)?.trim().replace(/\/+$/, ''),
    apiKey: env.OPENAI_COMPATIBLE_API_KEY || env.OPENAI_API_KEY,
  });
  const facts = modelFacts(known, show, opts.thinking);
  const policy = retryPolicyFromEnv(env);
  const idleTimeoutMs = Number(env.ASSISTANT_STREAM_IDLE_TIMEOUT_MS) || 300_000;
  // Every Ollama request carries the window it was given, or Ollama cuts the prompt to its default (SPEC §11.14).
  const providerOptions = provider === 'ollama' ? { ollama: { options: { num_ctx: window.tokens } } } : undefined;
  return {
    id: `${provider}:${model}`,
    provider,
    model,
    label: `${provider}:${model}`,
    contextWindow: window.tokens,
    contextSource: window.source,
    facts,
    stream: (req, signal) =>
      withRetries(
        () =>
          streamOnce(lm, { ...req, maxOutputTokens: req.maxOutputTokens ?? facts.maxOutputTokens }, signal, {
            idleTimeoutMs,
            body: tap.head,
            kind: provider,
            facts,
            providerOptions,
          }),
        policy,
        signal,
      ),
  };
}

/** What the catalogue, else Ollama's /api/show, says of the model. Unknown stays unknown (undefined), never guessed. */
function modelFacts(
  known: Awaited<ReturnType<typeof lookupModel>>,
  show: OllamaShow | null | undefined,
  thinking: ThinkingLevel | undefined,
): ModelFacts {
  if (known) {
    return {
      price: known.price,
      images: known.images,
      reasoning: known.reasoning,
      thinking,
      maxOutputTokens: Math.min(known.maxOutputTokens || UNKNOWN_MAX_OUTPUT, MAX_OUTPUT_CAP),
      source: `the model catalogue (models.dev; ${known.foundAs})`,
    };
  }
  const caps = show?.capabilities;
  return {
    images: caps ? caps.includes('vision') : undefined,
    reasoning: caps ? caps.includes('thinking') : undefined,
    thinking,
    maxOutputTokens: UNKNOWN_MAX_OUTPUT,
    ...(caps ? { source: "Ollama's /api/show" } : {}),
  };
}
