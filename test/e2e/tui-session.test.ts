import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

test('a typed prompt streams its answer as Markdown; status line shows model, mode and cost', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(
    reply().text('The answer is **forty-two**.\n\n- first point\n- second point').interval(20).usage({ input: 1200, output: 30 }),
  );
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('what is the answer');
    const screen = await t.waitFor(/second point/);
    assert.match(screen, /> what is the answer/);
    assert.match(screen, /● The answer is forty-two\./, 'the bold markers are rendered, not shown');
    assert.match(screen, /• first point/);
    const done = await t.waitGone(/Working…/);
    assert.match(done, /anthropic:claude-sonnet-4-5 · ctx \d+% \(1\.2k\) · \$0\.\d+/);
    assert.equal(model.requests.length, 1);
    assert.doesNotMatch(t.screen(true), /\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)/, 'NO_COLOR: no colour codes at all');
    t.resize(60, 30);
    const narrow = await t.waitFor(/^╭─{57}╮$/m);
    assert.match(narrow, /normal mode/, 'after a resize the input box and footer fit the new width');
    assert.ok(narrow.split('\n').every((l) => l.length <= 60));
  } finally {
    t.close();
  }
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
  } finally {
    first.close();
  }
  const second = TmuxCli.start(['-c', ...MODEL], { cwd: dir, home, env: env() });
  try {
    const screen = await second.waitFor('resumed session');
    assert.match(screen, /> remember the word kiwi/);
    assert.match(screen, /Noted: the word is kiwi\./);
    await second.submit('what was the word');
    await second.waitFor('You said kiwi.');
    const sent = JSON.stringify(model.requests[1].body.messages);
    assert.match(sent, /remember the word kiwi/, 'the resumed conversation goes to the model');
  } finally {
    second.close();
  }
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
    assert.match(
      end.split('\n').find((l) => l.includes('[exit 0]'))!,
      /^\[exit 0\]/,
      'the terminal is left at column 0, ready for the shell',
    );
  } finally {
    t.close();
  }
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
    } finally {
      t.close();
    }
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
  } finally {
    t.close();
  }
});

test('/rewind "code and conversation": the files and the conversation go back, the prompt returns to the input, -c resumes the rewound conversation', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(
    reply('Noted: kiwi.'),
    reply().tool('Write', { file_path: 'plum.txt', content: 'plum\n' }),
    reply('Wrote plum.txt.'),
    reply('You told me kiwi.'),
  );
  const first = TmuxCli.start(['--permission-mode', 'auto-accept', ...MODEL], { cwd: dir, home, env: env() });
  try {
    await first.waitFor('accept edits on');
    await first.submit('remember kiwi');
    await first.waitFor('Noted: kiwi.');
    await first.waitGone(/Working…/);
    await first.submit('write plum');
    await first.waitFor('Wrote plum.txt.');
    await first.waitGone(/Working…/);
    assert.ok(existsSync(join(dir, 'plum.txt')));
    first.keys('Escape');
    await new Promise((r) => setTimeout(r, 150)); // two presses, not one Alt+Esc chunk
    first.keys('Escape');
    const list = await first.waitFor('Rewind to before which prompt?');
    assert.match(list, /❯ 1\. write plum\s+prompt 2 · 1 file changed/, 'Esc Esc opens /rewind');
    first.keys('Enter');
    const what = await first.waitFor('Restore what?');
    assert.match(what, /❯ 1\. Restore code and conversation/);
    assert.match(what, /Code: 1 file would go back \(plum\.txt\)/);
    first.keys('Enter');
    await first.waitFor('Rewound the conversation to before prompt 2');
    const after = await first.waitFor(/│ > write plum/); // the input is drawn a frame after the notices
    assert.match(after, /Restored 1 file to before prompt 2/);
    assert.match(after, /> remember kiwi/);
    assert.match(after, /Noted: kiwi\./);
    assert.doesNotMatch(after, /Wrote plum\.txt\./, 'the rewound answer is gone from the screen');
    assert.equal(existsSync(join(dir, 'plum.txt')), false);
    first.keys('C-u');
    await first.waitGone(/│ > write plum/);
    first.keys('C-d');
    await first.waitFor(/\[exit 0\]/);
  } finally {
    first.close();
  }
  const second = TmuxCli.start(['-c', ...MODEL], { cwd: dir, home, env: env() });
  try {
    const screen = await second.waitFor('resumed session');
    assert.match(screen, /Noted: kiwi\./);
    assert.doesNotMatch(screen, /plum/);
    await second.submit('what did I say');
    await second.waitFor('You told me kiwi.');
    const sent = JSON.stringify(model.requests[3].body.messages);
    assert.match(sent, /remember kiwi/);
    assert.doesNotMatch(sent, /write plum/, 'the model never sees the rewound prompt again');
  } finally {
    second.close();
  }
});

test('a prompt typed while the model works is queued and runs after the answer, in the same conversation', async () => {
  const { dir, home } = makeProject();
  model.reset();
  // The first answer waits until the test has seen the second prompt queued.
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  model.script(async () => {
    await released;
    return reply('First answer, slowly.');
  }, reply('Second answer.'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('first question');
    await model.waitForRequests(1);
    await t.submit('second question');
    const queued = await t.waitFor('Queued: second question (runs when the answer is done)');
    assert.equal(model.requests.length, 1, 'not sent while the first runs');
    assert.doesNotMatch(queued, /^> second question/m, 'not in the history yet');
    release();
    const done = await t.waitFor('Second answer.');
    assert.match(done, /First answer, slowly\.[\s\S]*^> second question[\s\S]*Second answer\./m, 'in order');
    const sent = JSON.stringify(model.requests[1].body.messages);
    assert.match(sent, /first question[\s\S]*First answer, slowly\.[\s\S]*second question/);
  } finally {
    release();
    t.close();
  }
});
