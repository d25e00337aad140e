import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, systemPrompt, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => { model = await startFakeModel(); });
after(async () => { await model.close(); });

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
  assert.ok(order.every((i) => i >= 0), `all present: ${order}`);
  assert.deepEqual([...order].sort((a, b) => a - b), order, 'in order: user, root, import, cwd, local');
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
  const r = await runCli(['-p', 'fix @src/a.ts and see @notes/b.md:1-1', '--permission-mode', 'auto-accept', ...MODEL], { cwd: dir, home, env: env() });
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
