import type { Setup } from '../agent/setup.ts';
import { setupModel } from '../agent/run-prompt.ts';
import { catalogueModels, lookupModel } from '../providers/catalogue.ts';
import type { ModelHandle } from '../providers/types.ts';
import { reasoningOrigin } from '../providers/wire-prompt.ts';
import { estimateTokens } from '../session/compact.ts';
import type { Controller } from './controller.ts';
import { formatTokens } from './format.ts';
import type { Choice } from './state.ts';

/** The picker's last option: a model named by hand (`/model provider:model` in the input). */
const OTHER = '\0other';

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
  } catch { return []; }
}

const usd = (n: number) => `$${Number(n.toFixed(2))}`;
const windowText = (n: number) => `${formatTokens(n).replace(/\.0(?=[kM])/, '')}`;

/** The picker's options: each configured provider's models (the catalogue's, Ollama's own list), then "Other…". */
async function modelChoices(setup: Setup, current: ModelHandle): Promise<Array<Choice<string>>> {
  const env = { ...process.env, ...setup.env };
  const out: Array<Choice<string>> = [];
  for (const provider of configuredProviders(env, current.provider)) {
    const ids = provider === 'ollama' ? await ollamaModels(env) : await catalogueModels(provider === 'openai-chat' ? 'openai' : provider);
    if (provider === current.provider && !ids.includes(current.model)) ids.unshift(current.model);
    for (const id of ids) {
      const e = await lookupModel(provider, id);
      const spec = `${provider}:${id}`;
      const hint = [spec === current.id || (provider === current.provider && id === current.model) ? 'current' : '', e ? `${windowText(e.contextWindow)} context` : '', e ? `${usd(e.price[0])}/${usd(e.price[1])} per Mtok` : ''].filter(Boolean).join(' · ');
      out.push({ label: spec, value: spec, ...(hint ? { hint } : {}) });
    }
  }
  out.push({ label: 'Other… (type /model provider:model)', value: OTHER });
  return out;
}

/** What a switch changes, in one notice: the model, its window, its price, and what happens to the conversation. */
function switchText(before: ModelHandle, after: ModelHandle, o: { conversationTokens: number; foreignReasoning: boolean; images: boolean }): string {
  const price = (m: ModelHandle) => (m.facts?.price ? `${usd(m.facts.price[0])} in, ${usd(m.facts.price[1])} out per million tokens` : 'not known (cost shows $0)');
  const lines = [`Model: ${before.label} → ${after.label}, for the rest of this session (/clear and /resume keep it).`];
  lines.push(before.contextWindow === after.contextWindow
    ? `Context window: ${windowText(after.contextWindow)} tokens, as before.`
    : `Context window: ${windowText(before.contextWindow)} → ${windowText(after.contextWindow)} tokens (from ${after.contextSource ?? 'the provider'}).`);
  const p0 = price(before);
  const p1 = price(after);
  lines.push(p0 === p1 ? `Price: ${p1}, as before.` : `Price: ${p0} → ${p1}.`);
  const conv = o.conversationTokens > 0 ? `The conversation (about ${formatTokens(o.conversationTokens)} tokens) goes on with it` : 'The conversation goes on with it';
  lines.push(`${conv}${o.foreignReasoning ? `; the earlier thinking stays with ${before.provider} and is not sent to ${after.provider}` : ''}.`);
  if (o.conversationTokens > 0.8 * after.contextWindow) lines.push(`It is larger than 80% of the new window: it will be compacted before the next request.`);
  if (o.images && after.facts?.images === false) lines.push('This model takes no images: earlier images are sent as a note that they were there.');
  return lines.join('\n');
}

/** `/model [spec]`: a picker without a spec; with one (or once chosen), the switch. */
export async function modelCommand(ctrl: Controller, args: string): Promise<void> {
  const current = ctrl.session.model;
  let spec: string | undefined = args.trim() || undefined;
  if (!spec) {
    const options = await modelChoices(ctrl.setup, current);
    const initial = Math.max(0, options.findIndex((o) => o.hint?.startsWith('current')));
    spec = await ctrl.choose('Switch to which model?', options, `Now: ${current.label}. The conversation is kept.`, { initial });
    if (spec === OTHER) { ctrl.setInput('/model '); return; }
    if (!spec) { ctrl.notice('info', `Kept ${current.label}.`); return; }
  }
  await switchModel(ctrl, spec);
}

/** Sets the session's model to `spec` from the next request on; says what changed. Nothing changes when it cannot be set up. */
async function switchModel(ctrl: Controller, spec: string): Promise<void> {
  const before = ctrl.session.model;
  const got = await setupModel(ctrl.setup, spec);
  if ('error' in got) { ctrl.notice('error', `The model "${spec}" cannot be used: ${got.error} Still ${before.label}.`); return; }
  const after = got.model;
  if (after.id === before.id) { ctrl.notice('info', `Already ${before.label}.`); return; }
  const s = ctrl.session;
  const foreignReasoning = after.provider !== before.provider && s.messages.some((m) => m.role === 'assistant' && m.content.some((p) => p.type === 'reasoning' && (reasoningOrigin(p) ?? before.provider) !== after.provider));
  const images = s.messages.some((m) => JSON.stringify(m.content).includes('"mediaType":"image/'));
  s.setModel(after);
  ctrl.updateSetup({ opts: { ...ctrl.setup.opts, model: spec } }); // /clear and /resume open their session with it
  ctrl.store.update((st) => ({ ...st, model: after.label, context: { ...st.context, window: after.contextWindow } }));
  ctrl.notice('success', switchText(before, after, { conversationTokens: s.messages.length ? estimateTokens(s.systemPrompt(), s.messages) : 0, foreignReasoning, images }));
}
