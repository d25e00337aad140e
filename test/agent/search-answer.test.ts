/** WebSearch's side request (SPEC §14) against the fake model server's Anthropic wire. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { searchTheWeb } from '../../src/agent/search-answer.ts';
import { resolveModel } from '../../src/providers/resolve.ts';
import { startFakeModel, reply, fail, userTexts, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import type { ModelHandle } from '../../src/providers/types.ts';

let model: FakeModel;
let handle: ModelHandle;
before(async () => {
  model = await startFakeModel();
  handle = await resolveModel({
    spec: 'anthropic:claude-sonnet-4-5',
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl, ASSISTANT_MAX_RETRIES: '0' },
    cwd: makeProject().dir,
  });
});
after(async () => {
  await model.close();
});
const signal = () => new AbortController().signal;

test("the provider's search tool is sent; the text and the pages found come back, deduplicated and in scope", async () => {
  model.reset();
  model.script(
    reply()
      .search('node 24', [
        { url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24' },
        { url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24' },
        { url: 'https://spam.example/node', title: 'Spam' },
      ])
      .text('Node.js 24 was released in May 2025.'),
  );
  const r = await searchTheWeb(handle, 'node 24', { blockedDomains: ['spam.example'] }, signal());
  assert.ok('text' in r, JSON.stringify(r));
  assert.equal(r.text, 'Node.js 24 was released in May 2025.');
  assert.deepEqual(r.sources, [{ url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24' }]);
  assert.ok(r.usage.inputTokens > 0);
  const tool = model.requests[0].body.tools.find((t: { type?: string }) => t.type === 'web_search_20250305');
  assert.ok(tool, JSON.stringify(model.requests[0].body.tools));
  assert.deepEqual(tool.blocked_domains, ['spam.example']);
  assert.equal(model.requests[0].body.tools.length, 1, 'no function tools in the side request');
  assert.match(
    userTexts(model.requests[0]).join('\n'),
    /Perform a web search for the query: node 24[\s\S]*Never use results from these sites: spam\.example/,
  );
});

test('allowed sites go to the provider (Anthropic takes one list); a failed search and a provider error are errors', async () => {
  model.reset();
  model.script(reply().search('q', { error: 'max_uses_exceeded' }).text(''), fail(400, { message: 'bad request here' }));
  const r = await searchTheWeb(handle, 'q', { allowedDomains: ['docs.python.org'], blockedDomains: ['x.org'] }, signal());
  assert.deepEqual(r, { error: "the provider's search failed (max_uses_exceeded)" });
  const tool = model.requests[0].body.tools[0];
  assert.deepEqual([tool.allowed_domains, tool.blocked_domains], [['docs.python.org'], undefined]);
  const e = await searchTheWeb(handle, 'q', {}, signal());
  assert.ok('error' in e && /bad request here/.test(e.error), JSON.stringify(e));
});

test('an aborted search says so', async () => {
  model.reset();
  model.script(reply('late').delay(2000));
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  assert.deepEqual(await searchTheWeb(handle, 'q', {}, ac.signal), { error: 'interrupted' });
});
