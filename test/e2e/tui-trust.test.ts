import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });

/** A cloned repository whose settings run a hook at start-up: it leaves `ran-<event>` behind. */
function clonedRepo() {
  const p = makeProject();
  mkdirSync(join(p.dir, '.assistant'));
  writeFileSync(
    join(p.dir, '.assistant', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch "$ASSISTANT_PROJECT_DIR/ran-start"' }] }] } }),
  );
  return p;
}

test('folder trust: a new folder asks before any project hook runs; "no" runs nothing, "yes" is remembered in the user\'s state', async () => {
  const { dir, home } = clonedRepo();
  const no = TmuxCli.start(MODEL, { cwd: dir, home, env: env(), trusted: false });
  try {
    const screen = await no.waitFor('Do you trust the files in this folder?');
    assert.match(screen, /SessionStart hook: touch/, 'the question says what the folder can run');
    no.keys('2');
    const end = await no.waitFor(/\[exit \d+\]/);
    assert.match(end, /\[exit 1\]/);
    assert.match(end, /Nothing was run/);
  } finally {
    no.close();
  }
  assert.equal(existsSync(join(dir, 'ran-start')), false, 'the hook did not run');
  assert.equal(existsSync(join(home, '.assistant', 'state.json')), false, 'a "no" is not remembered');

  const yes = TmuxCli.start(MODEL, { cwd: dir, home, env: env(), trusted: false });
  try {
    await yes.waitFor('Do you trust the files in this folder?');
    yes.keys('Enter');
    await yes.waitFor(/normal mode|shift\+tab/i);
    for (let i = 0; i < 100 && !existsSync(join(dir, 'ran-start')); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(join(dir, 'ran-start')), 'once trusted, the hook runs');
  } finally {
    yes.close();
  }
  const state = JSON.parse(readFileSync(join(home, '.assistant', 'state.json'), 'utf8'));
  assert.deepEqual(state.trustedFolders, [realpathSync(dir)]);
  assert.equal(existsSync(join(dir, '.assistant', 'settings.local.json')), false, 'nothing about trust is written into the project');

  const again = TmuxCli.start(MODEL, { cwd: dir, home, env: env(), trusted: false });
  try {
    const s = await again.waitFor(/normal mode|shift\+tab/i);
    assert.doesNotMatch(s, /Do you trust/, 'the second start does not ask');
  } finally {
    again.close();
  }
});

test('folder trust: a headless run never asks and runs the project hooks, as in Claude Code', async () => {
  const { dir, home } = clonedRepo();
  model.reset();
  model.script(reply('Hi.'));
  const r = await runCli(['-p', 'hello', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'Hi.');
  assert.ok(existsSync(join(dir, 'ran-start')));
});
