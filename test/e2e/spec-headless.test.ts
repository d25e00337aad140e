/** SPEC §10 stream-json and json output checked against Claude Code's shapes by the second QA pass (qa-spec2). */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
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

test('stream-json system/init always has mcp_servers, an empty list when none is configured (as in Claude Code)', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('hi'));
  const r = await runCli(['-p', 'go', '--output-format', 'stream-json', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const init = JSON.parse(r.stdout.split('\n')[0]);
  assert.equal(init.subtype, 'init');
  assert.deepEqual(init.mcp_servers, []);
  const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
  for (const k of ['result', 'is_error', 'session_id', 'num_turns', 'duration_ms', 'usage', 'total_cost_usd', 'permission_denials'])
    assert.ok(k in last, k);
  assert.equal(last.session_id, init.session_id);
});

test('a prompt of only spaces is no prompt: exit 2, nothing sent (§1)', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('never'));
  const r = await runCli(['-p', '   \n ', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /No prompt given/);
  assert.equal(model.requests.length, 0);
});

test('a Stop hook written for Claude Code finds the last answer in transcript_path (entries typed user/assistant with content blocks)', async () => {
  const { readFileSync, writeFileSync, mkdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { dir, home } = makeProject();
  mkdirSync(join(dir, '.assistant'), { recursive: true });
  // The common Claude Code recipe: the transcript's last assistant text block.
  const hook = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const t=JSON.parse(s).transcript_path;const fs=require("fs");const last=fs.readFileSync(t,"utf8").trim().split("\\n").map(JSON.parse).filter(e=>e.type==="assistant").pop();fs.writeFileSync("last.txt",last.message.content.filter(b=>b.type==="text").map(b=>b.text).join(""))})'`;
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } }),
  );
  model.reset();
  model.script(reply('THE-ANSWER'));
  const r = await runCli(['-p', 'go', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'last.txt'), 'utf8'), 'THE-ANSWER');
});
