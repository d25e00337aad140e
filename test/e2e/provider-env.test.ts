import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { resolveModel } from '../../src/providers/resolve.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('ANTHROPIC_AUTH_TOKEN alone (with a base URL) picks Anthropic and is sent as a Bearer token', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().text('Hello via the gateway.'));
  const r = await runCli(['-p', 'hi'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_AUTH_TOKEN: 'tok-123', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Hello via the gateway.\n');
  assert.equal(model.requests[0].headers.authorization, 'Bearer tok-123');
  assert.equal(model.requests[0].headers['x-api-key'], undefined);
});

test('a base URL with no key is enough to pick the provider (a local proxy)', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().text('From the proxy.'));
  const r = await runCli(['-p', 'hi'], { cwd: dir, home, env: { ANTHROPIC_BASE_URL: model.anthropicBaseUrl } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'From the proxy.\n');
  assert.equal(model.requests[0].path, '/v1/messages');
});

test('an empty ANTHROPIC_BASE_URL or OPENAI_BASE_URL counts as unset (no crash)', async () => {
  const saved = { a: process.env.ANTHROPIC_BASE_URL, o: process.env.OPENAI_BASE_URL };
  process.env.ANTHROPIC_BASE_URL = '';
  process.env.OPENAI_BASE_URL = '';
  try {
    const a = await resolveModel({
      spec: 'anthropic:claude-sonnet-4-5',
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: '' },
      cwd: '/',
    });
    assert.equal(a.id, 'anthropic:claude-sonnet-4-5');
    const o = await resolveModel({ spec: 'openai:gpt-5', env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: ' ' }, cwd: '/' });
    assert.equal(o.id, 'openai:gpt-5');
  } finally {
    for (const [k, v] of [
      ['ANTHROPIC_BASE_URL', saved.a],
      ['OPENAI_BASE_URL', saved.o],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test("json usage: input_tokens excludes the cached tokens, as in Anthropic's API and Claude Code", async () => {
  const { dir, home } = makeProject({ 'a.txt': 'hello\n' });
  model.reset();
  model.script(
    reply().text('Reading.').tool('Read', { file_path: 'a.txt' }).usage({ input: 100, output: 20, cacheRead: 50, cacheWrite: 10 }),
    reply().text('All done.').usage({ input: 200, output: 30 }),
  );
  const r = await runCli(['-p', 'hi', '--output-format', 'json', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  assert.equal(r.code, 0, r.stderr);
  const usage = JSON.parse(r.stdout).usage;
  assert.equal(usage.input_tokens, 240);
  assert.equal(usage.cache_read_input_tokens, 50);
  assert.equal(usage.cache_creation_input_tokens, 10);
  assert.equal(usage.output_tokens, 50);
});

test('stream-json: warnings go to stderr too, and as warning events', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'echo "not a guard" >&2; exit 1' }] }] },
    }),
    'a.txt': 'x\n',
  });
  model.reset();
  model.script(reply().tool('Read', { file_path: 'a.txt' }), reply().text('Done.'));
  const r = await runCli(['-p', 'hi', '--output-format', 'stream-json', '--verbose', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: .*exit 1 does not block; exit 2 does/);
  const events = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(
    events.some((e) => e.type === 'warning' && /exit 1 does not block/.test(e.message)),
    r.stdout,
  );
});

test('OpenAI wires get a failed tool result as plain text ("Error: …"), not {"error":"…"}', async () => {
  for (const [spec, read] of [
    ['openai-chat:gpt-4o', (b: any) => b.messages.at(-1).content],
    ['openai:gpt-5', (b: any) => b.input.find((i: any) => i.type === 'function_call_output').output],
  ] as const) {
    const { dir, home } = makeProject();
    model.reset();
    model.script(reply().tool('Nope', {}), reply().text('Done.'));
    const r = await runCli(['-p', 'hi', '--model', spec], {
      cwd: dir,
      home,
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl },
    });
    assert.equal(r.code, 0, r.stderr);
    const sent = read(model.requests[1].body);
    assert.equal(typeof sent, 'string', spec);
    assert.match(sent, /^Error: There is no tool named "Nope"/, spec);
  }
});

test('the built CLI with an empty ANTHROPIC_BASE_URL goes to the default address instead of crashing', async () => {
  const { dir, home } = makeProject();
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: '', ASSISTANT_MAX_RETRIES: '0' },
  });
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stderr, /crashed|InvalidArgument|baseURL/);
  assert.match(r.stderr, /api\.anthropic\.com|connection/);
});
