/**
 * WebSearch end to end (SPEC §14): a tool the model calls like any other, asked about and seen by
 * hooks, which searches in a side request with the provider's own search tool enabled; offered
 * only where the provider has one.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const ENV = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const ARGS = ['--model', 'anthropic:claude-sonnet-4-5', '--output-format', 'json'];
const isSearch = (r: RecordedRequest) => /You search the web/.test(systemPrompt(r) ?? '');
const SOURCES = [
  { url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24.0.0' },
  { url: 'https://github.com/nodejs/node/releases', title: 'Releases' },
];

function script(input: Record<string, unknown> = { query: 'node 24 release date' }): void {
  model.reset();
  model.onRequest((req) =>
    isSearch(req)
      ? reply()
          .search(String(input.query), SOURCES)
          .text('SEARCH-TEXT: Node.js 24 came out in May 2025.')
          .usage({ input: 5000, output: 50 })
      : undefined,
  );
  model.script(reply().tool('WebSearch', input), reply('done'));
}

const CAPTURE = '#!/bin/sh\ncat >> "$CLAUDE_PROJECT_DIR/hooks.jsonl"\n';
function hooked() {
  const hook = [{ matcher: 'WebSearch', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/capture.sh' }] }];
  const p = makeProject({
    'capture.sh': CAPTURE,
    '.assistant/settings.json': JSON.stringify({ hooks: { PreToolUse: hook, PostToolUse: hook } }),
  });
  chmodSync(join(p.dir, 'capture.sh'), 0o755);
  return p;
}

test('headless with no rule: WebSearch is offered as a function tool, refused, and listed in permission_denials', async () => {
  const { dir, home } = makeProject();
  script();
  const r = await runCli(['-p', 'when did node 24 come out?', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.deepEqual(
    result.permission_denials.map((d: { tool_name: string; tool_input: { query: string } }) => [d.tool_name, d.tool_input.query]),
    [['WebSearch', 'node 24 release date']],
  );
  assert.equal(model.requests.filter(isSearch).length, 0, 'no search was sent');
  const [first, second] = model.requests;
  assert.ok(toolNames(first).includes('WebSearch'));
  assert.ok(!first.body.tools.some((t: { type?: string }) => t.type?.startsWith('web_search')), 'the main request carries no server tool');
  const refusal = lastToolResults(second)[0];
  assert.equal(refusal.isError, true);
  assert.match(refusal.content, /--allowed-tools "WebSearch"/);
});

test("allowed: the side request carries the provider's search tool; its text and sources are the tool result; hooks see WebSearch", async () => {
  const { dir, home } = hooked();
  script({ query: 'node 24 release date', blocked_domains: ['spam.example'] });
  const r = await runCli(['-p', 'when did node 24 come out?', '--allowedTools', 'WebSearch', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.deepEqual(result.permission_denials, []);
  const searches = model.requests.filter(isSearch);
  assert.equal(searches.length, 1);
  const tool = searches[0].body.tools.find((t: { type?: string }) => t.type === 'web_search_20250305');
  assert.ok(tool, JSON.stringify(searches[0].body.tools));
  assert.deepEqual(tool.blocked_domains, ['spam.example'], "the call's blocked sites reach the provider");
  const main = model.requests.filter((q) => !isSearch(q));
  const res = lastToolResults(main[1])[0];
  assert.equal(res.isError, false);
  assert.match(res.content, /^Web search results for query: "node 24 release date"/);
  assert.match(res.content, /SEARCH-TEXT: Node\.js 24 came out in May 2025\./);
  for (const s of SOURCES) {
    assert.ok(res.content.includes(s.url), s.url);
    assert.ok(res.content.includes(s.title), s.title);
  }
  assert.ok(result.usage.input_tokens >= 5000, `the side request's tokens count: ${JSON.stringify(result.usage)}`);
  const hooks = readFileSync(join(dir, 'hooks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    hooks.map((h) => [h.hook_event_name, h.tool_name, h.tool_input.query]),
    [
      ['PreToolUse', 'WebSearch', 'node 24 release date'],
      ['PostToolUse', 'WebSearch', 'node 24 release date'],
    ],
  );
  assert.equal(hooks[1].tool_response.query, 'node 24 release date');
  assert.deepEqual(
    hooks[1].tool_response.results[0].content.map((s: { url: string }) => s.url),
    SOURCES.map((s) => s.url),
  );
});

test('a WebSearch(domain:…) allow rule allows the search and keeps it to its sites; a deny rule WebSearch refuses it even in Bypass', async () => {
  const { dir, home } = makeProject();
  script();
  const r = await runCli(['-p', 'search', '--allowed-tools', 'WebSearch(domain:nodejs.org)', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const search = model.requests.filter(isSearch)[0];
  assert.deepEqual(search.body.tools[0].allowed_domains, ['nodejs.org']);
  const res = lastToolResults(model.requests.filter((q) => !isSearch(q))[1])[0];
  assert.ok(res.content.includes(SOURCES[0].url));
  assert.ok(!res.content.includes(SOURCES[1].url), 'a page outside the allowed sites is left out');
  script();
  const denied = await runCli(['-p', 'search', '--permission-mode', 'bypass', '--disallowed-tools', 'WebSearch', ...ARGS], {
    cwd: dir,
    home,
    env: ENV(),
  });
  assert.equal(denied.code, 0, denied.stderr);
  assert.equal(model.requests.filter(isSearch).length, 0);
  assert.match(lastToolResults(model.requests[1])[0].content, /denied by the rule "WebSearch"/);
});

test('a failed search comes back as a tool error the model can act on', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.onRequest((req) => (isSearch(req) ? reply().search('q', { error: 'too_many_requests' }) : undefined));
  model.script(reply().tool('WebSearch', { query: 'qq' }), reply('done'));
  const r = await runCli(['-p', 'search', '--allowed-tools', 'WebSearch', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const res = lastToolResults(model.requests.filter((q) => !isSearch(q))[1])[0];
  assert.equal(res.isError, true);
  assert.match(res.content, /WebSearch for "qq" failed: the provider's search failed \(too_many_requests\)/);
});

async function toolsSent(spec: string, env: Record<string, string>): Promise<string[]> {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('ok'));
  const r = await runCli(['-p', 'search', '--model', spec, '--allowed-tools', 'WebSearch'], { cwd: dir, home, env });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(
    !JSON.stringify(model.requests[0].body.tools ?? []).match(/web_search|google_search|googleSearch/),
    'no server tool on the main request',
  );
  return toolNames(model.requests[0]);
}

test('offered where the provider can search (OpenAI Responses, Google), not elsewhere (Chat Completions, compatible servers, Ollama)', async () => {
  const openai = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl };
  assert.ok((await toolsSent('openai:gpt-5', openai)).includes('WebSearch'));
  assert.ok((await toolsSent('google:gemini-2.5-flash', model.env('google'))).includes('WebSearch'));
  for (const [spec, env] of [
    ['openai-chat:gpt-4o', openai],
    ['openai-compatible:local', model.env('openai-compatible')],
    ['ollama:qwen3', model.env('ollama')],
  ] as const) {
    const names = await toolsSent(spec, env);
    assert.ok(names.includes('WebFetch') && !names.includes('WebSearch'), `${spec}: ${names.join(',')}`);
  }
});

test('OpenAI Responses and Google side requests carry their own search tools', async () => {
  for (const [spec, env, tool] of [
    ['openai:gpt-5', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl }, /"type":"web_search"/],
    ['google:gemini-2.5-flash', model.env('google'), /"googleSearch"|"google_search"/],
  ] as const) {
    const { dir, home } = makeProject();
    model.reset();
    model.onRequest((req) => (isSearch(req) ? reply(`SEARCH-TEXT from ${spec}`) : undefined));
    model.script(reply().tool('WebSearch', { query: 'node 24' }), reply('done'));
    const r = await runCli(['-p', 'search', '--model', spec, '--allowed-tools', 'WebSearch'], { cwd: dir, home, env });
    assert.equal(r.code, 0, r.stderr);
    const searches = model.requests.filter(isSearch);
    assert.equal(searches.length, 1, spec);
    assert.match(JSON.stringify(searches[0].body.tools), tool);
    assert.match(lastToolResults(model.requests.filter((q) => !isSearch(q))[1])[0].content, new RegExp(`SEARCH-TEXT from ${spec}`));
  }
});
