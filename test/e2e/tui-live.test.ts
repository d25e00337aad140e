import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, hang, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

// Issue 20 items 4, 12, 13 and issue 17 item 3, as a user meets them under tmux.

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

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
    assert.match(
      done,
      /step 1\n.*step 2\n.*step 3\n.*step 4\n.*step 5\n.*… \+4 lines \(ctrl\+o to expand\)\n.*Command was interrupted by the user and killed\./,
    );
  } finally {
    t.close();
  }
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
  } finally {
    t.close();
  }
});

test('/model under tmux: the picker, the switch notice, and the next request goes to the new model with the conversation', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('Claude here.'), reply('GPT here.'));
  const t = TmuxCli.start(MODEL, {
    cwd: dir,
    home,
    env: { ...env(), OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl },
    height: 40,
  });
  try {
    await t.waitFor('normal mode');
    await t.submit('who are you');
    await t.waitFor('Claude here.');
    await t.waitGone(/Working…/);
    t.type('/model');
    await t.waitFor('Switch the model');
    t.keys('Enter'); // the command is typed whole: Enter sends it
    const picker = await t.waitFor('Switch to which model?');
    assert.match(picker, /anthropic:claude-sonnet-4-5 .*current · 200k context/);
    t.type('gpt-5-mini');
    await t.waitFor('Filter: gpt-5-mini');
    t.keys('Enter');
    const note = await t.waitFor(/Context window: 200k → 400k tokens/);
    assert.match(note, /Model: anthropic:claude-sonnet-4-5 → openai:gpt-5-mini/);
    await t.waitFor(/openai:gpt-5-mini · ctx/); // the status line names the new model
    await t.submit('and now?');
    await t.waitFor('GPT here.');
    assert.equal(model.requests[1].format, 'openai-responses');
    assert.equal(model.requests[1].body.model, 'gpt-5-mini');
    assert.match(JSON.stringify(model.requests[1].body.input), /who are you.*Claude here\..*and now\?/);
  } finally {
    t.close();
  }
});

test('-c redraws the session as it was shown: the paste as its mark, tool times, the interrupted marker, context and cost', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('Looking.').tool('Bash', { command: 'echo checked' }), reply('All fine.'), hang(), reply('Got the rows.'));
  const footer = (s: string) =>
    s
      .split('\n')
      .find((l) => / · ctx /.test(l))
      ?.trim() ?? '';
  const first = TmuxCli.start(['--permission-mode', 'bypass', ...MODEL], { cwd: dir, home, env: env(), height: 50 });
  let before = '';
  try {
    await first.waitFor('bypass permissions on');
    first.type('look at this ');
    first.type(`\x1b[200~${Array.from({ length: 12 }, (_, i) => `pasted row ${i}`).join('\n')}\x1b[201~`);
    await first.waitFor('[Pasted text #1 +12 lines]');
    first.keys('Enter');
    const done = await first.waitFor('All fine.');
    assert.match(done, /Bash\(echo checked\) · \d+ms/);
    await first.waitGone(/Working…/);
    await first.submit('now the slow part');
    await first.waitFor(/Working…/);
    first.keys('Escape');
    await first.waitFor('Interrupted · what should assistant do instead?');
    before = footer(await first.waitGone(/Working…/));
    assert.match(before, /ctx \d+% \(\d[\d.]*k?\) · \$0\.\d+/);
    first.keys('C-d');
    await first.waitFor(/\[exit 0\]/);
  } finally {
    first.close();
  }
  const second = TmuxCli.start(['-c', '--permission-mode', 'bypass', ...MODEL], { cwd: dir, home, env: env(), height: 50 });
  try {
    const s = await second.waitFor('resumed session');
    assert.match(s, /> look at this \[Pasted text #1 \+12 lines\]/);
    assert.doesNotMatch(s, /pasted row 3/);
    assert.match(s, /Bash\(echo checked\) · \d+ms/);
    assert.match(s, /> now the slow part\n(.*\n)*.*Interrupted · what should assistant do instead\?/);
    assert.equal(footer(s), before, "the status line's context and cost as they were");
    // /rewind puts the pasted prompt back as it was typed: the mark, which still sends the paste.
    await second.submit('/rewind');
    const list = await second.waitFor('Rewind to before which prompt?');
    assert.match(list, /2\. look at this \[Pasted text #1 \+12 lines\]/, 'listed as it was typed');
    second.keys('2');
    await second.waitFor('Restore what?');
    second.keys('Enter');
    await second.waitFor(/│ > look at this \[Pasted text #1 \+12 lines\]/);
    second.keys('Enter');
    await second.waitFor('Got the rows.');
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /look at this pasted row 0\\npasted row 1\\n(.*)pasted row 11/);
  } finally {
    second.close();
  }
});
