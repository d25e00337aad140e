import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownTools, SessionTools } from '../../src/agent/session-tools.ts';
import { hasWebSearch } from '../../src/providers/ai-sdk-stream.ts';
import { z } from 'zod';
import type { ToolDef } from '../../src/tools/types.ts';

test("WebSearch is offered while the model's provider can search, and the tool list follows a model change", () => {
  const task = { name: 'Task', description: 'd', schema: z.object({}), readOnly: true, execute: async () => ({ output: '' }) } as ToolDef;
  const own = ownTools(undefined, task, { answer: async () => ({ error: 'x' }), localAllowed: () => false }, () => [], {
    scope: () => ({}),
    search: async () => ({ error: 'x' }),
  });
  let provider = 'ollama';
  const tools = new SessionTools(own, undefined, (t) => t.name !== 'WebSearch' || hasWebSearch(provider));
  assert.ok(own.some((t) => t.name === 'WebSearch'));
  assert.ok(!tools.all().some((t) => t.name === 'WebSearch'));
  assert.doesNotMatch(tools.json(), /"WebSearch"/);
  provider = 'anthropic';
  assert.ok(tools.all().some((t) => t.name === 'WebSearch'));
  assert.match(tools.json(), /"WebSearch"/, 'the cached definitions are made again');
  assert.ok(tools.forRun().map.has('WebSearch'));
  for (const p of ['openai', 'google']) assert.ok(hasWebSearch(p), p);
  for (const p of ['openai-chat', 'openai-compatible', 'ollama', 'replay']) assert.ok(!hasWebSearch(p), p);
});

test("WebSearch's tool: the scope refuses before any search; results and errors as the model reads them", async () => {
  const { webSearchTool } = await import('../../src/tools/web-search.ts');
  const ctx = { signal: new AbortController().signal } as never;
  let searched = 0;
  const tool = webSearchTool({
    scope: (input) => (input.allowed_domains?.includes('no.example') ? 'nothing left' : { blockedDomains: ['x.org'] }),
    search: async (query, scope) => {
      searched++;
      return query === 'fail me'
        ? { error: 'boom' }
        : {
            text: `found ${query} ${JSON.stringify(scope)}`,
            sources: [{ url: 'https://a.example/1', title: 'A' }, { url: 'https://b.example/2' }],
          };
    },
  });
  assert.equal(tool.schema.safeParse({ query: 'x' }).success, false, 'at least 2 characters');
  const refused = await tool.execute({ query: 'q1', allowed_domains: ['no.example'] }, ctx);
  assert.deepEqual([refused.isError, refused.output, searched], [true, 'WebSearch refused: nothing left.', 0]);
  const ok = await tool.execute({ query: 'node' }, ctx);
  assert.equal(ok.isError, undefined);
  assert.equal(ok.output.split('\n\n')[0], 'Web search results for query: "node"');
  assert.match(
    ok.output,
    /Links: \[\{"title":"A","url":"https:\/\/a\.example\/1"\},\{"title":"https:\/\/b\.example\/2","url":"https:\/\/b\.example\/2"\}\]/,
  );
  assert.match(ok.output, /found node \{"blockedDomains":\["x\.org"\]\}/);
  assert.equal((ok.response as { query: string }).query, 'node');
  const failed = await tool.execute({ query: 'fail me' }, ctx);
  assert.deepEqual([failed.isError, /failed: boom/.test(failed.output)], [true, true]);
});
