import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, systemPrompt, userTexts, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

type Wire = 'anthropic' | 'openai' | 'openai-chat';
function wireEnv(wire: Wire): { args: string[]; env: Record<string, string> } {
  if (wire === 'anthropic')
    return {
      args: ['--model', 'anthropic:claude-sonnet-4-5'],
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
    };
  return { args: ['--model', `${wire}:gpt-5`], env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.openaiBaseUrl } };
}

const PROJECT = {
  'package.json': '{"name":"demo","scripts":{"test":"node check.js"}}\n',
  'src/greet.js': 'export function greet(name) {\n  return "Hello, " + name;\n}\n',
  'src/farewell.js': 'export function farewell(name) {\n  return "Bye, " + name;\n}\n',
  'check.js':
    'import { readFileSync } from "node:fs";\nconst a = readFileSync("src/greet.js", "utf8");\nconst b = readFileSync("src/farewell.js", "utf8");\nif (!a.includes("Hi, ") || !b.includes("Goodbye, ")) { console.log("FAIL"); process.exit(1); }\nconsole.log("ALL OK");\n',
};

for (const wire of ['anthropic', 'openai', 'openai-chat'] as const) {
  test(`multi-step task over ${wire}: grep, read, edit two files, run a command, answer`, async () => {
    const { dir, home } = makeProject(PROJECT);
    model.reset();
    model.script(
      reply().text('Searching.').tool('Grep', { pattern: 'return', output_mode: 'files_with_matches' }),
      reply().tool('Read', { file_path: 'src/greet.js' }).tool('Read', { file_path: 'src/farewell.js' }),
      reply().tool('Edit', { file_path: 'src/greet.js', old_string: '"Hello, "', new_string: '"Hi, "' }),
      reply().tool('Edit', { file_path: join(dir, 'src/farewell.js'), old_string: '"Bye, "', new_string: '"Goodbye, "' }),
      reply().tool('Bash', { command: 'npm test --silent 2>&1 || node check.js' }),
      reply().text('Both greetings changed and the check passes.'),
    );
    const w = wireEnv(wire);
    const r = await runCli(['-p', 'Change the greetings', '--output-format', 'json', '--permission-mode', 'bypass', ...w.args], {
      cwd: dir,
      home,
      env: w.env,
    });
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.type, 'result');
    assert.equal(result.subtype, 'success');
    assert.equal(result.is_error, false);
    assert.equal(result.result, 'Both greetings changed and the check passes.');
    assert.equal(result.num_turns, 6);
    assert.match(result.session_id, /^[0-9a-f-]{36}$/);
    assert.ok(result.usage.input_tokens > 0);
    assert.deepEqual(result.permission_denials, []);
    assert.match(readFileSync(join(dir, 'src/greet.js'), 'utf8'), /"Hi, "/);
    assert.match(readFileSync(join(dir, 'src/farewell.js'), 'utf8'), /"Goodbye, "/);
    assert.equal(model.requests.length, 6);
    const projects = join(home, '.assistant', 'projects');
    const transcript = join(projects, readdirSync(projects)[0], `${result.session_id}.jsonl`);
    const entries = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const checkpoints = entries.filter((e) => e.type === 'checkpoint');
    assert.deepEqual(checkpoints.map((c) => c.path).sort(), [join(dir, 'src/farewell.js'), join(dir, 'src/greet.js')]);
    assert.match(readFileSync(join(transcript.replace(/\.jsonl$/, '.files'), checkpoints[0].backup), 'utf8'), /Hello, |Bye, /);
    assert.ok(
      model.requests.every(
        (q) => q.format === (wire === 'anthropic' ? 'anthropic' : wire === 'openai' ? 'openai-responses' : 'openai-chat'),
      ),
    );
    const grep = lastToolResults(model.requests[1]);
    assert.match(grep[0].content, /src\/greet\.js/);
    const reads = lastToolResults(model.requests[2]);
    assert.equal(reads.length, 2);
    assert.match(reads[0].content, /1\t.*export function greet/);
    const bash = lastToolResults(model.requests[5]);
    assert.match(bash[0].content, /ALL OK/);
    assert.notEqual(bash[0].isError, true);
    assert.match(systemPrompt(model.requests[0]) ?? '', new RegExp(`Working directory: ${dir}`));
    assert.deepEqual(userTexts(model.requests[0]), ['Change the greetings']);
  });
}

