/** WebSearch (SPEC §14): the provider's own search tool is offered where there is one, as the rules say. */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => { model = await startFakeModel(); });
after(async () => { await model.close(); });

async function toolsSent(spec: string, env: Record<string, string>, flags: string[]): Promise<any[]> {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('ok'));
  const r = await runCli(['-p', 'search', '--model', spec, ...flags], { cwd: dir, home, env });
  assert.equal(r.code, 0, r.stderr);
  return model.requests[0].body.tools ?? [];
}

const anthropic = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const openai = () => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl });

test('Anthropic: offered only when a rule allows it, with the rule\'s domains; a deny rule takes it away', async () => {
  const none = await toolsSent('anthropic:claude-sonnet-4-5', anthropic(), []);
  assert.ok(!none.some((t) => t.type?.startsWith('web_search')), 'no rule: not offered (a server tool cannot ask)');
  const some = await toolsSent('anthropic:claude-sonnet-4-5', anthropic(), ['--allowed-tools', 'WebSearch(domain:docs.python.org)']);
  const ws = some.find((t) => t.type === 'web_search_20250305');
  assert.ok(ws, JSON.stringify(some.map((t) => t.type ?? t.name)));
  assert.deepEqual(ws.allowed_domains, ['docs.python.org']);
  const blocked = await toolsSent('anthropic:claude-sonnet-4-5', anthropic(), ['--allowed-tools', 'WebSearch', '--disallowed-tools', 'WebSearch(domain:spam.example)']);
  assert.deepEqual(blocked.find((t) => t.type === 'web_search_20250305').blocked_domains, ['spam.example']);
  const denied = await toolsSent('anthropic:claude-sonnet-4-5', anthropic(), ['--permission-mode', 'bypass', '--disallowed-tools', 'WebSearch']);
  assert.ok(!denied.some((t) => t.type?.startsWith('web_search')));
});

test('OpenAI Responses gets its web_search tool; Chat Completions (and other compatible servers) get none', async () => {
  const responses = await toolsSent('openai:gpt-5', openai(), ['--allowed-tools', 'WebSearch']);
  assert.ok(responses.some((t) => t.type === 'web_search'), JSON.stringify(responses.map((t) => t.type)));
  const chat = await toolsSent('openai-chat:gpt-4o', openai(), ['--allowed-tools', 'WebSearch']);
  assert.ok(chat.every((t) => t.type === 'function'));
});

test('Google gets google_search', async () => {
  const tools = await toolsSent('google:gemini-2.5-flash', model.env('google'), ['--allowed-tools', 'WebSearch']);
  assert.match(JSON.stringify(tools), /googleSearch|google_search/);
});

test('a call the provider ran itself (its search) is not run again by the loop', async () => {
  const { mapPart } = await import('../../src/providers/ai-sdk-stream.ts');
  assert.equal(mapPart({ type: 'tool-call', toolCallId: 's1', toolName: 'web_search', input: '{}', providerExecuted: true } as never), undefined);
  assert.equal(mapPart({ type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: '{}' } as never)?.type, 'tool-call');
});
