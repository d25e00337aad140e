import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadSetup } from '../../src/agent/setup.ts';
import { Controller } from '../../src/ui/controller.ts';
import { runSlash } from '../../src/ui/commands.ts';
import { reply, startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { shown } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('terminal UI: a compaction that cannot help stops the turn with a message saying what fills the context', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'alpha\n', '.assistant/settings.json': JSON.stringify({ modelContextWindow: 2_000 }) });
  const loaded = loadSetup(
    { model: 'anthropic:fake-unknown-model', addDir: [], allowedTools: [], disallowedTools: [], permissionMode: 'bypass' },
    dir,
    home,
  );
  const setup = { ...loaded, env: { ...loaded.env, ...model.env() } };
  const ctrl = new Controller({ setup, version: 'test', idleMs: 0 });
  ctrl.slash = runSlash;
  await ctrl.open();
  model.reset();
  model.script(reply().tool('Read', { file_path: 'a.txt' }), reply('## Open tasks\nnone'), reply('never asked'));
  const outcome = await ctrl.prompt('read a.txt');
  assert.equal(outcome?.status, 'error', shown(ctrl));
  assert.match(
    shown(ctrl),
    /Error: Stopped: the context is too full to go on \(it is still over the threshold right after a compaction\)[^]*What fills it: the system prompt/,
  );
  await ctrl.submit('/status');
  assert.match(shown(ctrl), /Context: +2,000 tokens \(from settings modelContextWindow\)/);
  assert.equal(model.requests.length, 2, 'no request after the stop');
  await ctrl.exit();
});
