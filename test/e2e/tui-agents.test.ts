/** The terminal UI's task list and subagent blocks (SPEC §14), under tmux against the fake model. */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, hang, systemPrompt, type FakeModel } from '../fakes/model-server.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
const todos = (states: string[]) => ({
  todos: ['Read the code', 'Fix the bug', 'Run the tests'].map((content, i) => ({
    content,
    activeForm: `${content.replace(/^(\w+)/, (w) => `${w.replace(/e$/, '')}ing`)}`,
    status: states[i],
  })),
});

test('TodoWrite items show under the conversation, update in place, and come back with -c', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(
    reply().tool('TodoWrite', todos(['in_progress', 'pending', 'pending'])),
    reply().tool('TodoWrite', todos(['completed', 'in_progress', 'pending'])),
    reply('Working on it.'),
    reply('Still here.'),
  );
  const first = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await first.waitFor('normal mode');
    await first.submit('fix the bug');
    await first.waitFor('Working on it.');
    const screen = await first.waitGone(/Working…/);
    assert.match(screen, /Todos \(1\/3 done\)\n\s+☒ Read the code\n\s+◼ Fixing the bug\n\s+☐ Run the tests/);
    assert.equal(screen.match(/Todos \(/g)?.length, 1, 'one list, updated in place');
    first.keys('C-d');
    await first.waitFor(/\[exit 0\]/);
  } finally {
    first.close();
  }
  const second = TmuxCli.start(['-c', ...MODEL], { cwd: dir, home, env: env() });
  try {
    const screen = await second.waitFor(/Todos \(1\/3 done\)/);
    assert.match(screen, /◼ Fixing the bug/);
  } finally {
    second.close();
  }
});

test('a running subagent is one folded block with its current tool; ctrl+o shows its calls', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'a\n' });
  model.reset();
  let n = 0;
  model.onRequest((req) => {
    if (!/read-only search agent/.test(systemPrompt(req) ?? '')) return undefined;
    return ++n === 1 ? reply().tool('Read', { file_path: 'a.txt' }) : n === 2 ? reply().tool('Grep', { pattern: 'needle' }) : hang();
  });
  model.script(reply().tool('Task', { description: 'look around', prompt: 'Look.', subagent_type: 'explore' }));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('explore');
    const folded = await t.waitFor(/explore · 2 tool uses · ctrl\+o to expand\n\s+⎿ thinking…/);
    assert.doesNotMatch(folded, /⎿ Read\(a\.txt\)/, 'folded: the calls are not listed');
    t.keys('C-o');
    const open = await t.waitFor(/⎿ Read\(a\.txt\)\n\s+⎿ Grep\("needle"\)/);
    assert.match(open, /explore · 2 tool uses/);
    t.keys('Escape');
    await t.waitGone(/explore · 2 tool uses/);
  } finally {
    t.close();
  }
});

test("a subagent's permission question reaches the user, naming the subagent", async () => {
  const { dir, home } = makeProject();
  model.reset();
  let n = 0;
  model.onRequest((req) => {
    if (!/carry out one task on its behalf/.test(systemPrompt(req) ?? '')) return undefined;
    return ++n === 1 ? reply().tool('Bash', { command: 'touch made-by-agent' }) : reply('AGENT-DONE');
  });
  model.script(
    reply().tool('Task', { description: 'make a file', prompt: 'Make it.', subagent_type: 'general-purpose' }),
    reply('Parent done.'),
  );
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('make a file');
    const q = await t.waitFor(/asked by the general-purpose subagent/);
    assert.match(q, /touch made-by-agent/);
    t.keys('1');
    await t.waitFor('Parent done.');
    assert.ok(existsSync(join(dir, 'made-by-agent')));
  } finally {
    t.close();
  }
});
