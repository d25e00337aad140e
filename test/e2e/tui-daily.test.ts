import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startFakeModel, reply, stall, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

// The terminal UI as a daily user lives in it, side by side with Claude Code: what is drawn, how
// the input edits, what the questions offer. Each session packs several checks.

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const lines = (screen: string) => screen.split('\n');
/** The rows of the input box (between its borders), without the borders. */
const inputRows = (screen: string) => {
  const rows = lines(screen);
  const top = rows.findLastIndex((l) => /^╭─+╮$/.test(l));
  const bottom = rows.findLastIndex((l) => /^╰─+╯$/.test(l));
  return rows.slice(top + 1, bottom).map((l) => l.replace(/^│ /, '').replace(/ *│$/, ''));
};
const LONE_SURROGATE = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

const ANSWER = [
  '1. First, the list.',
  '2. Then more.',
  '',
  '> A quoted remark, long enough that it has to wrap at eighty columns, and then goes on a little more.',
  '> Its second line.',
  '',
  ...['mermaid', 'vue', 'svelte', 'graphql', 'hcl', 'env', 'jsonc', 'csv', 'log'].flatMap((l) => ['```' + l, `${l} code here`, '```', '']),
  'The end.',
].join('\n');

test('answers: plain code for unknown languages and a fence cut mid-stream, ▎ quotes, a list at the text column; input: graphemes, two keys in one read, wrapping, the caret, hints; the title', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply(ANSWER), stall(reply('Here:\n\n```j'), { after: 4 }), reply('noted'));
  const t = TmuxCli.start(MODEL, { cwd: dir, home, env: env(), width: 80, height: 60 });
  try {
    await t.waitFor('normal mode');
    assert.match(t.title(), new RegExp(`^${basename(dir)}$`), 'the title names the project');
    await t.submit('show me');
    const shown = await t.waitFor('The end.');
    assert.doesNotMatch(t.scrollback(), /Could not find the language|did you forget/);
    assert.match(shown, /^● 1\. First, the list\.\n {2}2\. Then more\./m, 'the list starts at the text column');
    const quoted = lines(shown).filter((l) => /^ {2}▎/.test(l));
    assert.equal(quoted.length, 3, `▎ on each line of the quote, wrapped:\n${shown}`);
    assert.ok(quoted.every((l) => l.length <= 80));
    assert.match(shown, /▎ Its second line\./);
    for (const l of ['mermaid', 'vue', 'graphql', 'log']) assert.match(shown, new RegExp(`^ {4}${l} code here$`, 'm'), l);
    await t.waitGone(/Working…/);
    assert.match(t.title(), new RegExp(`^show me · ${basename(dir)}$`), "then the session's first prompt");

    // A fence cut after its language, while the answer streams: no highlighter error.
    await t.submit('cut it');
    await t.waitFor(/^● Here:/m);
    assert.match(t.title(), /^✻ /, 'marked while working');
    assert.doesNotMatch(t.scrollback(), /Could not find the language/);
    t.keys('Escape');
    await t.waitFor('Interrupted');
    await t.waitGone(/Working…/);

    // x🎉y, ←, Backspace: the whole emoji goes; what is sent has no lone surrogate.
    t.type('x🎉y');
    await t.waitUntil((s) => inputRows(s)[0]?.startsWith('> x🎉y'), 'typed');
    t.keys('Left', 'BSpace');
    await t.waitUntil((s) => /^> xy/.test(inputRows(s)[0] ?? ''), 'the emoji deleted whole');
    // Two control keys in one read: C-w C-w deletes two words, C-a C-k the line.
    t.keys('End');
    t.type(' one two three');
    await t.waitFor('xy one two three');
    t.keys('C-w', 'C-w');
    await t.waitUntil((s) => (inputRows(s)[0] ?? '').trimEnd() === '> xy one', 'two words deleted');
    t.keys('C-a', 'C-k');
    await t.waitUntil((s) => /^> {2}Try/.test(inputRows(s)[0] ?? ''), 'the line cleared');

    // A long prompt wraps under its text; ↑ moves up a row before the history; the caret is the terminal's cursor.
    t.type('你好 please read the whole parser module and tell me which functions are longer than fifty lines');
    const wrapped = await t.waitUntil((s) => inputRows(s).length === 2, 'wrapped');
    const [first, second] = inputRows(wrapped);
    assert.match(first, /^> 你好 please/);
    assert.match(second, /^ {2}\S/, 'the second row continues under the text');
    const rowOf = (s: string) => lines(s).findIndex((l) => l.includes(second.trim()));
    let c = t.cursor();
    assert.equal(c.y, rowOf(wrapped), "the cursor is on the caret's row");
    assert.equal(c.x, 2 + second.length, 'and after the last character');
    t.keys('Up');
    await t.waitUntil(() => t.cursor().y === rowOf(wrapped) - 1, '↑ moves up a row (not to the history)');
    t.type('Z');
    const edited = await t.waitUntil((s) => inputRows(s)[0]?.includes('Z') ?? false, 'typed on the first row');
    assert.match(inputRows(edited)[0], /^> 你好 please/);
    c = t.cursor();
    const zRow = lines(edited)[c.y];
    assert.equal([...zRow.slice(0, c.x)].length <= zRow.length, true);
    assert.match(zRow, /Z/, 'the cursor is on the row with the Z');

    // Prompt-lint hints: after a pause, only what matters.
    t.keys('C-a', 'C-k');
    t.keys('Up', 'C-a', 'C-k');
    await t.waitUntil((s) => /^> {2}Try/.test(inputRows(s)[0] ?? ''), 'cleared');
    t.type('why does it crash');
    await t.waitFor('hint: a debugging prompt with no file, no line and no symptom');
    t.keys('C-u');
    await t.waitGone('hint:');
    assert.equal(model.requests.length, 2, 'nothing was sent meanwhile');
    await t.submit('x🎉y');
    await t.waitFor(/^● noted/m);
    assert.doesNotMatch(JSON.stringify(model.requests[2].body), LONE_SURROGATE);
    t.keys('C-d');
    await t.waitFor(/\[exit 0\]/);
    assert.doesNotMatch(t.title(), new RegExp(basename(dir)), 'the title is given back on exit');
  } finally {
    t.close();
  }
});

