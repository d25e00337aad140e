import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, systemPrompt, type FakeModel } from '../fakes/model-server.ts';
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

test('/rewind "code only" lists earlier prompts and restores the files as they were before the chosen one', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'original\n' });
  model.reset();
  model.script(
    reply().tool('Read', { file_path: 'a.txt' }),
    reply().tool('Edit', { file_path: 'a.txt', old_string: 'original', new_string: 'changed' }),
    reply('Changed it.'),
    reply().tool('Write', { file_path: 'b.txt', content: 'new file\n' }),
    reply('Added b.'),
  );
  const t = TmuxCli.start(['--permission-mode', 'auto-accept', ...MODEL], { cwd: dir, home, env: env() });
  try {
    await t.waitFor('accept edits on');
    await t.submit('change a');
    await t.waitFor('Changed it.');
    await t.waitGone(/Working…/);
    await t.submit('add b');
    await t.waitFor('Added b.');
    await t.waitGone(/Working…/);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'changed\n');
    await t.submit('/rewind');
    const list = await t.waitFor('Rewind to before which prompt?');
    assert.match(list, /❯ 1\. add b\s+prompt 2 · 1 file changed/);
    assert.match(list, /2\. change a\s+prompt 1 · 1 file changed/);
    t.keys('Down', 'Enter');
    const what = await t.waitFor('Restore what?');
    assert.match(what, /3\. Restore code/);
    t.keys('3');
    const done = await t.waitFor(/Restored 2 files to before prompt 1/);
    assert.match(done, /a\.txt/);
    assert.match(done, /The conversation is unchanged/);
    assert.match(done, /● Added b\./, 'code only: the conversation stays on screen');
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'original\n');
    assert.equal(existsSync(join(dir, 'b.txt')), false, 'a file created later is removed');
  } finally {
    t.close();
  }
});

test('Plan Mode: after a plan is written to plan.md, "execute" switches to Auto-Accept and runs it', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'one\n' });
  model.reset();
  model.script(
    reply().tool('Write', { file_path: 'plan.md', content: '# Plan\n\n1. Change one to uno in a.txt\n' }),
    reply('The plan is ready.'),
    reply().tool('Read', { file_path: 'a.txt' }),
    reply().tool('Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' }),
    reply('Executed the plan.'),
  );
  const t = TmuxCli.start(['--permission-mode', 'plan', ...MODEL], { cwd: dir, home, env: env() });
  try {
    await t.waitFor('plan mode on');
    await t.submit('plan the change');
    const q = await t.waitFor('Would you like to proceed?');
    assert.match(q, /1\. Change one to uno in a\.txt/, 'the plan is shown with the question');
    assert.match(q, /Yes, and auto-accept edits/);
    assert.match(q, /No, keep planning/);
    t.keys('Enter');
    const s = await t.waitFor('Executed the plan.');
    assert.match(s, /accept edits on/);
    assert.doesNotMatch(s, /Do you want to proceed\?/);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'uno\n');
    assert.match(JSON.stringify(model.requests[2].body.messages), /Execute the plan in plan\.md/);
  } finally {
    t.close();
  }
});

test('/clear fires SessionEnd (clear) and SessionStart (clear) and starts a new conversation; idle input fires Notification', async () => {
  const { dir, home } = makeProject();
  mkdirSync(join(dir, '.assistant'));
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({
      hooks: {
        SessionStart: [{ hooks: [LOG_HOOK] }],
        SessionEnd: [{ hooks: [LOG_HOOK] }],
        Notification: [{ hooks: [LOG_HOOK] }],
      },
    }),
  );
  model.reset();
  model.script(reply('First answer.'), reply('Fresh answer.'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: { ...env(), ASSISTANT_IDLE_NOTIFY_MS: '700' } });
  try {
    await t.waitFor('normal mode');
    await t.submit('hello');
    await t.waitFor('First answer.');
    await t.waitGone(/Working…/);
    const deadline = Date.now() + 10_000;
    while (!hookEvents(dir).some((e) => e.hook_event_name === 'Notification') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const note = hookEvents(dir).find((e) => e.hook_event_name === 'Notification');
    assert.ok(note, 'Notification fires after idle input');
    assert.equal(note.notification_type, 'idle_prompt');
    assert.equal(note.message, 'assistant is waiting for your input');
    await t.submit('/clear');
    await t.waitGone('First answer.');
    await t.submit('again');
    await t.waitFor('Fresh answer.');
    const names = hookEvents(dir).map((e) => `${e.hook_event_name}:${e.source ?? e.reason ?? e.notification_type}`);
    assert.deepEqual(
      names.filter((n) => !n.startsWith('Notification')),
      ['SessionStart:startup', 'SessionEnd:clear', 'SessionStart:clear'],
    );
    const ids = hookEvents(dir)
      .filter((e) => e.hook_event_name === 'SessionStart')
      .map((e) => e.session_id);
    assert.notEqual(ids[0], ids[1], '/clear starts a new session');
    assert.deepEqual((model.requests[1].body.messages as unknown[]).length, 1, 'the new conversation starts empty');
  } finally {
    t.close();
  }
});

