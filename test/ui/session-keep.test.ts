import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl } from './helpers.ts';

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
