/**
 * The Task tool end to end (SPEC §14): subagents run through the same loop, rules and hooks as
 * the session, concurrently, and their reports reach the parent. The fake model tells the parent
 * from each subagent by the system prompt it receives.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startFakeModel,
  reply,
  hang,
  lastToolResults,
  systemPrompt,
  toolNames,
  type FakeModel,
  type RecordedRequest,
  type Step,
} from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { hookEvents, LOG_HOOK, runCli, startCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const ENV = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const ARGS = ['--model', 'anthropic:claude-sonnet-4-5'];
const isExplore = (r: RecordedRequest) => /read-only search agent/.test(systemPrompt(r) ?? '');
const isGeneral = (r: RecordedRequest) => /carry out one task on its behalf/.test(systemPrompt(r) ?? '');
const isParent = (r: RecordedRequest) => /^You are assistant/.test(systemPrompt(r) ?? '');
const turnOf = (r: RecordedRequest) => (r.body.messages as unknown[]).length;

function transcriptEntries(home: string): Array<Record<string, any>> {
  const projDir = join(home, '.assistant', 'projects');
  const [proj] = readdirSync(projDir);
  const file = readdirSync(join(projDir, proj)).find((f) => f.endsWith('.jsonl'))!;
  return readFileSync(join(projDir, proj, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

test('two Task calls in one message run concurrently, each with its own prompt and tools, and the parent gets both reports', async () => {
  const { dir, home } = makeProject({ 'src/a.ts': 'export const needle = 1;\n' });
  model.reset();
  // Each subagent's first request waits for the other's: run one after the other, they would never finish.
  let release!: () => void;
  const both = new Promise<void>((r) => {
    release = r;
  });
  let firsts = 0;
  const barrier = async (step: Step): Promise<Step> => {
    if (++firsts === 2) release();
    await both;
    return step;
  };
  model.onRequest((req) => {
    if (isExplore(req))
      return turnOf(req) === 1
        ? () =>
            barrier(reply().tool('Grep', { pattern: 'needle' }).tool('Edit', { file_path: 'src/a.ts', old_string: '1', new_string: '2' }))
        : reply('EXPLORE-REPORT: needle is in src/a.ts');
    if (isGeneral(req))
      return turnOf(req) === 1 ? () => barrier(reply().tool('Read', { file_path: 'src/a.ts' })) : reply('GENERAL-REPORT: read it');
    return undefined;
  });
  model.script(
    reply()
      .text('Delegating.')
      .tool('Task', { description: 'find needle', prompt: 'Find the needle.', subagent_type: 'explore' }, { id: 'toolu_task_1' })
      .tool('Task', { description: 'read a', prompt: 'Read src/a.ts.', subagent_type: 'general-purpose' }, { id: 'toolu_task_2' }),
    reply('Both done.'),
  );
  const r = await runCli(['-p', 'investigate', '--output-format', 'stream-json', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const parents = model.requests.filter(isParent);
  assert.equal(parents.length, 2);
  const results = lastToolResults(parents[1]);
  assert.match(results.find((x) => x.toolUseId === 'toolu_task_1')!.content, /EXPLORE-REPORT/);
  assert.match(results.find((x) => x.toolUseId === 'toolu_task_2')!.content, /GENERAL-REPORT/);
  assert.ok(toolNames(parents[0]).includes('Task') && toolNames(parents[0]).includes('TodoWrite'));
  // Their own system prompts and tools; no Task inside (depth 1).
  const explore = model.requests.filter(isExplore);
  const general = model.requests.filter(isGeneral);
  assert.equal(explore.length, 2);
  assert.equal(general.length, 2);
  assert.deepEqual(toolNames(explore[0]).sort(), ['Glob', 'Grep', 'LS', 'Read']);
  assert.ok(toolNames(general[0]).includes('Bash') && !toolNames(general[0]).includes('Task'));
  assert.match(JSON.stringify(explore[0].body.messages), /Find the needle/);
  // The explore agent's Edit is refused: it has no such tool.
  const edit = lastToolResults(explore[1]).find((x) => /Edit/.test(x.content));
  assert.match(edit!.content, /no tool named "Edit"/);
  assert.equal(readFileSync(join(dir, 'src/a.ts'), 'utf8'), 'export const needle = 1;\n');
  // stream-json marks the subagents' messages with the Task call's id.
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const marked = lines.filter((l) => l.parent_tool_use_id === 'toolu_task_1');
  assert.ok(marked.some((l) => l.type === 'assistant' && JSON.stringify(l).includes('EXPLORE-REPORT')));
  assert.ok(lines.some((l) => l.parent_tool_use_id === 'toolu_task_2'));
  const result = lines.at(-1);
  assert.equal(result.type, 'result');
  assert.equal(result.num_turns, 6, "the subagents' four turns count in the result");
  // Each subagent's transcript is kept beside the session's and linked from it.
  const links = transcriptEntries(home).filter((e) => e.type === 'subagent');
  assert.equal(links.length, 2);
  for (const l of links) {
    assert.ok(existsSync(l.path), l.path);
    const sub = readFileSync(l.path, 'utf8')
      .trim()
      .split('\n')
      .map((x) => JSON.parse(x));
    assert.equal(sub[0].type, 'session');
    assert.equal(sub.at(-1).type, 'result');
  }
});

test('inside a subagent, deny rules and PreToolUse hooks refuse calls; hooks name the agent; SubagentStop fires', async () => {
  const { dir, home } = makeProject({ 'notes.txt': 'hello\n' });
  mkdirSync(join(dir, '.assistant'), { recursive: true });
  writeFileSync(
    join(dir, 'guard.sh'),
    '#!/bin/sh\ninput=$(cat)\ncase "$input" in *notes.txt*) echo "guard: notes are private" >&2; exit 2;; esac\nexit 0\n',
  );
  chmodSync(join(dir, 'guard.sh'), 0o755);
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({
      permissions: { deny: ['Bash(echo:*)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: './guard.sh' }] }, { hooks: [LOG_HOOK] }],
        SubagentStop: [{ hooks: [LOG_HOOK] }],
      },
    }),
  );
  model.reset();
  model.onRequest((req) => {
    if (!isGeneral(req)) return undefined;
    return turnOf(req) === 1 ? reply().tool('Bash', { command: 'echo hi' }).tool('Read', { file_path: 'notes.txt' }) : reply('REPORT');
  });
  model.script(reply().tool('Task', { description: 'x', prompt: 'Do it.', subagent_type: 'general-purpose' }), reply('ok'));
  const r = await runCli(['-p', 'go', '--permission-mode', 'bypass', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /⎿ general-purpose: Bash\(echo hi\): refused\n/, "text output shows the subagent's calls under the Task call");
  const sub = model.requests.filter(isGeneral);
  const res = lastToolResults(sub[1]);
  assert.match(res[0].content, /denied by the rule "Bash\(echo:\*\)"/);
  assert.match(res[1].content, /guard: notes are private/);
  const events = hookEvents(dir);
  const pre = events.filter((e) => e.hook_event_name === 'PreToolUse' && e.tool_name !== 'Task');
  assert.ok(pre.length >= 2);
  assert.equal(events.find((e) => e.tool_name === 'Task')!.agent_type, undefined, "the parent's own call names no agent");
  for (const e of pre) {
    assert.equal(e.agent_type, 'general-purpose');
    assert.ok(e.agent_id);
  }
  const stop = events.find((e) => e.hook_event_name === 'SubagentStop');
  assert.ok(stop, 'SubagentStop fired');
  assert.equal(stop.agent_type, 'general-purpose');
  assert.equal(stop.stop_hook_active, false);
  assert.ok(existsSync(stop.agent_transcript_path));
});

test('a blocking SubagentStop hook sends the subagent back to work', async () => {
  const { dir, home } = makeProject();
  mkdirSync(join(dir, '.assistant'), { recursive: true });
  writeFileSync(
    join(dir, 'stop.sh'),
    '#!/bin/sh\ngrep -q \'"stop_hook_active":false\' && { echo "check the tests too" >&2; exit 2; }\nexit 0\n',
  );
  chmodSync(join(dir, 'stop.sh'), 0o755);
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({
      hooks: {
        SubagentStop: [
          { matcher: 'explore', hooks: [{ type: 'command', command: './stop.sh' }] },
          { matcher: 'general-purpose', hooks: [{ type: 'command', command: 'echo never >&2; exit 2' }] },
        ],
      },
    }),
  );
  model.reset();
  model.onRequest((req) => (isExplore(req) ? reply(turnOf(req) === 1 ? 'FIRST' : 'SECOND') : undefined));
  model.script(reply().tool('Task', { description: 'x', prompt: 'Look.', subagent_type: 'explore' }), reply('ok'));
  const r = await runCli(['-p', 'go', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const sub = model.requests.filter(isExplore);
  assert.equal(sub.length, 2);
  assert.match(JSON.stringify(sub[1].body.messages), /check the tests too/);
  assert.match(lastToolResults(model.requests.filter(isParent)[1])[0].content, /SECOND/);
});

test('subagent turns count against --max-turns', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'a\n' });
  model.reset();
  model.onRequest((req) => (isExplore(req) ? reply().tool('Read', { file_path: 'a.txt' }) : undefined));
  model.script(reply().tool('Task', { description: 'x', prompt: 'Loop.', subagent_type: 'explore' }), reply('never'));
  const r = await runCli(['-p', 'go', '--max-turns', '4', '--output-format', 'json', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 1, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.subtype, 'error_max_turns');
  assert.equal(model.requests.length, 4);
  assert.equal(json.num_turns, 4);
});

test('SIGINT stops running subagents with the parent', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.onRequest((req) => (isExplore(req) ? hang() : undefined));
  model.script(
    reply()
      .tool('Task', { description: 'a', prompt: 'A.', subagent_type: 'explore' })
      .tool('Task', { description: 'b', prompt: 'B.', subagent_type: 'explore' }),
    reply('never'),
  );
  const child = startCli(['-p', 'go', ...ARGS], { cwd: dir, home, env: ENV() });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  await model.waitForRequests(3, 10_000);
  child.kill('SIGINT');
  assert.equal(await exited, 130, stderr);
  assert.equal(model.requests.length, 3, 'nothing more is sent after the interrupt');
});

test('custom agents: front matter read, bad lines reported with file and line, .claude/agents used when there is no .assistant/agents', async () => {
  const { dir, home } = makeProject({
    '.claude/agents/reviewer.md':
      '---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Frob\ncolour: red\n---\nYou are REVIEWER-PROMPT.\n',
  });
  model.reset();
  model.onRequest((req) => (/REVIEWER-PROMPT/.test(systemPrompt(req) ?? '') ? reply('REVIEWED') : undefined));
  model.script(reply().tool('Task', { description: 'x', prompt: 'Review.', subagent_type: 'reviewer' }), reply('ok'));
  const r = await runCli(['-p', 'go', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const sub = model.requests.find((q) => /REVIEWER-PROMPT/.test(systemPrompt(q) ?? ''))!;
  assert.deepEqual(toolNames(sub).sort(), ['Grep', 'Read']);
  assert.match(r.stderr, /reviewer\.md:4: tools: Frob is not a tool/);
  assert.match(r.stderr, /reviewer\.md:5: unknown key "colour"/);
  assert.match(r.stderr, /\.claude\/agents/);
  assert.match(JSON.stringify(model.requests[0].body.tools), /reviewer: Reviews diffs/);
});

test('/agents lists the built-in and custom agents, headless too', async () => {
  const { dir, home } = makeProject({
    '.assistant/agents/tester.md': '---\ndescription: Writes tests\ntools: [Read, Write]\nmodel: inherit\n---\nYou write tests.\n',
  });
  const r = await runCli(['-p', '/agents'], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /general-purpose/);
  assert.match(r.stdout, /explore[\s\S]*tools: Read, Grep, Glob, LS/);
  assert.match(r.stdout, /tester\s+Writes tests\n\s+project: .*tester\.md; tools: Read, Write\n/);
});

test('TodoWrite is a tool call in stream-json, refuses two items in progress, and needs no permission headless', async () => {
  const { dir, home } = makeProject();
  mkdirSync(join(dir, '.assistant'), { recursive: true });
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'TodoWrite', hooks: [LOG_HOOK] }] } }),
  );
  model.reset();
  const item = (content: string, status: string) => ({ content, activeForm: `${content}ing`, status });
  model.script(
    reply().tool('TodoWrite', { todos: [item('Plan', 'in_progress'), item('Do', 'in_progress')] }, { id: 'toolu_todo_bad' }),
    reply().tool('TodoWrite', { todos: [item('Plan', 'completed'), item('Do', 'in_progress')] }, { id: 'toolu_todo_ok' }),
    reply().tool('TodoWrite', { todos: [item('Plan', 'completed'), item('Do', 'completed')] }, { id: 'toolu_todo_done' }),
    reply('listed'),
  );
  const r = await runCli(['-p', 'plan it', '--output-format', 'stream-json', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const uses = lines.flatMap((l) => (l.type === 'assistant' ? l.message.content.filter((c: any) => c.type === 'tool_use') : []));
  assert.deepEqual(
    uses.map((u: any) => u.name),
    ['TodoWrite', 'TodoWrite', 'TodoWrite'],
  );
  const results = lines.flatMap((l) => (l.type === 'user' ? l.message.content : []));
  assert.match(results.find((c: any) => c.tool_use_id === 'toolu_todo_bad').content, /at most one task may be in_progress/);
  assert.equal(results.find((c: any) => c.tool_use_id === 'toolu_todo_ok').is_error, false);
  assert.deepEqual(lines.at(-1).permission_denials, []);
  // PostToolUse's tool_response names the list before and after each call, as Claude Code's does.
  const posts = hookEvents(dir).filter((e) => e.hook_event_name === 'PostToolUse');
  assert.deepEqual(
    posts.map((e) => e.tool_response),
    [
      { oldTodos: [], newTodos: [item('Plan', 'completed'), item('Do', 'in_progress')] },
      { oldTodos: [item('Plan', 'completed'), item('Do', 'in_progress')], newTodos: [item('Plan', 'completed'), item('Do', 'completed')] },
    ],
  );
});
