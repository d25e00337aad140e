import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

let model: FakeModel;
before(async () => { model = await startFakeModel(); });
after(async () => { await model.close(); });

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });

test('a typed prompt streams its answer as Markdown; status line shows model, mode and cost', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().text('The answer is **forty-two**.\n\n- first point\n- second point').interval(20).usage({ input: 1200, output: 30 }));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('what is the answer');
    const screen = await t.waitFor(/second point/);
    assert.match(screen, /> what is the answer/);
    assert.match(screen, /● The answer is forty-two\./, 'the bold markers are rendered, not shown');
    assert.match(screen, /\* first point/);
    const done = await t.waitGone(/Working…/);
    assert.match(done, /anthropic:claude-sonnet-4-5 · ctx \d+% \(1\.2k\) · \$0\.\d+/);
    assert.equal(model.requests.length, 1);
    assert.doesNotMatch(t.screen(true), /\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)/, 'NO_COLOR: no colour codes at all');
    t.resize(60, 30);
    const narrow = await t.waitFor(/^╭─{57}╮$/m);
    assert.match(narrow, /normal mode/, 'after a resize the input box and footer fit the new width');
    assert.ok(narrow.split('\n').every((l) => l.length <= 60));
  } finally { t.close(); }
});

test('-c brings the last session back, with its conversation on screen and sent to the model', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('Noted: the word is kiwi.'), reply('You said kiwi.'));
  const first = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await first.waitFor('normal mode');
    await first.submit('remember the word kiwi');
    await first.waitFor('Noted: the word is kiwi.');
    await first.waitGone(/Working…/);
    first.keys('C-d');
    const end = await first.waitFor(/\[exit 0\]/);
    assert.match(end, /Resume this session with: assistant -r [0-9a-f-]{36}/);
  } finally { first.close(); }
  const second = TmuxCli.start(['-c', ...MODEL], { cwd: dir, home, env: env() });
  try {
    const screen = await second.waitFor('resumed session');
    assert.match(screen, /> remember the word kiwi/);
    assert.match(screen, /Noted: the word is kiwi\./);
    await second.submit('what was the word');
    await second.waitFor('You said kiwi.');
    const sent = JSON.stringify(model.requests[1].body.messages);
    assert.match(sent, /remember the word kiwi/, 'the resumed conversation goes to the model');
  } finally { second.close(); }
});

test('2,000 lines of tool output are folded; the input box stays intact; Ctrl-C twice quits cleanly', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'seq 1 2000' }), reply('Printed them.'));
  const t = TmuxCli.start(['--permission-mode', 'bypass', ...MODEL], { cwd: dir, home, env: env(), width: 80, height: 24 });
  try {
    await t.waitFor('bypass permissions on');
    await t.submit('print numbers');
    const screen = await t.waitFor('Printed them.');
    assert.match(screen, /● Bash\(seq 1 2000\)/);
    assert.match(screen, /… \+1995 lines/);
    assert.doesNotMatch(screen, /^\s*1999$/m, 'the output is folded, not printed');
    await t.waitGone(/Working…/);
    assert.match(t.screen(), /╭─+╮\n│ >/, 'the input box is drawn whole at 80 columns');
    t.keys('C-c');
    await t.waitFor('Press Ctrl-C again to exit');
    t.keys('C-c');
    const end = await t.waitFor(/\[exit 0\]/);
    assert.match(end.split('\n').find((l) => l.includes('[exit 0]'))!, /^\[exit 0\]/, 'the terminal is left at column 0, ready for the shell');
  } finally { t.close(); }
});

test('-r without an id shows a picker of the sessions of this project; the chosen one is resumed', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('Answer about apples.'), reply('Answer about pears.'));
  for (const word of ['apples', 'pears']) {
    const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
    try {
      await t.waitFor('normal mode');
      await t.submit(`tell me about ${word}`);
      await t.waitFor(`Answer about ${word}.`);
      await t.waitGone(/Working…/);
      t.keys('C-d');
      await t.waitFor(/\[exit 0\]/);
    } finally { t.close(); }
  }
  const t = TmuxCli.start(['-r', ...MODEL], { cwd: dir, home, env: env() });
  try {
    const picker = await t.waitFor('Resume which session?');
    assert.match(picker, /❯ 1\. .*tell me about pears/, 'newest first');
    assert.match(picker, /2\. .*tell me about apples/);
    t.keys('Down', 'Enter');
    const screen = await t.waitFor('resumed session');
    assert.match(screen, /Answer about apples\./);
    assert.doesNotMatch(screen, /pears/);
  } finally { t.close(); }
});
