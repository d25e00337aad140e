import { modelOptions, switchFacts } from '../agent/model-choices.ts';
import { setupModel } from '../agent/run-prompt.ts';
import type { Setup } from '../agent/setup.ts';
import type { ModelHandle } from '../providers/types.ts';
import type { Controller } from './controller.ts';
import { formatTokens } from './format.ts';
import type { Choice } from './state.ts';

/** The picker's last option: a model named by hand (`/model provider:model` in the input). */
const OTHER = '\0other';

const usd = (n: number) => `$${Number(n.toFixed(2))}`;
const windowText = (n: number) => `${formatTokens(n).replace(/\.0(?=[kM])/, '')}`;

/** The picker's options: each configured provider's models (agent/model-choices.ts), then "Other…". */
async function modelChoices(setup: Setup, current: ModelHandle): Promise<Array<Choice<string>>> {
  const out: Array<Choice<string>> = [];
  for (const o of await modelOptions(setup, current)) {
    const hint = [
      o.current ? 'current' : '',
      o.contextWindow !== undefined ? `${windowText(o.contextWindow)} context` : '',
      o.price ? `${usd(o.price[0])}/${usd(o.price[1])} per Mtok` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    out.push({ label: o.spec, value: o.spec, ...(hint ? { hint } : {}) });
  }
  out.push({ label: 'Other… (type /model provider:model)', value: OTHER });
  return out;
}

/** What a switch changes, in one notice: the model, its window, its price, and what happens to the conversation. */
function switchText(
  before: ModelHandle,
  after: ModelHandle,
  o: { conversationTokens: number; foreignReasoning: boolean; images: boolean },
): string {
  const price = (m: ModelHandle) =>
    m.facts?.price ? `${usd(m.facts.price[0])} in, ${usd(m.facts.price[1])} out per million tokens` : 'not known (cost shows $0)';
  const lines = [`Model: ${before.label} → ${after.label}, for the rest of this session (/clear and /resume keep it).`];
  lines.push(
    before.contextWindow === after.contextWindow
      ? `Context window: ${windowText(after.contextWindow)} tokens, as before.`
      : `Context window: ${windowText(before.contextWindow)} → ${windowText(after.contextWindow)} tokens (from ${after.contextSource ?? 'the provider'}).`,
  );
  const p0 = price(before);
  const p1 = price(after);
  lines.push(p0 === p1 ? `Price: ${p1}, as before.` : `Price: ${p0} → ${p1}.`);
  const conv =
    o.conversationTokens > 0
      ? `The conversation (about ${formatTokens(o.conversationTokens)} tokens) goes on with it`
      : 'The conversation goes on with it';
  lines.push(
    `${conv}${o.foreignReasoning ? `; the earlier thinking stays with ${before.provider} and is not sent to ${after.provider}` : ''}.`,
  );
  if (o.conversationTokens > 0.8 * after.contextWindow)
    lines.push(`It is larger than 80% of the new window: it will be compacted before the next request.`);
  if (o.images && after.facts?.images === false)
    lines.push('This model takes no images: earlier images are sent as a note that they were there.');
  return lines.join('\n');
}

/** `/model [spec]`: a picker without a spec; with one (or once chosen), the switch. */
export async function modelCommand(ctrl: Controller, args: string): Promise<void> {
  const current = ctrl.session.model;
  let spec: string | undefined = args.trim() || undefined;
  if (!spec) {
    const options = await modelChoices(ctrl.setup, current);
    const initial = Math.max(
      0,
      options.findIndex((o) => o.hint?.startsWith('current')),
    );
    spec = await ctrl.choose('Switch to which model?', options, `Now: ${current.label}. The conversation is kept.`, { initial });
    if (spec === OTHER) {
      ctrl.setInput('/model ');
      return;
    }
    if (!spec) {
      ctrl.notice('info', `Kept ${current.label}.`);
      return;
    }
  }
  await switchModel(ctrl, spec);
}

/** Sets the session's model to `spec` from the next request on; says what changed. Nothing changes when it cannot be set up. */
async function switchModel(ctrl: Controller, spec: string): Promise<void> {
  const before = ctrl.session.model;
  const got = await setupModel(ctrl.setup, spec);
  if ('error' in got) {
    ctrl.notice('error', `The model "${spec}" cannot be used: ${got.error} Still ${before.label}.`);
    return;
  }
  const after = got.model;
  if (after.id === before.id) {
    ctrl.notice('info', `Already ${before.label}.`);
    return;
  }
  const s = ctrl.session;
  s.setModel(after);
  ctrl.updateSetup({ opts: { ...ctrl.setup.opts, model: spec } }); // /clear and /resume open their session with it
  ctrl.store.update((st) => ({ ...st, model: after.label, context: { ...st.context, window: after.contextWindow } }));
  ctrl.notice('success', switchText(before, after, switchFacts(s, before, after)));
}
