import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
/**
 * Once the CLI is gone: the two `stty -a` flags raw mode turns off, on one short line (`[stty icanon
 * echo ]`; a CLI killed with SIGKILL leaves `-icanon -echo` and a hidden cursor, which these tests would catch).
 */
const STTY = `echo "[stty $(stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' ')]"`;

/** The pane after the CLI exited: its exit line, the terminal modes it left, whether the cursor shows. */
async function leftBehind(t: TmuxCli): Promise<{ exit: string; stty: string; screen: string }> {
  const screen = await t.waitFor(/\[stty [^\]]*\]/);
  return { exit: /\[exit (\d+)\]/.exec(screen)?.[1] ?? '?', stty: /\[stty ([^\]]*)\]/.exec(screen)![1], screen };
}

function assertRestored(stty: string, t: TmuxCli, screen: string): void {
  assert.equal(stty.trim(), 'icanon echo', `line editing and echo are back (raw mode is off):\n${screen}`);
  assert.ok(t.cursorVisible(), 'the cursor is shown');
}

for (const kind of ['render', 'uncaught'] as const) {
  test(`a crash inside the UI (${kind === 'render' ? 'while rendering' : 'an uncaught exception'}) gives the terminal back: raw mode off, cursor shown`, async () => {
    const { dir, home } = makeProject();
    model.reset();
    model.script(reply('never seen').interval(2000));
    const t = TmuxCli.start(MODEL, { cwd: dir, home, env: { ...env(), ASSISTANT_TEST_CRASH: kind }, afterExit: STTY });
    try {
      await t.waitFor('normal mode');
      // The UI moves the terminal's cursor (for input methods): it sits at the input's caret.
      // (It gets there with the frame after the first one: wait for it rather than read the first.)
      await t.waitUntil((sc) => /^│ > /.test(sc.split('\n')[t.cursor().y] ?? ''), 'the cursor on the input line', 3000);
      await t.submit('crash now');
      const { exit, stty, screen } = await leftBehind(t);
      assert.equal(exit, '1', screen);
      assert.match(screen, /test crash (while rendering|from a timer)/, 'the error is reported');
      assertRestored(stty, t, screen);
    } finally {
      t.close();
    }
  });
}

test('a settings error at start exits 2 with the file named, and leaves the terminal as it was', async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': '{ "permissions": { "allow": [ }' });
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env(), afterExit: STTY });
  try {
    const { exit, stty, screen } = await leftBehind(t);
    assert.equal(exit, '2', screen);
    assert.match(screen, /settings\.json/);
    assertRestored(stty, t, screen);
  } finally {
    t.close();
  }
});
