import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { query, type SDKMessage } from '../../src/sdk/index.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const envFor = (home: string) => ({
  ANTHROPIC_API_KEY: 'k',
  ANTHROPIC_BASE_URL: model.anthropicBaseUrl,
  HOME: home,
  ASSISTANT_RETRY_BASE_MS: '10',
});

test("SDK: a command's model: answers its prompt only; a bad one is an error result naming the command, nothing sent", async () => {
  const { dir, home } = makeProject({
    '.assistant/commands/quick.md': '---\nmodel: anthropic:claude-haiku-4-5\nallowed-tools: Bash(touch:*)\n---\nQuick: $ARGUMENTS\n',
    '.assistant/commands/broken.md': '---\nmodel: nosuch:thing\n---\nNever sent.\n',
  });
  model.reset();
  model.script(reply().tool('Bash', { command: 'touch q.txt' }), reply('Quick done.'), reply('Slow done.'));
  async function* prompts() {
    yield { type: 'user' as const, message: { role: 'user' as const, content: '/quick look' }, parent_tool_use_id: null, session_id: '' };
    yield { type: 'user' as const, message: { role: 'user' as const, content: 'and now?' }, parent_tool_use_id: null, session_id: '' };
  }
  const out: SDKMessage[] = [];
  for await (const m of query({ prompt: prompts(), options: { cwd: dir, model: 'anthropic:claude-sonnet-4-5', env: envFor(home) } }))
    out.push(m);
  const results = out.filter((m) => m.type === 'result') as unknown as Array<{ is_error: boolean; result: string }>;
  assert.deepEqual(
    results.map((r) => r.result),
    ['Quick done.', 'Slow done.'],
  );
  assert.deepEqual(
    model.requests.map((q) => q.body.model),
    ['claude-haiku-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-5'],
  );
  assert.equal(lastToolResults(model.requests[1])[0].isError, false, "the command's allowed-tools hold for its prompt");

  model.reset();
  const bad: SDKMessage[] = [];
  for await (const m of query({ prompt: '/broken', options: { cwd: dir, model: 'anthropic:claude-sonnet-4-5', env: envFor(home) } }))
    bad.push(m);
  const r = bad.find((m) => m.type === 'result') as unknown as { is_error: boolean; result: string };
  assert.equal(r.is_error, true);
  assert.match(r.result, /\/broken/);
  assert.match(r.result, /nosuch:thing/);
  assert.equal(model.requests.length, 0);
});
