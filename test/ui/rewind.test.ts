import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, userTexts, type FakeModel } from '../fakes/model-server.ts';
import type { Question } from '../../src/ui/state.ts';
import { openCtrl, pick, shown, until } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const options = (q: Question | undefined) =>
  q?.kind === 'select' ? q.options.map((o) => `${o.label}${o.hint ? ` [${o.hint}]` : ''}`) : [];

test('/rewind: code only, conversation only (the prompt comes back in the input), and rewound prompts offer code only', async () => {
  model.reset();
  model.script(
    reply().tool('Write', { file_path: 'a.txt', content: 'a\n' }),
    reply('Created a.'),
    reply().tool('Write', { file_path: 'b.txt', content: 'b\n' }),
    reply('Created b.'),
    reply('Starting over.'),
  );
  const { ctrl, dir } = await openCtrl(model, {}, 'bypass');
  await ctrl.submit('create a');
  await ctrl.submit('create b');
  const users = () =>
    ctrl.store
      .get()
      .history.filter((i) => i.kind === 'user')
      .map((i) => (i as { text: string }).text);

  // Code only: b.txt goes, the conversation stays.
  const run1 = ctrl.submit('/rewind');
  const list = await until(() => ctrl.store.get().question);
  assert.deepEqual(options(list), ['create b [prompt 2 · 1 file changed]', 'create a [prompt 1 · 1 file changed]'], 'newest first');
  await pick(ctrl, /before which prompt/, /create b/);
  const what = await until(() => {
    const q = ctrl.store.get().question;
    return q?.kind === 'select' && q.title === 'Restore what?' ? q : undefined;
  });
  assert.deepEqual(options(what), ['Restore code and conversation', 'Restore conversation', 'Restore code', 'Never mind']);
  assert.match(what.kind === 'select' ? (what.body ?? '') : '', /Code: 1 file would go back \(b\.txt\)/);
  await pick(ctrl, /Restore what/, /^Restore code$/);
  await run1;
  assert.equal(existsSync(join(dir, 'b.txt')), false);
  assert.equal(ctrl.session.conversation.messages.length, 8, 'the conversation is unchanged');
  assert.match(shown(ctrl), /Restored 1 file to before prompt 2:\n {2}b\.txt\nThe conversation is unchanged/);
  assert.equal(ctrl.store.get().draft, undefined);

  // Conversation only: back to before prompt 1; a.txt stays; "create a" is back in the input.
  const epoch = ctrl.store.get().epoch;
  const run2 = ctrl.submit('/rewind');
  await pick(ctrl, /before which prompt/, /create a/);
  await pick(ctrl, /Restore what/, /^Restore conversation$/);
  await run2;
  assert.equal(ctrl.session.conversation.messages.length, 0);
  assert.equal(existsSync(join(dir, 'a.txt')), true);
  assert.equal(ctrl.store.get().epoch, epoch + 1, 'the screen starts again');
  assert.deepEqual(users(), [], 'the rewound prompts are no longer shown');
  assert.equal(ctrl.store.get().draft?.text, 'create a');
  assert.match(shown(ctrl), /Rewound the conversation to before prompt 1; its text is back in the input\./);

  // Both prompts are out of the conversation now: only their code can be restored.
  const run3 = ctrl.submit('/rewind');
  const list3 = await until(() => ctrl.store.get().question);
  assert.deepEqual(options(list3), [
    'create b [prompt 2 · 1 file changed · not in the conversation]',
    'create a [prompt 1 · 1 file changed · not in the conversation]',
  ]);
  await pick(ctrl, /before which prompt/, /create a/);
  const what3 = await until(() => {
    const q = ctrl.store.get().question;
    return q?.kind === 'select' && q.title === 'Restore what?' ? q : undefined;
  });
  assert.deepEqual(options(what3), ['Restore code', 'Never mind']);
  await pick(ctrl, /Restore what/, /Never mind/);
  await run3;
  assert.equal(existsSync(join(dir, 'a.txt')), true, 'never mind changes nothing');

  await ctrl.submit('start again');
  assert.deepEqual(
    userTexts(model.requests[4]).filter((t) => !t.startsWith('<')),
    ['start again'],
    'the model sees the rewound conversation',
  );
  await ctrl.exit();
});

test('/rewind "code and conversation" restores both; with no file changes only the conversation is offered', async () => {
  model.reset();
  model.script(reply('One.'), reply().tool('Write', { file_path: 'c.txt', content: 'c\n' }), reply('Two.'));
  const { ctrl, dir } = await openCtrl(model, {}, 'bypass');
  await ctrl.submit('first');
  await ctrl.submit('second');
  const run = ctrl.submit('/rewind');
  await pick(ctrl, /before which prompt/, /second/);
  await pick(ctrl, /Restore what/, /code and conversation/);
  await run;
  assert.equal(existsSync(join(dir, 'c.txt')), false);
  assert.equal(ctrl.session.conversation.messages.length, 2);
  assert.equal(ctrl.store.get().draft?.text, 'second');
  const items = ctrl.store.get().history;
  assert.equal(items[0].kind, 'banner');
  assert.deepEqual(
    items.filter((i) => i.kind === 'user' || i.kind === 'assistant').map((i) => (i as { text: string }).text),
    ['first', 'One.'],
    'the screen shows what is left',
  );
  assert.match(shown(ctrl), /Restored 1 file to before prompt 2:\n {2}c\.txt(?!\nThe conversation)/);

  const run2 = ctrl.submit('/rewind');
  await pick(ctrl, /before which prompt/, /first/);
  const what = await until(() => {
    const q = ctrl.store.get().question;
    return q?.kind === 'select' && q.title === 'Restore what?' ? q : undefined;
  });
  assert.deepEqual(options(what), ['Restore conversation', 'Never mind'], 'no file changed from "first" on any more');
  what.kind === 'select' && what.answer(undefined);
  await run2;
  await ctrl.exit();
});
