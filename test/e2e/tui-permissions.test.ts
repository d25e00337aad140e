import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
const ASK = 'Do you want to proceed?';

test('an Edit in Normal mode asks; "always" writes the rule to settings.local.json and the next edit does not ask', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'one\ntwo\n' });
  model.reset();
  model.script(
    reply().tool('Read', { file_path: 'a.txt' }),
    reply().tool('Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' }),
    reply('Edited once.'),
    reply().tool('Edit', { file_path: 'a.txt', old_string: 'two', new_string: 'dos' }),
    reply('Edited twice.'),
  );
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('change one');
    const question = await t.waitFor(ASK);
    assert.match(question, /Edit file/);
    // The change as it lands in the file: the file's line numbers, the next line as context.
    assert.match(question, /1 - one/);
    assert.match(question, /1 \+ uno/);
    assert.match(question, /2   two/);
    assert.match(question, /Yes, and don't ask again for Edit\(\/a\.txt\)/);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'one\ntwo\n', 'nothing changes while the question waits');
    t.keys('2');
    const after1 = await t.waitFor('Edited once.');
    assert.match(after1, /Added Edit\(\/a\.txt\) to \.assistant\/settings\.local\.json/);
    assert.match(after1, /● Update\(a\.txt\)/);
    assert.match(after1, /Updated a\.txt with 1 addition and 1 removal/);
    const local = JSON.parse(readFileSync(join(dir, '.assistant', 'settings.local.json'), 'utf8'));
    assert.deepEqual(local.permissions.allow, ['Edit(/a.txt)']);
    assert.match(readFileSync(join(dir, '.gitignore'), 'utf8'), /\.assistant\/settings\.local\.json/);
    await t.waitGone(/Working…/);
    await t.submit('change two');
    const after2 = await t.waitFor('Edited twice.');
    assert.doesNotMatch(after2.slice(after2.indexOf('change two')), new RegExp(ASK), 'the second edit ran without a question');
    assert.doesNotMatch(after2, /changed during the session/, "the session's own rule file write is not reported as an outside change");
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'uno\ndos\n');
  } finally {
    t.close();
  }
});

test('Shift+Tab cycles Normal → Auto-Accept → Plan → Normal; the footer shows it and the decisions follow it', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'one\n' });
  model.reset();
  model.script(
    reply().tool('Read', { file_path: 'a.txt' }),
    reply().tool('Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' }),
    reply('Auto-accepted.'),
    reply().tool('Edit', { file_path: 'a.txt', old_string: 'uno', new_string: 'eins' }),
    reply('Planned only.'),
  );
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('⏵ normal mode');
    t.keys('BTab');
    await t.waitFor('⏵⏵ accept edits on');
    await t.submit('edit it');
    const s1 = await t.waitFor('Auto-accepted.');
    assert.doesNotMatch(s1, new RegExp(ASK));
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'uno\n');
    await t.waitGone(/Working…/);
    t.keys('BTab');
    await t.waitFor('⏸ plan mode on');
    await t.submit('edit it again');
    const s2 = await t.waitFor('Planned only.');
    assert.match(s2, /Plan Mode: Edit a\.txt is refused/);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'uno\n', 'Plan Mode refuses the edit');
    await t.waitGone(/Working…/);
    t.keys('BTab');
    await t.waitFor('⏵ normal mode');
  } finally {
    t.close();
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('Esc during a long Bash call stops it (process tree killed) and the session goes on', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'sleep 60 & echo $! > child.pid; wait' }), reply('Still here.'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('run the slow thing');
    await t.waitFor('Bash command');
    t.keys('1');
    const pidFile = join(dir, 'child.pid');
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await sleep(25);
    await sleep(100);
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(alive(sleeper));
    await t.waitFor(/Running…/);
    t.keys('Escape');
    const s = await t.waitFor('Interrupted · what should assistant do instead?');
    assert.match(s, /Command was interrupted by the user/);
    for (let i = 0; i < 40 && alive(sleeper); i++) await sleep(50);
    assert.equal(alive(sleeper), false, 'the whole process group is killed');
    assert.equal(model.requests.length, 1, 'nothing is sent after the interrupt');
    await t.submit('carry on');
    await t.waitFor('Still here.');
    // Anthropic's wire format joins the interrupted call's result and the new prompt in one user message.
    const messages = model.requests[1].body.messages as Array<{
      role: string;
      content: Array<{ type: string; content?: unknown; text?: string }>;
    }>;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    const last = messages[2].content;
    assert.ok(
      last.some((p) => p.type === 'tool_result' && /interrupted/.test(JSON.stringify(p.content))),
      'the interrupted call has its result; the conversation stays valid',
    );
    assert.ok(last.some((p) => p.type === 'text' && p.text === 'carry on'));
  } finally {
    t.close();
  }
});
