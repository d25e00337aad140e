import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, systemPrompt, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];

function sentText(req: { body: unknown }): string {
  return JSON.stringify((req.body as { messages: unknown }).messages);
}

test('ASSISTANT.md files reach the system prompt in order, with their imports', async () => {
  const { dir, home } = makeProject({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'ASSISTANT.md': '# Root rules\nUse tabs. ROOT-MARKER\n@docs/style.md\n',
    'docs/style.md': 'IMPORTED-STYLE-MARKER\n',
    'pkg/ASSISTANT.md': 'PKG-MARKER\n',
    'pkg/ASSISTANT.local.md': 'LOCAL-MARKER\n',
  });
  mkdirSync(join(home, '.assistant'), { recursive: true });
  writeFileSync(join(home, '.assistant', 'ASSISTANT.md'), 'USER-MARKER\n');
  model.reset();
  model.script(reply().text('ok'));
  const r = await runCli(['-p', 'hi', ...MODEL], { cwd: join(dir, 'pkg'), home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  const sys = systemPrompt(model.requests[0]) ?? '';
  const order = ['USER-MARKER', 'ROOT-MARKER', 'IMPORTED-STYLE-MARKER', 'PKG-MARKER', 'LOCAL-MARKER'].map((m) => sys.indexOf(m));
  assert.ok(
    order.every((i) => i >= 0),
    `all present: ${order}`,
  );
  assert.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
    'in order: user, root, import, cwd, local',
  );
});

test('CLAUDE.md is read when there is no ASSISTANT.md, and the user is told', async () => {
  const { dir, home } = makeProject({ 'CLAUDE.md': 'CLAUDE-MARKER\n' });
  model.reset();
  model.script(reply().text('ok'));
  const r = await runCli(['-p', 'hi', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.match(systemPrompt(model.requests[0]) ?? '', /CLAUDE-MARKER/);
  assert.match(r.stderr, /CLAUDE\.md/);
});

test('@path attaches files and ranges; attached files can be edited without a Read', async () => {
  const { dir, home } = makeProject({ 'src/a.ts': 'line1\nline2\nline3\nline4\n', 'notes/b.md': 'B-CONTENT\n' });
  model.reset();
  model.script(reply().tool('Edit', { file_path: 'src/a.ts', old_string: 'line2', new_string: 'LINE2' }), reply().text('edited'));
  const r = await runCli(['-p', 'fix @src/a.ts and see @notes/b.md:1-1', '--permission-mode', 'auto-accept', ...MODEL], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  const sent = sentText(model.requests[0]);
  assert.match(sent, /line3/);
  assert.match(sent, /B-CONTENT/);
  assert.equal(lastToolResults(model.requests[1])[0].isError, false);
  assert.match(readFileSync(join(dir, 'src/a.ts'), 'utf8'), /LINE2/);
});

test('a missing @path stops the run before anything is sent: exit 2', async () => {
  const { dir, home } = makeProject({ 'src/a.ts': 'x\n' });
  model.reset();
  model.script(reply().text('never'));
  const r = await runCli(['-p', 'look at @src/missing.ts', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /src\/missing\.ts/);
  assert.equal(model.requests.length, 0);
});

test('custom slash commands expand exactly, in both forms, with !`cmd` and @path', async () => {
  const { dir, home } = makeProject({
    '.assistant/commands/review.md':
      '---\ndescription: Review a file\nargument-hint: FILE\nallowed-tools: Bash(echo:*)\n---\nReview $1 carefully. All: $ARGUMENTS\nBranch: !`echo BRANCH-OUTPUT`\n',
    '.assistant/commands/frontend/component.md': 'Make a component named $ARGUMENTS.\n',
    '.assistant/commands/attach.md': 'Look at @src/a.ts\n',
    'src/a.ts': 'ATTACHED-CONTENT\n',
  });
  model.reset();
  model.script(reply().text('1'), reply().text('2'), reply().text('3'), reply().text('4'));
  const a = await runCli(['-p', '/project:review src/a.ts "two words"', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(a.code, 0, a.stderr);
  const b = await runCli(['-p', '/review x', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(b.code, 0, b.stderr);
  const c = await runCli(['-p', '/frontend:component Button', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(c.code, 0, c.stderr);
  const d = await runCli(['-p', '/attach', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(d.code, 0, d.stderr);
  const first = (model.requests[0].body as { messages: Array<{ content: Array<{ text?: string }> }> }).messages[0].content[0].text;
  assert.equal(first, 'Review src/a.ts carefully. All: src/a.ts "two words"\nBranch: BRANCH-OUTPUT');
  assert.match(sentText(model.requests[1]), /Review x carefully/);
  assert.match(sentText(model.requests[2]), /Make a component named Button\./);
  assert.match(sentText(model.requests[3]), /ATTACHED-CONTENT/);
});

test('/help lists custom commands without calling the model; unknown commands suggest', async () => {
  const { dir, home } = makeProject({ '.assistant/commands/review.md': '---\ndescription: Review a file\n---\nReview.\n' });
  model.reset();
  const help = await runCli(['-p', '/help', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /\/review/);
  assert.match(help.stdout, /Review a file/);
  const unknown = await runCli(['-p', '/reviw', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Did you mean \/review/);
  assert.equal(model.requests.length, 0);
});

test('/init lets the model write ASSISTANT.md and nothing else; /memory lists the files', async () => {
  const { dir, home } = makeProject({ 'package.json': '{"scripts":{"test":"node t.js"}}' });
  model.reset();
  model.script(
    reply()
      .tool('Write', { file_path: 'ASSISTANT.md', content: '# Project\nRun tests: npm test\n' })
      .tool('Write', { file_path: 'other.md', content: 'x' }),
    reply().text('Wrote ASSISTANT.md.'),
  );
  const r = await runCli(['-p', '/init', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.match(sentText(model.requests[0]), /write its ASSISTANT\.md/);
  assert.match(readFileSync(join(dir, 'ASSISTANT.md'), 'utf8'), /npm test/);
  const results = lastToolResults(model.requests[1]);
  assert.equal(results[1].isError, true, 'other files stay refused');
  const mem = await runCli(['-p', '/memory', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(mem.code, 0, mem.stderr);
  assert.match(mem.stdout, /ASSISTANT\.md \(project\)/);
});

test("a command's !`cmd` passes PreToolUse hooks like a Bash call: a blocking hook stops it, an allowing one sees the session", async () => {
  const guard =
    '#!/bin/sh\ninput=$(cat)\nprintf "%s\\n" "$input" >> "$CLAUDE_PROJECT_DIR/hook-input.log"\ncase "$input" in *touch*) echo "no touching from commands" >&2; exit 2;; esac\nexit 0\n';
  const { dir, home } = makeProject({
    '.assistant/commands/mk.md': '---\nallowed-tools: Bash(touch:*), Bash(echo:*)\n---\nMade: !`touch made.txt`\n',
    '.assistant/commands/say.md': '---\nallowed-tools: Bash(echo:*)\n---\nSaid: !`echo SAID-IT`\n',
    '.assistant/guard.sh': guard,
    '.assistant/settings.json': JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR/.assistant/guard.sh"' }] }] },
    }),
  });
  model.reset();
  const blocked = await runCli(['-p', '/mk', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(blocked.code, 2, blocked.stderr);
  assert.match(
    blocked.stderr,
    /\/mk runs `touch made\.txt` before the prompt is sent, but a PreToolUse hook blocked it: .*no touching from commands.*Nothing was run\./s,
  );
  assert.equal(existsSync(join(dir, 'made.txt')), false, 'the blocked command did not run');
  assert.equal(model.requests.length, 0, 'nothing was sent');

  model.script(reply().text('ok'));
  const allowed = await runCli(['-p', '/say', '--output-format', 'json', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(sentText(model.requests[0]), /Said: SAID-IT/);
  const inputs = readFileSync(join(dir, 'hook-input.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const said = inputs.find((i) => (i.tool_input as { command?: string }).command === 'echo SAID-IT');
  assert.ok(said, 'the hook saw the command');
  assert.equal(said.tool_name, 'Bash');
  assert.equal(said.hook_event_name, 'PreToolUse');
  assert.equal(
    said.session_id,
    (JSON.parse(allowed.stdout) as { session_id: string }).session_id,
    'the hook saw the id of the session the command opened',
  );
});
