import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, pick, shown, until } from './helpers.ts';
import { withoutForbiddenReasoning, markReasoningOrigin } from '../../src/providers/wire-prompt.ts';
import { configuredProviders } from '../../src/agent/model-choices.ts';
import type { Message } from '../../src/providers/types.ts';

// Issue 17 item 3: /model in the terminal UI.

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const withOpenAI = async () => {
  const o = await openCtrl(model);
  o.ctrl.updateSetup({ env: { ...o.ctrl.setup.env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl } });
  return o;
};

test('/model PROVIDER:MODEL switches mid-session: the next request goes to it with the conversation, and the notice says what changed', async () => {
  model.reset();
  model.script(reply().thinking('pondering the greeting').text('First answer.'), reply('Second answer.'));
  const { ctrl } = await withOpenAI();
  await ctrl.submit('hello');
  assert.equal(model.requests[0].format, 'anthropic');
  const costBefore = ctrl.totalCostUsd;
  assert.ok(costBefore > 0);
  await ctrl.submit('/model openai:gpt-5');
  assert.equal(ctrl.session.model.id, 'openai:gpt-5');
  assert.equal(ctrl.store.get().model, 'openai:gpt-5');
  assert.equal(ctrl.store.get().context.window, ctrl.session.model.contextWindow);
  const note = shown(ctrl);
  assert.match(note, /Model: anthropic:claude-sonnet-4-5 → openai:gpt-5/);
  assert.match(note, /Context window: 200k → 400k tokens/);
  assert.match(note, /Price: \$3 in, \$15 out per million tokens → \$1\.25 in, \$10 out per million tokens/);
  assert.match(note, /the earlier thinking stays with anthropic and is not sent to openai/);
  assert.equal(ctrl.totalCostUsd, costBefore, 'what was spent keeps its price');

  await ctrl.submit('and again');
  const r = model.requests[1];
  assert.equal(r.format, 'openai-responses');
  assert.equal(r.body.model, 'gpt-5');
  const sent = JSON.stringify(r.body.input);
  assert.match(sent, /hello/);
  assert.match(sent, /First answer\./);
  assert.match(sent, /and again/);
  assert.doesNotMatch(sent, /pondering/, "Anthropic's thinking is not sent to OpenAI");
  assert.ok(!r.body.input.some((i: { type?: string }) => i.type === 'reasoning'));
  await ctrl.exit();
});

test("/model without a name: a picker of the configured providers' models; the choice answers next", async () => {
  model.reset();
  model.script(reply('Mini here.'));
  const { ctrl } = await withOpenAI();
  const done = ctrl.submit('/model');
  const q = await until(() => {
    const x = ctrl.store.get().question;
    return x?.kind === 'select' ? x : undefined;
  });
  if (q.kind !== 'select') return;
  const labels = q.options.map((o) => o.label);
  assert.ok(labels.includes('anthropic:claude-sonnet-4-5') && labels.includes('openai:gpt-5-mini'));
  assert.ok(!labels.some((l) => l.startsWith('google:')), 'only configured providers');
  assert.ok(!labels.includes('anthropic:claude-sonnet-4-5-20250929'), 'no dated snapshots');
  assert.equal(q.options[q.initial ?? 0].label, 'anthropic:claude-sonnet-4-5', 'starts on the current model');
  assert.match(q.options[q.initial ?? 0].hint ?? '', /current · 200k context · \$3\/\$15 per Mtok/);
  assert.match(labels.at(-1) ?? '', /Other…/);
  await pick(ctrl, /Switch to which model/, /^openai:gpt-5-mini$/);
  await done;
  await ctrl.submit('hi');
  assert.equal(model.requests[0].body.model, 'gpt-5-mini');
  await ctrl.exit();
});

test('/model: "Other…" puts /model in the input to type a name; a name that cannot be set up changes nothing', async () => {
  model.reset();
  const { ctrl } = await withOpenAI();
  const done = ctrl.submit('/model');
  await pick(ctrl, /Switch to which model/, /Other…/);
  await done;
  assert.equal(ctrl.store.get().draft?.text, '/model ');
  await ctrl.submit('/model anthropic:claude-sonnet-4-5');
  assert.match(shown(ctrl), /Already anthropic:claude-sonnet-4-5\./);
  await ctrl.submit('/model nosuch:thing');
  assert.match(shown(ctrl), /The model "nosuch:thing" cannot be used: .*Still anthropic:claude-sonnet-4-5\./);
  assert.equal(ctrl.session.model.id, 'anthropic:claude-sonnet-4-5');
  await ctrl.exit();
});

test('/clear after a switch keeps the new model', async () => {
  model.reset();
  const { ctrl } = await withOpenAI();
  await ctrl.submit('/model openai:gpt-5');
  await ctrl.submit('/clear');
  assert.equal(ctrl.session.model.id, 'openai:gpt-5');
  await ctrl.exit();
});

test('reasoning goes back only to the provider that produced it', () => {
  const m: Message = {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'a' },
      { type: 'text', text: 'b' },
    ],
  };
  markReasoningOrigin(m, 'anthropic');
  const signedOpenAI: Message = {
    role: 'assistant',
    content: [{ type: 'reasoning', text: 'c', providerOptions: { openai: { itemId: 'x' } } }],
  };
  const unmarked: Message = { role: 'assistant', content: [{ type: 'reasoning', text: 'd' }] };
  const kinds = (p: Message[]) => p.map((x) => (x.content as Array<{ type: string; text?: string }>).map((c) => c.text).join(''));
  assert.deepEqual(kinds(withoutForbiddenReasoning([m, signedOpenAI, unmarked], 'anthropic')), ['ab', '', 'd']);
  assert.deepEqual(kinds(withoutForbiddenReasoning([m, signedOpenAI, unmarked], 'openai')), ['b', 'c', 'd']);
  assert.deepEqual(kinds(withoutForbiddenReasoning([m, signedOpenAI, unmarked], 'openai-chat')), ['b', '', '']);
});

test('configured providers: a key or address in the environment, the current one first', () => {
  assert.deepEqual(configuredProviders({ OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'g' }, 'anthropic'), ['anthropic', 'openai', 'google']);
  assert.deepEqual(configuredProviders({ ANTHROPIC_API_KEY: 'k', OLLAMA_HOST: 'h:1' }, 'ollama'), ['ollama', 'anthropic']);
  assert.deepEqual(configuredProviders({ ANTHROPIC_API_KEY: 'k' }, 'replay'), ['anthropic']);
});