test('headless refuses what would ask, names the flag, lists the denial, and exits 0', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(
    reply().tool('Read', { file_path: 'src/greet.js' }),
    reply().tool('Edit', { file_path: 'src/greet.js', old_string: 'Hello', new_string: 'Hi' }),
    reply().text('I could not edit the file.'),
  );
  const w = wireEnv('anthropic');
  const r = await runCli(['-p', 'edit it', '--output-format', 'json', ...w.args], { cwd: dir, home, env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.equal(result.permission_denials.length, 1);
  assert.equal(result.permission_denials[0].tool_name, 'Edit');
  assert.equal(result.permission_denials[0].tool_input.file_path, 'src/greet.js');
  assert.match(readFileSync(join(dir, 'src/greet.js'), 'utf8'), /Hello/);
  const refusal = lastToolResults(model.requests[2])[0];
  assert.equal(refusal.isError, true);
  assert.match(refusal.content, /--permission-mode auto-accept/);
});

test('Plan Mode refuses edits whatever the model says, and allows plan.md', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(
    reply().tool('Read', { file_path: 'src/greet.js' }),
    reply().tool('Edit', { file_path: 'src/greet.js', old_string: 'Hello', new_string: 'Hi' }).tool('Bash', { command: 'touch leaked' }),
    reply().tool('Write', { file_path: 'plan.md', content: '# Plan\n1. change greet\n' }),
    reply().text('The plan is in plan.md.'),
  );
  const w = wireEnv('anthropic');
  const r = await runCli(['-p', 'plan it', '--permission-mode', 'plan', ...w.args], { cwd: dir, home, env: w.env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'The plan is in plan.md.');
  assert.match(readFileSync(join(dir, 'src/greet.js'), 'utf8'), /Hello/);
  assert.ok(!existsSync(join(dir, 'leaked')));
  assert.match(readFileSync(join(dir, 'plan.md'), 'utf8'), /# Plan/);
  const refused = lastToolResults(model.requests[2]);
  assert.equal(refused.length, 2);
  assert.ok(refused.every((x) => x.isError && /Plan Mode/.test(x.content)));
  assert.match(systemPrompt(model.requests[0]) ?? '', /Plan Mode/);
});

test('stream-json prints init, messages and result as JSON lines', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(reply().tool('LS', { path: '.' }), reply().text('Listed.'));
  const w = wireEnv('openai');
  const r = await runCli(['-p', 'list', '--output-format', 'stream-json', '--verbose', ...w.args], { cwd: dir, home, env: w.env });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines[0].type, 'system');
  assert.equal(lines[0].subtype, 'init');
  assert.equal(lines[0].permissionMode, 'default');
  assert.ok(lines[0].tools.includes('Bash'));
  const toolUse = lines.find((l) => l.type === 'assistant' && l.message.content.some((c: { type: string }) => c.type === 'tool_use'));
  assert.equal(toolUse.message.content.find((c: { type: string }) => c.type === 'tool_use').name, 'LS');
  assert.equal(toolUse.message.model, 'gpt-5', "the model's own id, as the API returns it");
  const toolResult = lines.find((l) => l.type === 'user' && l.message.content[0]?.type === 'tool_result');
  assert.match(toolResult.message.content[0].content, /src\//);
  assert.equal(lines.at(-1).type, 'result');
  assert.equal(lines.at(-1).result, 'Listed.');
  assert.ok(
    lines.every((l) => /^[0-9a-f-]{36}$/.test(l.uuid)),
    'every line has a uuid, as in Claude Code',
  );
  assert.equal(new Set(lines.map((l) => l.uuid)).size, lines.length);
});

test('--max-turns stops a run that still wants tools: exit 1, error_max_turns', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(reply().tool('LS', { path: '.' }), reply().tool('LS', { path: 'src' }));
  const w = wireEnv('anthropic');
  const r = await runCli(['-p', 'x', '--max-turns', '1', '--output-format', 'json', ...w.args], { cwd: dir, home, env: w.env });
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).subtype, 'error_max_turns');
  assert.equal(model.requests.length, 1);
});

test('-c continues the newest session with its history; the transcript holds both prompts', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(reply().text('First answer.'), reply().text('Second answer.'));
  const w = wireEnv('anthropic');
  const first = await runCli(['-p', 'remember 42', '--output-format', 'json', ...w.args], { cwd: dir, home, env: w.env });
  assert.equal(first.code, 0, first.stderr);
  const second = await runCli(['-p', 'what number?', '-c', '--output-format', 'json', ...w.args], { cwd: dir, home, env: w.env });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(JSON.parse(second.stdout).session_id, JSON.parse(first.stdout).session_id);
  assert.deepEqual(userTexts(model.requests[1]), ['remember 42', 'what number?']);
  const projDir = join(home, '.assistant', 'projects');
  const [proj] = readdirSync(projDir);
  const lines = readFileSync(join(projDir, proj, `${JSON.parse(first.stdout).session_id}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.filter((l) => l.type === 'user' && l.message.role === 'user').length, 2);
  const third = await runCli(['-p', 'again', '-r', JSON.parse(first.stdout).session_id.slice(0, 8), ...w.args], {
    cwd: dir,
    home,
    env: w.env,
  });
  assert.notEqual(third.code, 2, third.stderr);
});
