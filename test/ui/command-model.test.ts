import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, shown } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const COMMANDS = {
  '.assistant/commands/quick.md': '---\ndescription: a quick answer\nmodel: anthropic:claude-haiku-4-5\n---\nAnswer briefly: $ARGUMENTS\n',
  '.assistant/commands/broken.md': '---\nmodel: nosuchprovider:x\n---\nHello\n',
};

test("a custom command's model: answers that one turn; the session's model answers the next", async () => {
  model.reset();
  let footerDuringTurn = '';
  model.script(() => {
    footerDuringTurn = ctrl.store.get().model;
    return reply('Brief.');
  }, reply('Long answer.'));
  const { ctrl } = await openCtrl(model, COMMANDS);
  await ctrl.submit('/quick what is 2+2');
  assert.equal(model.requests[0].body.model, 'claude-haiku-4-5');
  assert.match(JSON.stringify(model.requests[0].body.messages), /Answer briefly: what is 2\+2/);
  assert.equal(footerDuringTurn, 'anthropic:claude-haiku-4-5', 'the footer names the model answering');
  assert.equal(ctrl.store.get().model, 'anthropic:claude-sonnet-4-5', "and the session's again afterwards");
  assert.doesNotMatch(shown(ctrl), /keeps/, 'no warning that the model is ignored');

  await ctrl.submit('and in detail?');
  assert.equal(model.requests[1].body.model, 'claude-sonnet-4-5');
  assert.equal(ctrl.session.model.label, 'anthropic:claude-sonnet-4-5');
  assert.match(JSON.stringify(model.requests[1].body.messages), /Brief\./, 'the same conversation continues');
  await ctrl.exit();
});

test('a command whose model cannot be set up sends nothing and says why', async () => {
  model.reset();
  const { ctrl } = await openCtrl(model, COMMANDS);
  await ctrl.submit('/broken');
  assert.equal(model.requests.length, 0);
  assert.match(shown(ctrl), /\/broken: its model "nosuchprovider:x" cannot be used: Unknown provider "nosuchprovider".*Nothing was sent\./);
  assert.equal(ctrl.busy, false);
  await ctrl.exit();
});
