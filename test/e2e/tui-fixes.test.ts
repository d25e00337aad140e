import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, systemPrompt, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

// The terminal UI findings of audit 5, each as the user met it.

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const inputLine = (screen: string) =>
  screen
    .split('\n')
    .filter((l) => l.startsWith('│ >'))
    .at(-1) ?? '';

test('↑/↓ browse history past a slash command; Shift+Enter (CSI-u and xterm forms) is a new line', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('hi there'), reply('got three lines'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env() });
  try {
    await t.waitFor('normal mode');
    await t.submit('/cost');
    await t.waitFor('Total cost');
    await t.submit('hello');
    await t.waitFor('hi there');
    await t.waitGone(/Working…/);
    t.keys('Up');
    await t.waitUntil((s) => /> hello/.test(inputLine(s)), 'hello recalled');
    t.keys('Up');
    const cost = await t.waitUntil((s) => /> \/cost/.test(inputLine(s)), '/cost recalled');
    assert.doesNotMatch(cost, /❯ \/cost/, 'no menu for a recalled command');
    t.keys('Down');
    await t.waitUntil((s) => /> hello/.test(inputLine(s)), '↓ leaves /cost');
    t.keys('Down');
    await t.waitUntil((s) => !/> (hello|\/cost)/.test(inputLine(s)), 'back to the empty draft');
    t.type('abc');
    t.type('\x1b[13;2u');
    t.type('def');
    t.type('\x1b[27;2;13~');
    t.type('ghi');
    const typed = await t.waitFor(/│ {3}ghi/);
    assert.match(typed, /│ > abc +│\n│ {3}def +│\n│ {3}ghi/);
    assert.equal(model.requests.length, 1, 'Shift+Enter sent nothing');
    t.keys('Enter');
    await t.waitFor('got three lines');
    assert.match(JSON.stringify(model.requests[1].body.messages), /abc\\ndef\\nghi/);
  } finally {
    t.close();
  }
});

test("the answer keeps the model's line breaks; a long diff counts every line and Ctrl-O shows it whole", async () => {
  const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
  const afterText = Array.from({ length: 40 }, (_, i) => `LINE ${i}`).join('\n');
  const { dir, home } = makeProject({ 'f.txt': `${before}\n` });
  model.reset();
  model.script(
    reply('Summary of the run:\nTests: 12 passed\nLint: clean\nBuild: ok'),
    reply('Read.').tool('Read', { file_path: 'f.txt' }),
    reply('Big edit.').tool('Edit', { file_path: 'f.txt', old_string: before, new_string: afterText }),
    reply('done'),
  );
  const t = TmuxCli.start(['--permission-mode', 'auto-accept', ...MODEL], { cwd: dir, home, env: env(), height: 50 });
  try {
    await t.waitFor('accept edits on');
    await t.submit('report');
    const s = await t.waitFor('Build: ok');
    assert.match(s, /● Summary of the run:\n {2}Tests: 12 passed\n {2}Lint: clean\n {2}Build: ok/);
    await t.waitGone(/Working…/);
    await t.submit('edit it');
    const d = await t.waitFor(/^● done/m);
    assert.match(d, /Updated f\.txt with 40 additions and 40 removals/);
    assert.match(d, /… \+56 lines/);
    await t.waitGone(/Working…/);
    t.keys('C-o');
    const whole = await t.waitFor(/40 \+ LINE 39/);
    assert.doesNotMatch(whole, /more diff lines/);
  } finally {
    t.close();
  }
});

test('/init then /memory and the next request see ASSISTANT.md; an idle settings change is shown at once and, once kept in /hooks, not again', async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': '{}' });
  model.reset();
  model.script(
    reply('Writing it.').tool('Write', { file_path: 'ASSISTANT.md', content: '# Project\n\nUse npm test.\n' }),
    reply('init done'),
    reply('x'),
  );
  const t = TmuxCli.start(['--permission-mode', 'auto-accept', ...MODEL], {
    cwd: dir,
    home,
    env: { ...env(), EDITOR: undefined, VISUAL: undefined },
  }); // npm test sets EDITOR: /memory would open it
  try {
    await t.waitFor('accept edits on');
    await t.submit('/init');
    await t.waitFor('init done');
    await t.waitGone(/Working…/);
    await t.submit('/memory');
    const m = await t.waitFor('Instructions in use');
    assert.match(m, /ASSISTANT\.md \(project\)/);
    assert.doesNotMatch(m, /No ASSISTANT\.md yet/);
    writeFileSync(join(dir, '.assistant', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }));
    await t.waitFor(/settings\.json changed during the session/, 5000);
    await t.submit('/hooks');
    await t.waitFor('Use the new hooks and rules');
    t.keys('2');
    await t.waitFor('Kept the hooks and rules');
    await t.submit('next');
    const after = await t.waitFor(/^● x/m);
    assert.match(after, /> next/);
    assert.doesNotMatch(after.split('> next')[1], /changed during the session/, 'not reported again at the next prompt');
    assert.match(systemPrompt(model.requests[2]) ?? '', /Use npm test\./);
  } finally {
    t.close();
  }
});
