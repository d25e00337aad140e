import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusText } from '../../src/ui/commands.ts';
import { startFakeModel, reply, systemPrompt, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, pick, shown, until } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test("/init: /memory, /status and the next request's system prompt see the ASSISTANT.md it wrote", async () => {
  model.reset();
  model.script(
    reply('Writing it.').tool('Write', { file_path: 'ASSISTANT.md', content: '# Project\n\nUse npm test.\n' }),
    reply('init done'),
    reply('x'),
  );
  const { ctrl } = await openCtrl(model, {}, 'auto-accept');
  assert.match(statusText(ctrl), /Memory: +none \(run \/init\)/);
  await ctrl.submit('/init');
  assert.doesNotMatch(systemPrompt(model.requests[0]) ?? '', /Use npm test/);
  assert.match(statusText(ctrl), /Memory: +ASSISTANT\.md/);
  await ctrl.submit('/memory');
  assert.match(shown(ctrl), /Instructions in use:\n {2}ASSISTANT\.md/);
  assert.doesNotMatch(shown(ctrl), /No ASSISTANT\.md yet/);
  await ctrl.submit('next');
  assert.match(systemPrompt(model.requests[2]) ?? '', /Use npm test\./, 'the new ASSISTANT.md is in the system prompt');
  await ctrl.exit();
});

test('a settings change while idle is shown at once; after /hooks "keep" it is not reported again at the next prompt', async () => {
  model.reset();
  model.script(reply('one'));
  const { ctrl, dir } = await openCtrl(model, { '.assistant/settings.json': '{}' });
  const file = join(dir, '.assistant/settings.json');
  const warnings = () =>
    ctrl.store.get().history.filter((i) => i.kind === 'notice' && i.tone === 'warning' && /changed during the session/.test(i.text)).length;
  writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }));
  await until(() => warnings() === 1, 5000);
  const answered = ctrl.submit('/hooks');
  await pick(ctrl, /settings files changed/, /No, keep/);
  await answered;
  assert.match(shown(ctrl), /Kept the hooks and rules the session started with/);
  await ctrl.submit('go');
  assert.equal(model.requests.length, 1);
  assert.equal(warnings(), 1, 'the reviewed change is not reported again');
  assert.deepEqual(
    ctrl.session.gate.rules.allow.map((r) => r.text),
    [],
    'kept: the rule is not in force',
  );
  // A further change is news again.
  writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(pwd:*)'] } }));
  await until(() => warnings() === 2, 5000);
  await ctrl.exit();
});
