import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, fail, cut, hang, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const anthropic = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const openai = () => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.openaiBaseUrl });

test('429 with retry-after, 500 and 529 are retried, visibly, then the answer comes', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(fail(429, { retryAfter: 0 }), fail(500), fail(529), reply().text('Recovered.'));
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], { cwd: dir, home, env: anthropic() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Recovered.\n');
  assert.match(r.stderr, /rate limited \(HTTP 429\).*retrying/);
  assert.match(r.stderr, /HTTP 500/);
  assert.equal(model.requests.length, 4);
});

test('a stream cut in half is retried and its partial text is dropped', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(cut(reply().text('PARTIAL-SHOULD-VANISH and more text here')), reply().text('Whole answer.'));
  for (const [args, env] of [
    [['--model', 'anthropic:claude-sonnet-4-5'], anthropic()],
    [['--model', 'openai-chat:gpt-4o'], openai()],
  ] as const) {
    model.reset();
    model.script(cut(reply().text('PARTIAL-SHOULD-VANISH and more text here')), reply().text('Whole answer.'));
    const r = await runCli(['-p', 'hi', '--output-format', 'json', ...args], { cwd: dir, home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).result, 'Whole answer.');
    assert.ok(!r.stdout.includes('PARTIAL'));
  }
});

test('a hung server is abandoned after the idle timeout and retried', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(hang(), reply().text('After the hang.'));
  const r = await runCli(['-p', 'hi', '--model', 'openai:gpt-5'], {
    cwd: dir,
    home,
    env: { ...openai(), ASSISTANT_STREAM_IDLE_TIMEOUT_MS: '1000' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'After the hang.\n');
  assert.match(r.stderr, /no data from the model server/);
});

test('retries run out: a clear error and exit 1', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(fail(500), fail(500), fail(500));
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5', '--output-format', 'json'], {
    cwd: dir,
    home,
    env: { ...anthropic(), ASSISTANT_MAX_RETRIES: '2' },
  });
  assert.equal(r.code, 1);
  const res = JSON.parse(r.stdout);
  assert.equal(res.is_error, true);
  assert.match(res.result, /HTTP 500.*gave up after 3 attempts/);
});

test('a server that refuses the key: exit 1, message says so, no retry', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(fail(401));
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], { cwd: dir, home, env: anthropic() });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /refused the API key \(HTTP 401\)/);
  assert.equal(model.requests.length, 1);
});

test('no model configured: says exactly how, exit 2', async () => {
  const { dir, home } = makeProject();
  const r = await runCli(['-p', 'hi'], { cwd: dir, home });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /No model is configured/);
  assert.match(r.stderr, /ANTHROPIC_API_KEY/);
  assert.match(r.stderr, /OLLAMA_HOST/);
});

test('bad usage and bad configuration exit 2 with a message', async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': '{\n  "model": "x",,\n}\n' });
  const unknownFlag = await runCli(['-p', 'hi', '--frobnicate'], { cwd: dir, home });
  assert.equal(unknownFlag.code, 2);
  assert.match(unknownFlag.stderr, /unknown option '--frobnicate'/);
  const badSettings = await runCli(['-p', 'hi'], { cwd: dir, home });
  assert.equal(badSettings.code, 2);
  assert.match(badSettings.stderr, /\.assistant\/settings\.json:2:\d+: not valid JSON/);
  const { dir: d2 } = makeProject();
  const badProvider = await runCli(['-p', 'hi', '--model', 'acme:m1'], { cwd: d2, home });
  assert.equal(badProvider.code, 2);
  assert.match(badProvider.stderr, /Unknown provider "acme"/);
  const badMode = await runCli(['-p', 'hi', '--permission-mode', 'yolo', '--model', 'anthropic:x'], { cwd: d2, home, env: anthropic() });
  assert.equal(badMode.code, 2);
  const badFormat = await runCli(['-p', 'hi', '--output-format', 'xml'], { cwd: d2, home });
  assert.equal(badFormat.code, 2);
  const version = await runCli(['--version'], { cwd: d2, home });
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  const help = await runCli(['--help'], { cwd: d2, home });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--output-format/);
  const interactive = await runCli([], { cwd: d2, home });
  assert.equal(interactive.code, 2);
  assert.match(interactive.stderr, /needs a terminal/);
});

test('replay model runs offline from a file, labelled as a replay', async () => {
  const { dir, home } = makeProject({
    'replay.json': JSON.stringify({
      turns: [{ text: 'Looking', tool_calls: [{ name: 'LS', input: { path: '.' } }] }, { text: 'Replayed answer.' }],
    }),
  });
  const r = await runCli(['-p', 'hi', '--model', 'replay:replay.json', '--output-format', 'stream-json'], { cwd: dir, home });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.match(lines[0].model, /\(replay\)/);
  assert.equal(lines.at(-1).result, 'Replayed answer.');
  const missing = await runCli(['-p', 'hi', '--model', 'replay:nope.json'], { cwd: dir, home });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.json cannot be read/);
});

test('piped standard input is the prompt, or comes before the prompt given', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().text('a'), reply().text('b'));
  const onlyStdin = await runCli(['-p', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: anthropic(),
    stdin: 'from stdin\n',
  });
  assert.equal(onlyStdin.code, 0, onlyStdin.stderr);
  const both = await runCli(['-p', 'explain this', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: anthropic(),
    stdin: 'LOG LINE 1\n',
  });
  assert.equal(both.code, 0, both.stderr);
  const { userTexts } = await import('../fakes/model-server.ts');
  assert.deepEqual(userTexts(model.requests[0]), ['from stdin']);
  assert.deepEqual(userTexts(model.requests[1]), ['LOG LINE 1\n\nexplain this']);
  model.script(reply().text('c'));
  const silentPipe = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: anthropic(),
    stdinOpen: true,
    timeoutMs: 20_000,
  });
  assert.equal(silentPipe.code, 0, 'an open, silent stdin pipe must not hang a run with a prompt');
});

test('a base URL whose host does not resolve fails at once, with the cause, like a refused connection', async () => {
  const { dir, home } = makeProject();
  const r = await runCli(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://model-server.invalid:8080' },
  });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /host name could not be resolved \(getaddrinfo \w+ model-server\.invalid\)/);
  assert.doesNotMatch(r.stderr, /retrying/);
});
