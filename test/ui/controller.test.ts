import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { setTimeout as sleep } from 'node:timers/promises';
import { App } from '../../src/ui/app.tsx';
import type { UiState } from '../../src/ui/state.ts';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, until } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const open = async (files: Record<string, string> = {}, mode?: string) => openCtrl(model, files, mode);

test('a refusal with a note goes to the model as the tool result; the call never runs', async () => {
  model.reset();
  model.script(reply().tool('Bash', { command: 'npm install' }), reply('OK, using yarn.'));
  const { ctrl } = await open();
  const run = ctrl.submit('install deps');
  const q = await until(() => ctrl.store.get().question);
  assert.equal(q.kind, 'permission');
  if (q.kind !== 'permission') return;
  assert.deepEqual(q.always, ['Bash(npm install:*)']);
  q.answer({ kind: 'deny', feedback: 'use yarn instead' });
  await run;
  const sent = JSON.stringify(model.requests[1].body.messages);
  assert.match(sent, /The user refused this tool call and said: use yarn instead/);
  const items = ctrl.store.get().history;
  assert.ok(items.some((i) => i.kind === 'tool' && i.status === 'denied' && /use yarn instead/.test(i.reason ?? '')));
  assert.ok(items.some((i) => i.kind === 'assistant' && i.text === 'OK, using yarn.'));
  assert.equal(ctrl.store.get().question, undefined);
  await ctrl.exit();
});

test('a write to the settings file asks without "don\'t ask again" (a rule for it would never apply)', async () => {
  model.reset();
  model.script(reply().tool('Write', { file_path: '.assistant/settings.json', content: '{}' }), reply('Left it.'));
  const { ctrl } = await open({}, 'auto-accept');
  const run = ctrl.submit('clear the settings');
  const q = await until(() => ctrl.store.get().question);
  assert.equal(q.kind, 'permission');
  if (q.kind !== 'permission') return;
  assert.deepEqual(q.always, []);
  q.answer({ kind: 'deny', feedback: '' });
  await run;
  await ctrl.exit();
});

test('a firm ask (an ask rule) offers no "don\'t ask again" either; an ordinary Bash ask does', async () => {
  model.reset();
  model.script(reply().tool('Bash', { command: 'git push' }), reply().tool('Bash', { command: 'npm install' }), reply('Done.'));
  const { ctrl } = await open({ '.assistant/settings.json': JSON.stringify({ permissions: { ask: ['Bash(git push:*)'] } }) });
  const run = ctrl.submit('push, then install');
  const first = await until(() => ctrl.store.get().question);
  assert.equal(first.kind, 'permission');
  if (first.kind !== 'permission') return;
  assert.deepEqual(first.always, []);
  first.answer({ kind: 'deny', feedback: '' });
  const second = await until(() => {
    const q = ctrl.store.get().question;
    return q !== first ? q : undefined;
  });
  if (second.kind !== 'permission') return assert.fail('expected a permission question');
  assert.deepEqual(second.always, ['Bash(npm install:*)']);
  second.answer({ kind: 'deny', feedback: '' });
  await run;
  await ctrl.exit();
});

test('/mode, /permissions, /cost and /status answer without the model; unknown commands suggest', async () => {
  model.reset();
  const { ctrl } = await open({
    '.assistant/settings.json': JSON.stringify({ permissions: { allow: ['Bash(git status:*)'], deny: ['Read(.env)'] } }),
  });
  const out = () =>
    ctrl.store
      .get()
      .history.filter((i) => i.kind === 'output' || i.kind === 'notice')
      .map((i) => (i as { text: string }).text)
      .join('\n---\n');
  await ctrl.submit('/mode plan');
  assert.equal(ctrl.session.gate.mode, 'plan');
  assert.equal(ctrl.store.get().mode, 'plan');
  await ctrl.submit('/permissions');
  assert.match(out(), /Deny rules:\n {2}Read\(\.env\) +\.assistant\/settings\.json/);
  assert.match(out(), /Allow rules:\n {2}Bash\(git status:\*\) +\.assistant\/settings\.json/);
  await ctrl.submit('/cost');
  assert.match(out(), /Total cost: +\$0\.00/);
  await ctrl.submit('/status');
  assert.match(out(), /Mode: +plan/);
  assert.match(out(), /Context: +200,000 tokens \(from the model catalogue\)/);
  await ctrl.submit('/rewnd');
  assert.match(out(), /Unknown command \/rewnd\. Did you mean \/rewind/);
  await ctrl.submit('/mode yolo');
  assert.match(out(), /"yolo" is not a mode/);
  assert.equal(model.requests.length, 0);
  await ctrl.exit();
});

test("/recipes lists, /recipe N shows, and a filled /recipe N runs in the recipe's mode", async () => {
  model.reset();
  model.script(reply('Root cause: the empty-name check.'));
  const { ctrl } = await open({ 'src/auth.ts': 'export const login = (u: string) => u.length > 0;\n' });
  const out = () =>
    ctrl.store
      .get()
      .history.filter((i) => i.kind === 'output' || i.kind === 'notice')
      .map((i) => (i as { text: string }).text)
      .join('\n---\n');
  await ctrl.submit('/recipes');
  assert.match(out(), /^Debugging$/m);
  await ctrl.submit('/recipe 4');
  assert.match(out(), /Recipe 4: Root-cause analysis/);
  await ctrl.submit('/recipe 4 --set "symptom=x"');
  assert.match(out(), /missing slot \[module name\]/);
  assert.equal(model.requests.length, 0);
  await ctrl.submit('/recipe 4 "module name=auth" src/auth.ts');
  assert.equal(ctrl.session.gate.mode, 'plan');
  assert.match(out(), /Recipe 4 runs in Plan Mode/);
  assert.match(JSON.stringify(model.requests[0].body.messages), /Module: auth \(@src\/auth\.ts\)/);
  assert.ok(ctrl.store.get().history.some((i) => i.kind === 'assistant' && i.text === 'Root cause: the empty-name check.'));
  const shown = ctrl.store.get().history.filter((i) => i.kind === 'user' && /^\/recipe 4 "module name/.test((i as { text: string }).text));
  assert.equal(shown.length, 1, 'the typed line is shown once');
  await ctrl.exit();
});

test('the whole screen renders with Ink: typed prompt, streamed answer, mode and status', async () => {
  model.reset();
  model.script(reply().text('Hello from the **model**.').usage({ input: 500, output: 10 }));
  const { ctrl } = await open();
  let exited = false;
  const ui = render(h(App, { ctrl }));
  ctrl.onExit = () => {
    exited = true;
  };
  await sleep(50);
  assert.match(ui.lastFrame()!, /normal mode/);
  ui.stdin.write('say hello');
  await sleep(30);
  ui.stdin.write('\r');
  await until(() => ctrl.store.get().history.some((i) => i.kind === 'assistant'));
  await until(() => !ctrl.store.get().live.busy || undefined);
  await sleep(50);
  const frame = ui.frames.join('\n');
  assert.match(frame, /> say hello/);
  assert.match(frame, /Hello from the model\./);
  assert.match(ui.lastFrame()!, /ctx 0% \(510\)/);
  ui.stdin.write('\x04');
  await until(() => exited || undefined);
  ui.unmount();
  const state: UiState = ctrl.store.get();
  assert.equal(state.history.filter((i) => i.kind === 'user').length, 1);
});
