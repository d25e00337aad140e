import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeModel, reply, hang, stall, streamError, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli, startCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('Ollama through its own /api/chat with num_ctx from /api/show; openai-compatible servers through their base URLs', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'alpha\n' });
  model.reset();
  model.models([{ id: 'qwen3-coder', contextLength: 262_144 }]);
  model.script(reply().tool('Read', { file_path: 'a.txt' }), reply().text('It says alpha.'));
  try {
    const ollama = await runCli(['-p', 'read a.txt', '--model', 'ollama:qwen3-coder'], {
      cwd: dir,
      home,
      env: { OLLAMA_HOST: model.url.replace('http://', '') },
    });
    assert.equal(ollama.code, 0, ollama.stderr);
    assert.equal(ollama.stdout, 'It says alpha.\n');
  } finally {
    model.models([]);
  }
  assert.equal(model.requests[0].format, 'ollama');
  assert.equal(model.requests[0].path, '/api/chat');
  const body = model.requests[0].body as { model: string; options?: { num_ctx?: number } };
  assert.equal(body.model, 'qwen3-coder');
  assert.equal(body.options?.num_ctx, 32_768, "the model's 256k capped by ollamaMaxContext's default");
  assert.equal((model.requests[1].body as { options?: { num_ctx?: number } }).options?.num_ctx, 32_768, 'every request');

  model.reset();
  model.script(reply().text('compatible'));
  const compat = await runCli(['-p', 'hi', '--model', 'openai-compatible:local-model'], {
    cwd: dir,
    home,
    env: { OPENAI_COMPATIBLE_BASE_URL: model.openaiBaseUrl },
  });
  assert.equal(compat.code, 0, compat.stderr);
  assert.equal(compat.stdout, 'compatible\n');
  const missingUrl = await runCli(['-p', 'hi', '--model', 'openai-compatible:local-model'], { cwd: dir, home });
  assert.equal(missingUrl.code, 2);
  assert.match(missingUrl.stderr, /OPENAI_COMPATIBLE_BASE_URL/);
});

test('the model is chosen from settings, and automatically from the first key set', async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': '{"model":"openai-chat:from-settings"}' });
  model.reset();
  model.script(reply().text('one'), reply().text('two'));
  const fromSettings = await runCli(['-p', 'hi'], { cwd: dir, home, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl } });
  assert.equal(fromSettings.code, 0, fromSettings.stderr);
  assert.equal((model.requests[0].body as { model: string }).model, 'from-settings');
  const { dir: plain } = makeProject();
  const auto = await runCli(['-p', 'hi'], {
    cwd: plain,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: `${model.anthropicBaseUrl}/v1`, OPENAI_API_KEY: 'k2' },
  });
  assert.equal(auto.code, 0, auto.stderr);
  assert.equal(model.requests[1].format, 'anthropic');
  assert.match((model.requests[1].body as { model: string }).model, /^claude-/);
});

test('a stream that stalls mid-answer, or carries an overload error, is retried', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(stall(reply().text('half of an answer that stalls')), streamError(reply().text('x')), reply().text('Final.'));
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl, ASSISTANT_STREAM_IDLE_TIMEOUT_MS: '1000' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Final.\n');
  assert.equal(model.requests.length, 3);
});

test('Ctrl-C while waiting for the model ends the run at once with exit 130', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(hang());
  const child = startCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await model.waitForRequests(1);
  await sleep(50);
  const t0 = Date.now();
  child.kill('SIGINT');
  assert.equal(await exited, 130);
  assert.ok(Date.now() - t0 < 3000, 'interrupt is prompt');
});

test('Anthropic requests mark the system prompt and the last message for prompt caching', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('LS', { path: '.' }), reply().text('ok'));
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  assert.equal(r.code, 0, r.stderr);
  const body = model.requests[1].body as {
    system: Array<{ cache_control?: unknown }>;
    messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
  };
  assert.deepEqual(body.system.at(-1)?.cache_control, { type: 'ephemeral' });
  assert.deepEqual(body.messages.at(-1)?.content.at(-1)?.cache_control, { type: 'ephemeral' });
  assert.equal(body.messages[0].content.at(-1)?.cache_control, undefined, 'only the last message is a breakpoint');
});

test('/status says where the context window comes from: catalogue, Ollama, /v1/models, settings, default', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.models([
    { id: 'qwen3-coder', contextLength: 40_960, numCtx: 16_384 },
    { id: 'local-model', contextLength: 32_768 },
  ]);
  try {
    const status = async (args: string[], env: Record<string, string>, cwd = dir) => {
      const r = await runCli(['-p', '/status', ...args], { cwd, home, env });
      assert.equal(r.code, 0, r.stderr);
      return /context window: (.*)/.exec(r.stdout)?.[1];
    };
    const ollama = { OLLAMA_HOST: model.url.replace('http://', '') };
    assert.equal(await status(['--model', 'ollama:qwen3-coder'], ollama), "16384 tokens (from Ollama's /api/show (the model's num_ctx))");
    assert.equal(
      await status(['--model', 'openai-compatible:local-model'], model.env('openai-compatible')),
      "32768 tokens (from the server's /v1/models)",
    );
    assert.equal(await status(['--model', 'anthropic:claude-sonnet-4-5'], model.env()), '200000 tokens (from the model catalogue)');
    const withSetting = makeProject({ '.assistant/settings.json': JSON.stringify({ modelContextWindow: 65_536 }) }).dir;
    assert.equal(await status(['--model', 'ollama:not-pulled'], ollama, withSetting), '65536 tokens (from settings modelContextWindow)');
    assert.match(
      (await status(['--model', 'openai-compatible:other'], model.env('openai-compatible'))) ?? '',
      /^200000 tokens \(from the default for models the catalogue does not know/,
    );
    assert.deepEqual(
      model.probes.map((p) => p.path),
      ['/api/show', '/v1/models', '/api/show', '/v1/models'],
    );
    assert.equal(model.requests.length, 0, '/status sends nothing to the model');
  } finally {
    model.models([]);
  }
});