test("tools and questions: reads grouped, interrupted output folded at 5, a long change scrolled in its question with a bell, a pipeline's rules and reason, Ctrl-O over every prompt, a picker that filters", async () => {
  const numbered = (f: (i: number) => string) => `${Array.from({ length: 60 }, (_, i) => f(i + 1)).join('\n')}\n`;
  const { dir, home } = makeProject({
    'big.txt': numbered((i) => `line ${i}`),
    'src/a.ts': 'export const a = 1;\n',
    'src/b.ts': 'export const b = 2;\n',
    '.assistant/settings.json': JSON.stringify({ ui: { bell: true } }),
  });
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'notes', 'my notes.txt'), 'b\na\n');
  const pipeline = `sed -n "1,2p" 'notes/my notes.txt' | sort | uniq -c | npx prettier --check .`;
  model.reset();
  model.script(
    reply('Looking.').tool('Grep', { pattern: 'export' }),
    reply().tool('Read', { file_path: 'src/a.ts' }),
    reply().tool('Read', { file_path: 'src/b.ts' }),
    reply().tool('Glob', { pattern: '**/*.ts' }),
    reply('Found them.'),
    reply().tool('Bash', { command: 'seq 1 30; touch started; sleep 30' }),
    reply().tool('Read', { file_path: 'big.txt' }),
    reply().tool('Write', { file_path: 'big.txt', content: numbered((i) => `LINE ${i}`) }),
    reply('Rewritten.'),
    reply().tool('Bash', { command: pipeline }),
  );
  const t = TmuxCli.start([...MODEL, '--allowed-tools', 'Bash(seq:*)', 'Bash(touch:*)', 'Bash(sleep:*)'], {
    cwd: dir,
    home,
    env: env(),
    width: 100,
    height: 40,
  });
  try {
    await t.waitFor('normal mode');
    await t.submit('look around');
    const looked = await t.waitFor(/^● Found them\./m);
    assert.match(looked, /^● Searched for 2 patterns, read 2 files \(ctrl\+o to expand\)$/m);
    assert.doesNotMatch(looked, /Read\(src\/a\.ts\)/);
    await t.waitGone(/Working…/);

    await t.submit('count');
    await t.waitUntil(() => existsSync(join(dir, 'started')), 'the command ran');
    t.keys('Escape');
    const stopped = await t.waitFor('interrupted by the user and killed');
    assert.match(
      stopped,
      /^ {5}5\n {5}… \+25 lines \(ctrl\+o to expand\)\n {5}Command was interrupted by the user and killed\.$/m,
      'folded at 5 lines, how it ended kept',
    );
    await t.waitGone(/Working…/);

    assert.equal(t.rang(), false);
    await t.submit('rewrite big.txt');
    const asked = await t.waitFor('Do you want to proceed?');
    assert.ok(t.rang(), 'the bell rang (ui.bell)');
    assert.match(t.title(), /^✋ /, 'the title says a question waits');
    const m = /… \+(\d+) lines \(ctrl\+o to expand\)/.exec(asked);
    assert.ok(m, asked);
    assert.match(asked, /│ Write file +│\n│ +│\n│ +big\.txt/, 'the whole question is on the screen, its heading included');
    const room = 120 - Number(m[1]);
    t.keys('C-o');
    await t.waitFor(`lines 1–${room} of 120`);
    t.keys('PageDown');
    const scrolled = await t.waitFor(`lines ${room + 1}–${2 * room} of 120`);
    assert.match(scrolled, new RegExp(`${room + 1} [-+] `));
    t.keys('1');
    await t.waitFor(/^● Rewritten\./m);
    await t.waitGone(/Working…/);

    await t.submit('pipeline');
    const q = await t.waitFor('Do you want to proceed?');
    assert.match(
      q.replace(/\s*│\n│\s*/g, ' '),
      /`sed -n "1,2p" 'notes\/my notes\.txt'` is not allowed by any rule/,
      'the reason keeps the quoting',
    );
    assert.match(
      q.replace(/\s*│\n│\s*/g, ' '),
      /2\. Yes, and don't ask again for Bash\(sed:\*\), Bash\(sort:\*\), Bash\(uniq:\*\), Bash\(npx prettier:\*\) in this project/,
    );
    t.keys('Escape');
    await t.waitGone('Do you want to proceed?');
    await t.waitGone(/Working…/);

    // Ctrl-O: every prompt's folded output, shown once (the screen is printed anew), then folded again.
    t.keys('C-o');
    await t.waitFor('ctrl+o to fold');
    await t.waitUntil(() => /Read\(src\/a\.ts\)/.test(t.scrollback()), 'the history printed unfolded');
    const detail = t.scrollback();
    assert.match(detail, /^ {5}29\n {5}30$/m, 'the interrupted output whole');
    assert.match(detail, /Read\(src\/a\.ts\)/, "the group's calls");
    assert.match(detail, /Grep\("export"\)/);
    assert.equal(detail.split('seq 1 30').length - 1, 1, `one copy of the call:\n${detail}`);
    t.keys('C-o');
    await t.waitGone('ctrl+o to fold');
    await t.waitUntil(() => /Searched for 2 patterns, read 2 files/.test(t.scrollback()), 'the history printed folded again');
    const folded = t.scrollback();
    assert.equal(folded.split('seq 1 30').length - 1, 1);

    // Typing in a picker filters it, where it can be seen.
    await t.submit('/mode');
    await t.waitFor('Mode (now: normal)');
    t.type('pla');
    const filtered = await t.waitFor('Filter: pla');
    assert.match(filtered, /❯ \d\. plan/);
    assert.doesNotMatch(filtered, /\d\. auto-accept/);
    t.keys('Enter');
    await t.waitFor('plan mode on');
  } finally {
    t.close();
  }
});
