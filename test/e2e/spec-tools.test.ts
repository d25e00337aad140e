/** SPEC §3, §10, §11.2, §14 statements checked end to end by the second QA pass (qa-spec2). */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  startFakeModel,
  reply,
  lastToolResults,
  systemPrompt,
  toolNames,
  type FakeModel,
  type RecordedRequest,
} from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';
import { toolCallsRun } from './tool-calls.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('WebFetch with a URL that is not http(s) is bad input naming the field, not a permission refusal (§3, §11.2)', async () => {
  const { dir, home } = makeProject();
  for (const url of ['file:///etc/passwd', 'not a url', 'ftp://example.com/a']) {
    const r = await toolCallsRun(model, dir, home, [], [['WebFetch', { url, prompt: 'p' }]]);
    assert.match(r.results[0], /^Invalid input for WebFetch:\n- url: .*http:\/\/ or https:\/\//, url);
    assert.deepEqual(r.result.permission_denials, [], url);
    assert.doesNotMatch(r.stderr, /refused/, url);
  }
});

test('Write to a path ending in "/" is refused (it names a directory) instead of creating a file without the slash', async () => {
  const { existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { dir, home } = makeProject();
  const r = await toolCallsRun(model, dir, home, ['--permission-mode', 'auto-accept'], [['Write', { file_path: 'newdir/', content: 'x' }]]);
  assert.match(r.results[0], /directory/);
  assert.equal(existsSync(join(dir, 'newdir')), false);
});

test("an Edit that cannot work (file never read, or missing) says so before any permission question, as Claude Code's validateInput does", async () => {
  const { dir, home } = makeProject({ 'a.txt': 'alpha\n' });
  const r = await toolCallsRun(
    model,
    dir,
    home,
    [],
    [
      ['Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' }],
      ['Edit', { file_path: 'missing.txt', old_string: 'a', new_string: 'b' }],
      ['Write', { file_path: 'a.txt', content: 'gamma\n' }],
    ],
  );
  assert.match(r.results[0], /Read/);
  assert.doesNotMatch(r.results[0], /Permission/);
  assert.match(r.results[1], /does not exist/);
  assert.match(r.results[2], /has not been read|Read it first|read it first/i);
  assert.doesNotMatch(r.results[2], /Permission/);
  assert.deepEqual(r.result.permission_denials, []);
});

test('six Task calls in one message: at most 4 subagents at once; a subagent has no Task tool (depth 1) (§14)', async () => {
  const { dir, home } = makeProject();
  const isSub = (r: RecordedRequest) => /carry out one task on its behalf/.test(systemPrompt(r) ?? '');
  model.reset();
  let inflight = 0;
  let max = 0;
  let first = true;
  const subTools: string[][] = [];
  model.onRequest(async (req) => {
    if (!isSub(req)) return undefined;
    subTools.push(toolNames(req));
    if ((req.body.messages as unknown[]).length > 1) return reply('AFTER-NESTED');
    if (first) {
      first = false;
      return reply().tool('Task', { description: 'nested', prompt: 'nest' });
    }
    inflight++;
    max = Math.max(max, inflight);
    await sleep(300);
    inflight--;
    return reply('REPORT');
  });
  let calls = reply();
  for (let i = 0; i < 6; i++) calls = calls.tool('Task', { description: `t${i}`, prompt: `do ${i}`, subagent_type: 'general-purpose' });
  model.script(calls, reply('Done.'));
  const r = await runCli(['-p', 'go', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(max, 4, 'four subagents ran at once, never more');
  assert.ok(
    subTools.every((t) => !t.includes('Task')),
    'no subagent is offered Task',
  );
  const nested = model.requests.find((q) => isSub(q) && (q.body.messages as unknown[]).length > 1)!;
  assert.match(String(lastToolResults(nested)[0].content), /no tool named "Task"/);
  const reports = lastToolResults(model.requests.at(-1)!).map((x) => x.content);
  assert.equal(reports.length, 6);
  assert.equal(reports.filter((x) => x === 'REPORT').length, 5);
});
