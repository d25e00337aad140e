import { catalogueModels, lookupModel } from '../providers/catalogue.ts';
import { modelFactsLines } from '../providers/facts-text.ts';
import type { ModelHandle } from '../providers/types.ts';
import { reasoningOrigin } from '../providers/wire-prompt.ts';
import { estimateTokens } from '../session/compact.ts';
import type { Session } from './session.ts';
import type { Setup } from './setup.ts';

/** The providers this run can reach: a key or address in the environment (settings `env` included), and the current one. */
export function configuredProviders(env: NodeJS.ProcessEnv, current: string): string[] {
  const has = (...names: string[]) => names.some((n) => !!env[n]?.trim());
  const out: string[] = [];
  if (has('ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN')) out.push('anthropic');
  if (has('OPENAI_API_KEY')) out.push('openai');
  if (has('GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'GOOGLE_API_KEY')) out.push('google');
  if (has('OPENAI_COMPATIBLE_BASE_URL')) out.push('openai-compatible');
  if (has('OLLAMA_HOST')) out.push('ollama');
  if (!out.includes(current) && current !== 'replay') out.unshift(current);
  // The current provider first: its models are the likeliest choice.
  return [current, ...out.filter((p) => p !== current)].filter((p) => out.includes(p));
}

/** Ollama's pulled models (`/api/tags`), or none when it does not answer within a second. */
async function ollamaModels(env: NodeJS.ProcessEnv): Promise<string[]> {
  let host = env.OLLAMA_HOST?.trim() || '127.0.0.1:11434';
  if (!/^https?:\/\//.test(host)) host = `http://${host}`;
  try {
    const res = await fetch(`${host.replace(/\/+$/, '')}/api/tags`, { signal: AbortSignal.timeout(1000) });
    if (!res.ok) return [];
    return ((await res.json()) as { models?: Array<{ name: string }> }).models?.map((m) => m.name) ?? [];
  } catch {
    return [];
  }
}

/** A model the `/model` picker offers, with what the catalogue knows of it. */
export interface ModelOption {
  spec: string;
  current: boolean;
  contextWindow?: number;
  /** USD per million tokens, in and out. */
  price?: readonly [number, number, ...number[]];
}

/** The `/model` picker's models: each configured provider's (the catalogue's, Ollama's own list), the current one included. */
export async function modelOptions(setup: Setup, current: ModelHandle): Promise<ModelOption[]> {
  const env = { ...process.env, ...setup.env };
  const out: ModelOption[] = [];
  for (const provider of configuredProviders(env, current.provider)) {
    const ids = provider === 'ollama' ? await ollamaModels(env) : await catalogueModels(provider === 'openai-chat' ? 'openai' : provider);
    if (provider === current.provider && !ids.includes(current.model)) ids.unshift(current.model);
    for (const id of ids) {
      const e = await lookupModel(provider, id);
      const spec = `${provider}:${id}`;
      out.push({
        spec,
        current: spec === current.id || (provider === current.provider && id === current.model),
        ...(e ? { contextWindow: e.contextWindow, price: e.price } : {}),
      });
    }
  }
  return out;
}

/** What the switch from `before` to the session's model (`after`, just set) does to the conversation (the `/model` notice). */
export function switchFacts(
  session: Session,
  before: ModelHandle,
  after: ModelHandle,
): { conversationTokens: number; foreignReasoning: boolean; images: boolean } {
  const foreignReasoning =
    after.provider !== before.provider &&
    session.conversation.messages.some(
      (m) =>
        m.role === 'assistant' &&
        m.content.some((p) => p.type === 'reasoning' && (reasoningOrigin(p) ?? before.provider) !== after.provider),
    );
  const images = session.conversation.messages.some((m) => JSON.stringify(m.content).includes('"mediaType":"image/'));
  return {
    conversationTokens: session.conversation.messages.length ? estimateTokens(session.systemPrompt(), session.conversation.messages) : 0,
    foreignReasoning,
    images,
  };
}

/** What `/status` says about a model: its name, its context window and where that figure comes from (SPEC §11.14), then what the catalogue knows (price, limits…), as label and value. */
export function modelStatusRows(model: ModelHandle): Array<[string, string]> {
  return [
    ['Model', model.label],
    ['Context', `${model.contextWindow.toLocaleString('en-US')} tokens (from ${model.contextSource ?? 'the provider'})`],
    ...modelFactsLines(model).map(([k, v]): [string, string] => [`${k[0].toUpperCase()}${k.slice(1)}`, v]),
  ];
}
