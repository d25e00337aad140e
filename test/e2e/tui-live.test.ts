import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

// Issue 20 items 4, 12, 13 and issue 17 item 3, as a user meets them under tmux.

let model: FakeModel;
before(async () => { model = await startFakeModel(); });
after(async () => { await model.close(); });

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });

test('a running Bash command shows its last lines as they come, its time and how to stop it; the fold stays when it ends', async () => {
  const { dir, home } = makeProject();
  model.reset();
  const command = 'for i in 1 2 3 4 5 6 7 8; do echo "step $i"; done; while [ ! -e go ]; do sleep 0.05; done; echo "step 9"; sleep 60';
  model.script(reply().tool('Bash', { command }), reply('Stopped.'));
  const t = TmuxCli.start(['--permission-mode', 'bypass', ...MODEL], { cwd: dir, home, env: env(), height: 40 });
  try {
    await t.waitFor('bypass permissions on');
    await t.submit('build it');
    const first = await t.waitFor(/step 8\n.*Running… \(\d+s · esc to interrupt\)/);
    assert.match(first, /… \+3 lines\n.*step 4\n.*step 5\n.*step 6\n.*step 7\n.*step 8\n/);
    assert.doesNotMatch(first, /step 3/);
    writeFileSync(join(dir, 'go'), '');
    const more = await t.waitFor(/step 9\n.*Running…/);
    assert.match(more, /… \+4 lines\n.*step 5\n/);
    t.keys('Escape');
    const done = await t.waitFor('Interrupted · what should assistant do instead?');
    assert.doesNotMatch(done, /Running…/);
    assert.match(done, /step 1\n.*step 2\n.*step 3\n.*step 4\n.*step 5\n.*… \+4 lines \(ctrl\+o to expand\)\n.*Command was interrupted by the user and killed\./);
  } finally { t.close(); }
});

test('/clear keeps the mode chosen with Shift+Tab', async () => {
  const { dir, home } = makeProject();
  model.reset();
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    t.keys('BTab');
    await t.waitFor('accept edits on');
    await t.submit('/clear');
    await t.waitFor(/SessionStart|╭/);
    const s = await t.waitUntil((x) => /accept edits on/.test(x) && !/\/clear/.test(x), 'the new conversation');
    assert.doesNotMatch(s, /normal mode/);
  } finally { t.close(); }
});