test('/hooks shows a settings change made during the session and applies it only once accepted', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('One.'), reply('Two.'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    mkdirSync(join(dir, '.assistant'));
    writeFileSync(join(dir, '.assistant', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [LOG_HOOK] }] } }));
    await t.submit('first');
    await t.waitFor('One.');
    await t.waitGone(/Working…/);
    assert.equal(hookEvents(dir).length, 0, 'a hook added during the session does not run before it is accepted');
    await t.submit('/hooks');
    const q = await t.waitFor('Use the new hooks and rules from now on?');
    assert.match(q, /\+ hook UserPromptSubmit/);
    t.keys('Enter');
    await t.waitFor(/Accepted: 1 hooks/);
    await t.submit('second');
    await t.waitFor('Two.');
    assert.deepEqual(
      hookEvents(dir).map((e) => e.prompt),
      ['second'],
    );
  } finally {
    t.close();
  }
});

test('/resume inside a session: a picker of the other sessions; the chosen one comes back on screen and to the model', async () => {
  const { dir, home } = makeProject();
  mkdirSync(join(dir, '.assistant'));
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [LOG_HOOK] }], SessionEnd: [{ hooks: [LOG_HOOK] }] } }),
  );
  model.reset();
  model.script(reply('Answer about apples.'), reply('Answer about pears.'), reply('Back to apples.'));
  const old = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await old.waitFor('normal mode');
    await old.submit('tell me about apples');
    await old.waitFor('Answer about apples.');
    await old.waitGone(/Working…/);
    old.keys('C-d');
    await old.waitFor(/\[exit 0\]/);
  } finally {
    old.close();
  }
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('tell me about pears');
    await t.waitFor('Answer about pears.');
    await t.waitGone(/Working…/);
    await t.submit('/resume');
    const picker = await t.waitFor('Resume which session?');
    assert.match(picker, /❯ 1\. .*tell me about apples/);
    assert.doesNotMatch(picker, /\d\. .*tell me about pears/, 'the session in use is not offered');
    t.keys('Enter');
    const screen = await t.waitFor('resumed session');
    assert.match(screen, /Answer about apples\./);
    assert.doesNotMatch(screen, /pears/, 'the screen starts again with the resumed conversation');
    await t.submit('and apples again?');
    await t.waitFor('Back to apples.');
    const sent = JSON.stringify(model.requests[2].body.messages);
    assert.match(sent, /tell me about apples/);
    assert.doesNotMatch(sent, /pears/);
    const starts = hookEvents(dir).filter((e) => e.hook_event_name === 'SessionStart');
    assert.deepEqual(
      hookEvents(dir)
        .map((e) => `${e.hook_event_name}:${e.source ?? e.reason}`)
        .slice(-3),
      ['SessionStart:startup', 'SessionEnd:other', 'SessionStart:resume'],
    );
    assert.equal(starts.at(-1)?.session_id, starts[0].session_id, 'the resumed session keeps its id');
  } finally {
    t.close();
  }
});

test('/memory with $EDITOR: the chosen file is opened in the editor, the session comes back, and /clear gives the model the new line', async () => {
  const { dir, home } = makeProject({ 'ASSISTANT.md': '# Project rules\n' });
  const editor = join(dir, 'editor.sh');
  writeFileSync(editor, '#!/bin/sh\necho "- Always use tabs (added in the editor)." >> "$1"\n');
  chmodSync(editor, 0o755);
  model.reset();
  model.script(reply('Tabs it is.'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: { ...env(), EDITOR: editor } });
  try {
    await t.waitFor('normal mode');
    await t.submit('/memory');
    const q = await t.waitFor('Open which file?');
    assert.match(q, /Instructions in use:\s+ASSISTANT\.md \(project\)/);
    assert.match(q, /❯ 1\. Project: ASSISTANT\.md/);
    t.keys('Enter');
    await t.waitFor(/Saved ASSISTANT\.md[\s\S]*normal mode/); // the session screen is back after the editor
    assert.equal(readFileSync(join(dir, 'ASSISTANT.md'), 'utf8'), '# Project rules\n- Always use tabs (added in the editor).\n');
    await t.submit('/clear');
    await t.waitGone('Saved ASSISTANT.md');
    await t.submit('what are the rules');
    await t.waitFor('Tabs it is.');
    assert.match(systemPrompt(model.requests[0]) ?? '', /Always use tabs \(added in the editor\)/);
  } finally {
    t.close();
  }
});
