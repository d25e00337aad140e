import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, hang, userTexts, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, until } from './helpers.ts';
import { pastesBehind } from '../../src/ui/pastes.ts';
import type { Controller } from '../../src/ui/controller.ts';

// Issue 20 items 5, 12, 13: what the terminal UI keeps across /clear, an interrupt, a resume.

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('/clear keeps the permission mode (Shift+Tab to plan, /clear: still plan, for the session too)', async () => {
  model.reset();
  const { ctrl } = await openCtrl(model);
  ctrl.cycleMode();
  ctrl.cycleMode();
  assert.equal(ctrl.session.gate.mode, 'plan');
  const before = ctrl.session.id;
  await ctrl.submit('/clear');
  assert.notEqual(ctrl.session.id, before, 'a new conversation');
  assert.equal(ctrl.session.gate.mode, 'plan');
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
  const users = ctrl.store
    .get()
    .history.filter((i) => i.kind === 'user')
    .map((i) => (i as { text: string }).text);
  assert.deepEqual(users, ['first thing', 'no, the other thing']);
  await ctrl.exit();
});

/** The history as a comparable list: what each item shows (ids and results' bodies aside). */
const view = (ctrl: Controller) =>
  ctrl.store
    .get()
    .history.filter((i) => i.kind !== 'banner')
    .map((i) => {
      const { id: _, cont, ...rest } = i as Record<string, unknown>;
      if (cont) rest.cont = cont;
      if (rest.kind === 'tool')
        return {
          kind: 'tool',
          name: rest.name,
          status: rest.status,
          durationMs: rest.durationMs,
          output: (rest.result as { output?: string } | undefined)?.output,
        };
      return rest;
    });

test('-c redraws the conversation as it was shown: a paste as its mark, tool times, the interrupted marker, context and cost', async () => {
  model.reset();
  const paste = Array.from({ length: 12 }, (_, i) => `row ${i}`).join('\n');
  model.script(reply('Looking.').tool('Bash', { command: 'echo hi' }), reply('All fine.'), hang());
  const { ctrl, dir, home } = await openCtrl(model, {}, 'bypass');
  await ctrl.submit(`check this\n${paste}`, 'check this\n[Pasted text #1 +12 lines]');
  const run = ctrl.submit('and now something slow');
  await until(() => model.requests.length === 3);
  ctrl.interrupt();
  await run;
  const live = ctrl.store.get();
  const shownLive = view(ctrl);
  assert.ok(shownLive.some((i) => i.kind === 'notice' && /Interrupted/.test(String(i.text))));
  assert.ok(live.costUsd > 0 && live.context.used > 0);
  const id = ctrl.session.id;
  const path = ctrl.session.conversation.transcript.path;
  await ctrl.exit();

  const again = await openCtrl(model, {}, 'bypass', { dir, home, resume: { sessionId: id, path } });
  const r = again.ctrl.store.get();
  assert.deepEqual(view(again.ctrl), shownLive);
  assert.equal(r.context.used, live.context.used);
  assert.equal(r.costUsd, live.costUsd);
  await again.ctrl.exit();
});

test("the pastes behind a prompt's marks are found again in the prompt as sent", () => {
  assert.deepEqual(
    pastesBehind('look [Pasted text #1 +3 lines] and [Pasted text #2 2500 characters]!', 'look a\nb\nc and xyz!'),
    new Map([
      [1, 'a\nb\nc'],
      [2, 'xyz'],
    ]),
  );
  assert.equal(pastesBehind('no marks', 'no marks'), undefined);
  assert.equal(pastesBehind('x [Pasted text #1 +3 lines]', 'y other'), undefined);
  assert.equal(pastesBehind('a.b [Pasted text #1 +3 lines]', 'aXb q'), undefined, 'the text around the marks is literal');
});

test('/rewind puts a pasted prompt back in the input as its mark, with the paste behind it', async () => {
  model.reset();
  model.script(reply('Seen.'));
  const { ctrl } = await openCtrl(model);
  const paste = Array.from({ length: 12 }, (_, i) => `row ${i}`).join('\n');
  await ctrl.submit(`check ${paste}`, 'check [Pasted text #1 +12 lines]');
  ctrl.rewindConversation(0, `check ${paste}`);
  const d = ctrl.store.get().draft;
  assert.equal(d?.text, 'check [Pasted text #1 +12 lines]');
  assert.deepEqual(d?.pastes, new Map([[1, paste]]));
  await ctrl.exit();
});
