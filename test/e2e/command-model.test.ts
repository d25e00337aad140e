/**
 * A custom command's `model:` and `allowed-tools` (SPEC §6) hold for its one prompt, in every
 * front door that runs it: `-p` (with `-c` after it) and the terminal UI.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';
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
const COMMAND = {
  '.assistant/commands/mk.md':
    '---\ndescription: Make a file\nargument-hint: FILE\nallowed-tools: Bash(touch:*)\nmodel: anthropic:claude-haiku-4-5\n---\nCreate $ARGUMENTS. Branch: !`echo BR-OUT`\n',
};

test("-p: a command's model answers its prompt with its allowed-tools; -c goes back to the session's model and rules", async () => {
  const { dir, home } = makeProject(COMMAND);
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'touch made.txt' }),
    reply('Made.'),
    reply().tool('Bash', { command: 'touch again.txt' }),
    reply('Refused.'),
  );
  const r = await runCli(['-p', '/mk made.txt', '--output-format', 'stream-json', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    model.requests.map((q) => q.body.model),
    ['claude-haiku-4-5', 'claude-haiku-4-5'],
    "both requests of the command's prompt go to its model",
  );
  assert.equal(model.requests[0].body.messages[0].content[0].text, 'Create made.txt. Branch: BR-OUT');
  assert.equal(lastToolResults(model.requests[1])[0].isError, false, 'allowed-tools granted the touch');
  assert.equal(existsSync(join(dir, 'made.txt')), true);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(
    lines.filter((l) => l.type === 'assistant').every((l) => l.message.model === 'claude-haiku-4-5'),
    'stream-json names the model that answered',
  );

  const c = await runCli(['-p', 'touch again', '-c', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(c.code, 0, c.stderr);
  assert.deepEqual(
    model.requests.slice(2).map((q) => q.body.model),
    ['claude-sonnet-4-5', 'claude-sonnet-4-5'],
    "the next prompt is the session's model again",
  );
  assert.equal(lastToolResults(model.requests[3])[0].isError, true, "the grant ended with the command's prompt");
  assert.equal(existsSync(join(dir, 'again.txt')), false);
});

test("terminal UI: a command's model and allowed-tools hold for its prompt only; the next prompt asks, on the session's model", async () => {
  const { dir, home } = makeProject(COMMAND);
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'touch made.txt' }),
    reply('Made it.'),
    reply().tool('Bash', { command: 'touch again.txt' }),
    reply('Second.'),
  );
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('/mk made.txt');
    const first = await t.waitFor(/Made it\.|Do you want to proceed\?/);
    assert.doesNotMatch(first, /Do you want to proceed\?/, "the command's allowed-tools cover its touch");
    assert.equal(existsSync(join(dir, 'made.txt')), true);
    assert.deepEqual(
      model.requests.map((q) => q.body.model),
      ['claude-haiku-4-5', 'claude-haiku-4-5'],
    );
    assert.equal(model.requests[0].body.messages[0].content[0].text, 'Create made.txt. Branch: BR-OUT');
    await t.waitGone(/Working…/);
    await t.submit('touch again');
    const second = await t.waitFor('Do you want to proceed?');
    assert.match(second, /touch again\.txt/);
    assert.equal(model.requests[2].body.model, 'claude-sonnet-4-5', "the next prompt goes to the session's model");
    assert.equal(existsSync(join(dir, 'again.txt')), false, 'nothing runs while the question waits');
  } finally {
    t.close();
  }
});

test('-p: a command whose model: cannot be used is an error naming the command and the model (exit 2), nothing sent', async () => {
  const { dir, home } = makeProject({ '.assistant/commands/broken.md': '---\nmodel: nosuch:thing\n---\nNever sent.\n' });
  model.reset();
  model.script(reply('never'));
  const r = await runCli(['-p', '/broken', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /\/broken/);
  assert.match(r.stderr, /nosuch:thing/);
  assert.equal(model.requests.length, 0);
});
