import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';
import { hookEvents, LOG_HOOK } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
/** Run by the pane once the CLI is gone: the two flags raw mode turns off, on one line. */
const STTY = `echo "[stty $(stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' ')]"`;

/** Process ids whose command line contains `marker`. */
function pids(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function until<T>(get: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

for (const [signal, code] of [
  ['TERM', 143],
  ['HUP', 129],
] as const) {
  test(`SIG${signal} while a Bash command runs kills its process group, runs SessionEnd, gives the terminal back and exits ${code}`, async () => {
    const { dir, home } = makeProject();
    mkdirSync(join(dir, '.assistant'));
    writeFileSync(join(dir, '.assistant', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [LOG_HOOK] }] } }));
    // A sleep whose command line no other process has.
    const marker = `sleep 30.${process.pid % 1000}${Math.floor(Math.random() * 1e6)}`;
    model.reset();
    model.script(reply().tool('Bash', { command: marker }), reply('Done.'));
    const t = TmuxCli.start(['--permission-mode', 'bypass', ...MODEL], { cwd: dir, home, env: env(), afterExit: STTY });
    try {
      await t.waitFor('bypass permissions on');
      await t.submit('wait a while');
      await t.waitFor(/Bash\(sleep 30/);
      await until(() => pids(marker).length > 0 || undefined, 'the sleep to start');
      const cli = t.cliPid();
      assert.ok(cli, 'the CLI runs');
      process.kill(cli, `SIG${signal}`);
      const end = await t.waitFor(/\[stty [^\]]*\]/);
      assert.match(end, new RegExp(`\\[exit ${code}\\]`));
      await until(() => pids(marker).length === 0 || undefined, 'the sleep to be gone', 5000);
      assert.deepEqual(
        hookEvents(dir).map((e) => `${e.hook_event_name}:${e.reason}`),
        ['SessionEnd:other'],
      );
      assert.equal(/\[stty ([^\]]*)\]/.exec(end)![1].trim(), 'icanon echo', 'raw mode is off');
      assert.ok(t.cursorVisible(), 'the cursor is shown');
    } finally {
      for (const p of pids(marker)) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      t.close();
    }
  });
}

test('leaving a session without a prompt prints no resume command', async () => {
  const { dir, home } = makeProject();
  model.reset();
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    t.keys('C-d');
    const end = await t.waitFor(/\[exit 0\]/);
    assert.doesNotMatch(end, /Resume this session/);
  } finally {
    t.close();
  }
});

test('keys typed while SessionStart hooks run are not echoed raw: the banner shows "starting", and the prompt is sent once started', async () => {
  const { dir, home } = makeProject();
  mkdirSync(join(dir, '.assistant'));
  // The hook runs until the test lets it go (or 10 s).
  const gate =
    'touch "$ASSISTANT_PROJECT_DIR/started"; i=0; while [ ! -f "$ASSISTANT_PROJECT_DIR/go" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done';
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: gate }] }] } }),
  );
  model.reset();
  model.script(reply('Hello back.'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await until(() => existsSync(join(dir, 'started')) || undefined, 'the SessionStart hook');
    t.type('early words');
    t.keys('Enter');
    const starting = await t.waitFor('Queued: early words (sent once the session has started)');
    assert.match(starting, /Starting…/);
    assert.match(starting.trimStart(), /^╭/, 'nothing is printed above the banner');
    assert.doesNotMatch(starting.split('╭')[0], /early words/);
    assert.equal(model.requests.length, 0, 'nothing is sent before the hooks are done');
    writeFileSync(join(dir, 'go'), '');
    const done = await t.waitFor('Hello back.');
    assert.match(done, /^> early words$/m, 'the typed prompt was sent as a prompt, Enter included');
    assert.equal(model.requests.length, 1);
    assert.match(JSON.stringify(model.requests[0].body.messages), /early words/);
    assert.equal(done.split('\n').filter((l) => /early words/.test(l)).length, 1, 'shown once, in the history');
  } finally {
    writeFileSync(join(dir, 'go'), '');
    t.close();
  }
});

test('the input cursor stays visible under NO_COLOR (inverse video is not a colour)', async () => {
  const { dir, home } = makeProject();
  model.reset();
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    t.type('abc');
    await t.waitFor('│ > abc');
    const line = t
      .screen(true)
      .split('\n')
      .find((l) => l.includes('> abc'))!;
    assert.match(line, /abc\x1b\[[0-9;]*7m /, 'the cell after the text is shown in inverse video');
    assert.doesNotMatch(t.screen(true), /\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)/, 'and still no colour');
  } finally {
    t.close();
  }
});

test('without NO_COLOR the session is in colour', async () => {
  const { dir, home } = makeProject();
  model.reset();
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: { ...env(), NO_COLOR: undefined, FORCE_COLOR: undefined } });
  try {
    await t.waitFor('normal mode');
    assert.match(t.screen(true), /\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;5;\d+)m/, 'colour codes on screen');
  } finally {
    t.close();
  }
});

/** Lines that are the top border of a box wider than the banner (72 columns at most): the input box. */
const inputTops = (screen: string) => screen.split('\n').filter((l) => /^╭─+╮$/.test(l) && l.length > 72);
/** Pieces of box borders left by a reflow: a border line that does not start with a corner. */
const debris = (screen: string) => screen.split('\n').filter((l) => /^─{2,}[╮╯]?\s*$/.test(l) || /^\s*[╮╯]\s*$/.test(l));

test('shrinking the window leaves one input box on screen, idle and while an answer streams', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(
    reply()
      .text(`Streaming paragraph number one is here.\n\nSecond paragraph is still coming in slowly ${'word '.repeat(60)}end.`)
      .interval(30),
  );
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env(), width: 100, height: 30 });
  const clean = (width: number) => (s: string) => {
    const tops = inputTops(s);
    return tops.length === 1 && tops[0].length === width - 1 && debris(s).length === 0;
  };
  try {
    await t.waitFor('normal mode');
    t.resize(80, 30);
    await t.waitUntil(clean(80), 'one input box and no pieces of the old one at 80 columns', 5000);
    await t.submit('stream something');
    await t.waitFor('Second paragraph');
    t.resize(76, 30);
    await t.waitGone(/Working…/);
    const screen = await t.waitUntil(clean(76), 'one input box and no pieces of old ones at 76 columns', 5000);
    assert.equal(
      screen.split('\n').filter((l) => l.includes('Streaming paragraph number one')).length,
      1,
      `the first paragraph once:\n${screen}`,
    );
    assert.equal(screen.split('\n').filter((l) => l.includes('Second paragraph')).length, 1, `the streamed paragraph once:\n${screen}`);
  } finally {
    t.close();
  }
});
