import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, hang, userTexts, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, until } from './helpers.ts';

// Issue 20 items 5, 12, 13: what the terminal UI keeps across /clear, an interrupt, a resume.

let model: FakeModel;
before(async () => { model = await startFakeModel(); });
after(async () => { await model.close(); });

test('/clear keeps the permission mode (Shift+Tab to plan, /clear: still plan, for the session too)', async () => {
  model.reset();
  const { ctrl } = await openCtrl(model);
  ctrl.cycleMode();
  ctrl.cycleMode();
  assert.equal(ctrl.session.mode, 'plan');
  const before = ctrl.session.id;
  await ctrl.submit('/clear');
  assert.notEqual(ctrl.session.id, before, 'a new conversation');
  assert.equal(ctrl.session.mode, 'plan');
  assert.equal(ctrl.store.get().mode, 'plan');
  await ctrl.exit();
});

test('Esc after a prompt was queued during the answer: the queued prompt is sent, not dropped', async () => {
  model.reset();
  model.script(hang(), reply('Doing the other thing.'));
  const { ctrl } = await openCtrl(model);
  const run = ctrl.submit('first thing');
  await until(() => model.requests.length === 1);
  await ctrl.submit('no, the other thing');
  assert.match(ctrl.store.get().hint ?? '', /Queued: no, the other thing/);
  ctrl.interrupt();
  await run;
  await until(() => ctrl.store.get().history.some((i) => i.kind === 'assistant' && i.text === 'Doing the other thing.'));
  assert.equal(model.requests.length, 2);
  assert.match(userTexts(model.requests[1]).at(-1) ?? '', /no, the other thing$/);
  const users = ctrl.store.get().history.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text);
  assert.deepEqual(users, ['first thing', 'no, the other thing']);
  await ctrl.exit();
});
