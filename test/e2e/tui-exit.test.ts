import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { hookEvents, LOG_HOOK } from './cli.ts';
import { TmuxCli } from './tmux.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('/exit, Ctrl-D and Ctrl-C twice end the session with SessionEnd reason "prompt_input_exit" (SPEC §11.1)', async () => {
  for (const keys of [['/exit'], ['C-d'], ['C-c', 'C-c']]) {
    const { dir, home } = makeProject({
      '.assistant/settings.json': JSON.stringify({ hooks: { SessionStart: [{ hooks: [LOG_HOOK] }], SessionEnd: [{ hooks: [LOG_HOOK] }] } }),
    });
    model.reset();
    model.script(reply('hello'));
    const t = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], { cwd: dir, home, env: model.env('anthropic') });
    try {
      await t.waitFor('normal mode');
      await t.submit('hi');
      await t.waitFor('hello');
      await t.waitGone(/Working…/);
      if (keys[0] === '/exit') await t.submit('/exit');
      else
        for (const k of keys) {
          t.keys(k);
          await sleep(200);
        }
      await t.waitFor('[exit 0]');
      const events = hookEvents(dir).map((e) => [e.hook_event_name, e.source ?? e.reason]);
      assert.deepEqual(
        events,
        [
          ['SessionStart', 'startup'],
          ['SessionEnd', 'prompt_input_exit'],
        ],
        keys.join(' '),
      );
    } finally {
      t.close();
    }
  }
});
