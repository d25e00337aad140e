/** Mismatches with SPEC §11, §14 and §15 found by black-box QA (qa2). */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});
const ENV = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const ARGS = ['--model', 'anthropic:claude-sonnet-4-5'];

test('a headless refusal of a protected path says what to do, not "run again with" a sentence (§11.16)', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'echo x > .git/hooks/pre-commit' }), reply('done'));
  const r = await runCli(['-p', 'go', '--permission-mode', 'bypass', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const result = lastToolResults(model.requests[1])[0].content;
  assert.match(result, /git hooks/);
  assert.match(result, /To allow it, make the change yourself, outside the assistant\./);
  assert.match(r.stderr, /refused \(Bash\)/);
  assert.doesNotMatch(r.stderr + result, /run again with make/);
});

test('Task finds an agent whatever the case of subagent_type ("Explore", as Claude Code names it)', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.onRequest((req) => (/read-only search agent/.test(JSON.stringify(req.body.system ?? '')) ? reply('EXPLORED') : undefined));
  model.script(reply().tool('Task', { description: 'look', prompt: 'Look.', subagent_type: 'Explore' }), reply('done'));
  const r = await runCli(['-p', 'go', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const last = model.requests.at(-1)!;
  assert.equal(lastToolResults(last)[0].content, 'EXPLORED');
});

test("Task without subagent_type runs general-purpose; PostToolUse sees Claude Code's Task response fields", async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { hookEvents, LOG_HOOK } = await import('./cli.ts');
  const { dir, home } = makeProject();
  mkdirSync(join(dir, '.assistant'), { recursive: true });
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Task', hooks: [LOG_HOOK] }] } }),
  );
  model.reset();
  model.onRequest((req) =>
    /carry out one task on its behalf/.test(JSON.stringify(req.body.system ?? '')) ? reply('GP-REPORT') : undefined,
  );
  model.script(reply().tool('Task', { description: 'do', prompt: 'Do it.' }), reply('done'));
  const r = await runCli(['-p', 'go', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(lastToolResults(model.requests.at(-1)!)[0].content, 'GP-REPORT');
  const resp = hookEvents(dir).find((e) => e.hook_event_name === 'PostToolUse')!.tool_response;
  assert.equal(resp.status, 'completed');
  assert.equal(resp.prompt, 'Do it.');
  assert.equal(resp.agentType, 'general-purpose');
  assert.ok(resp.agentId);
  assert.deepEqual(resp.content, [{ type: 'text', text: 'GP-REPORT' }]);
  assert.equal(typeof resp.totalDurationMs, 'number');
  assert.equal(resp.totalTokens, resp.usage.input_tokens + resp.usage.output_tokens);
  assert.ok(resp.totalTokens > 0);
});

test("WebFetch's PostToolUse tool_response has Claude Code's fields (url, code, codeText, bytes, result, durationMs)", async () => {
  const http = await import('node:http');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { hookEvents, LOG_HOOK } = await import('./cli.ts');
  const site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello page');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(site.address() as { port: number }).port}/p`;
    const { dir, home } = makeProject();
    mkdirSync(join(dir, '.assistant'), { recursive: true });
    writeFileSync(
      join(dir, '.assistant', 'settings.json'),
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'WebFetch', hooks: [LOG_HOOK] }] } }),
    );
    model.reset();
    model.onRequest((req) =>
      /answer a question about a web page/.test(JSON.stringify(req.body.system ?? '')) ? reply('ANSWER') : undefined,
    );
    model.script(reply().tool('WebFetch', { url, prompt: 'what?' }), reply('done'));
    const r = await runCli(['-p', 'go', '--allowed-tools', 'WebFetch(domain:127.0.0.1)', ...ARGS], { cwd: dir, home, env: ENV() });
    assert.equal(r.code, 0, r.stderr);
    const resp = hookEvents(dir).find((e) => e.hook_event_name === 'PostToolUse')!.tool_response;
    assert.equal(resp.url, url);
    assert.equal(resp.code, 200);
    assert.equal(resp.codeText, 'OK');
    assert.equal(resp.bytes, 10);
    assert.equal(resp.result, 'ANSWER');
    assert.equal(typeof resp.durationMs, 'number');
  } finally {
    site.close();
  }
});
