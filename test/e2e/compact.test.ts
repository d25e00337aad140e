import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, fail, reply, systemPrompt, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { hookEvents, LOG_HOOK, runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
/** A model the catalogue does not know: its window comes from settings `modelContextWindow`. */
const SMALL = ['--model', 'anthropic:fake-unknown-model'];
const sent = (i: number) => JSON.stringify((model.requests[i].body as { messages: unknown }).messages);

test('/compact replaces the history with the summary; the next request carries it; PreCompact runs', async () => {
  const { dir, home } = makeProject({
    'ASSISTANT.md': 'MEMORY-MARKER\n',
    '.assistant/settings.json': JSON.stringify({
      hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'cat > precompact.json' }] }] },
    }),
  });
  model.reset();
  model.script(
    reply().text('Noted the codeword.'),
    reply().text('## User instructions and corrections\nCodeword is KIWI.\nSUMMARY-TEXT'),
    reply().text('KIWI'),
  );
  const first = await runCli(['-p', 'Remember the codeword KIWI-ORIGINAL', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(first.code, 0, first.stderr);
  const compact = await runCli(['-c', '-p', '/compact keep the codeword', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(compact.code, 0, compact.stderr);
  assert.match(compact.stdout, /Compacted 2 messages/);
  assert.match(
    systemPrompt(model.requests[1]) ?? '',
    /## User instructions and corrections[\s\S]*## Files changed[\s\S]*## Decisions[\s\S]*## Open tasks/,
  );
  assert.match(sent(1), /KIWI-ORIGINAL/);
  assert.match(sent(1), /keep the codeword/);
  const hook = JSON.parse(readFileSync(join(dir, 'precompact.json'), 'utf8'));
  assert.equal(hook.hook_event_name, 'PreCompact');
  assert.equal(hook.trigger, 'manual');
  assert.equal(hook.custom_instructions, 'keep the codeword');
  const next = await runCli(['-c', '-p', 'What is the codeword?', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(next.code, 0, next.stderr);
  assert.match(sent(2), /SUMMARY-TEXT/);
  assert.doesNotMatch(sent(2), /KIWI-ORIGINAL/);
  assert.match(systemPrompt(model.requests[2]) ?? '', /MEMORY-MARKER/, 'ASSISTANT.md stays in the system prompt');
  const projects = join(home, '.assistant', 'projects');
  const proj = join(projects, readdirSync(projects)[0]);
  const transcript = readFileSync(join(proj, readdirSync(proj).find((f) => f.endsWith('.jsonl'))!), 'utf8');
  assert.match(transcript, /KIWI-ORIGINAL/, 'the transcript keeps the full history');
  assert.match(transcript, /"type":"compact"/);
});

test('automatic compaction triggers at the threshold, and the user is told', async () => {
  // An unknown model with a 10k window from settings: compaction starts at 8k tokens (32k characters).
  const { dir, home } = makeProject({ '.assistant/settings.json': JSON.stringify({ modelContextWindow: 10_000 }) });
  model.reset();
  model.script(reply().text(`first answer ${'x'.repeat(30_000)}`), reply().text('AUTO-SUMMARY'), reply().text('second answer'));
  const first = await runCli(['-p', 'one', ...SMALL], { cwd: dir, home, env: env() });
  assert.equal(first.code, 0, first.stderr);
  const second = await runCli(['-c', '-p', 'two', ...SMALL], { cwd: dir, home, env: env() });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout, 'second answer\n');
  assert.match(second.stderr, /compacted into a summary/);
  assert.match(sent(2), /AUTO-SUMMARY/);
  assert.equal(model.requests.length, 3);
  const off = makeProject({ '.assistant/settings.json': JSON.stringify({ compaction: { auto: false, threshold: 0.0001 } }) });
  model.reset();
  model.script(reply().text('a'), reply().text('b'));
  await runCli(['-p', 'one', ...MODEL], { cwd: off.dir, home: off.home, env: env() });
  const again = await runCli(['-c', '-p', 'two', ...MODEL], { cwd: off.dir, home: off.home, env: env() });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(model.requests.length, 2, 'no summary request when auto compaction is off');
});

test('a long run compacts between requests, and goes on from the summary', async () => {
  const { dir, home } = makeProject({
    'a.txt': `A-CONTENT\n${`${'y'.repeat(60)}\n`.repeat(500)}`,
    '.assistant/settings.json': JSON.stringify({ modelContextWindow: 10_000 }),
  });
  model.reset();
  model.script(reply().tool('Read', { file_path: 'a.txt' }), reply().text('## Open tasks\nMID-RUN-SUMMARY'), reply().text('finished'));
  const r = await runCli(['-p', 'read a.txt then answer', ...SMALL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'finished\n');
  assert.match(r.stderr, /compacted into a summary/);
  assert.equal(model.requests.length, 3);
  assert.match(sent(1), /A-CONTENT/, 'the summary request sees the tool result');
  assert.match(sent(2), /MID-RUN-SUMMARY/);
  assert.doesNotMatch(sent(2), /A-CONTENT/, 'the request after compaction carries the summary instead');
});

test('/cost totals the continued session from its transcript', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().text('a').usage({ input: 1_000_000, output: 0 }));
  const first = await runCli(['-p', 'one', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(first.code, 0, first.stderr);
  const cost = await runCli(['-c', '-p', '/cost', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(cost.code, 0, cost.stderr);
  assert.match(cost.stdout, /Total cost: \$3\.0000/);
  assert.match(cost.stdout, /1000000 in/);
  assert.equal(model.requests.length, 1);
});

test('/compact with --output-format json prints one result object and fires SessionStart, PreCompact, SessionEnd (with no conversation: exit 2, saying to continue one)', async () => {
  const log = { hooks: [LOG_HOOK] };
  const { dir, home } = makeProject({
    '.assistant/settings.json': JSON.stringify({ hooks: { SessionStart: [log], PreCompact: [log], SessionEnd: [log] } }),
  });
  model.reset();
  model.script(reply().text('First.'), reply().text('## Open tasks\nnone\nSUMMARY'));
  const first = await runCli(['-p', 'one', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(first.code, 0, first.stderr);
  const compact = await runCli(['-c', '-p', '/compact', '--output-format', 'json', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(compact.code, 0, compact.stderr);
  const result = JSON.parse(compact.stdout);
  assert.equal(result.type, 'result');
  assert.equal(result.subtype, 'success');
  assert.match(result.result, /Compacted 2 messages/);
  assert.ok(result.session_id);
  assert.ok(result.usage.output_tokens > 0, 'the summary request is counted');
  assert.ok(result.duration_api_ms > 0 && result.duration_api_ms <= result.duration_ms, 'and its time');
  const events = hookEvents(dir).map((e) => [e.hook_event_name, e.source ?? e.reason ?? e.trigger].join(':'));
  // The first run (startup … other), then the compaction run.
  assert.deepEqual(events, [
    'SessionStart:startup',
    'SessionEnd:other',
    'SessionStart:resume',
    'PreCompact:manual',
    'SessionStart:compact',
    'SessionEnd:other',
  ]);
  const fresh = makeProject();
  const none = await runCli(['-p', '/compact', '--output-format', 'json', ...MODEL], { cwd: fresh.dir, home: fresh.home, env: env() });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /needs a conversation: continue one with -c/);
});

const isSummaryRequest = (req: Parameters<typeof systemPrompt>[0]) => /^You are summarising a coding session/.test(systemPrompt(req) ?? '');

test('automatic compaction never loops: a 400 KB Write that refills the context stops the run, saying what filled it', async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': JSON.stringify({ modelContextWindow: 60_000 }) });
  model.reset();
  // The model answers every request with the same huge Write, as the runaway did (the summary requests get a summary).
  model.onRequest((req) =>
    isSummaryRequest(req)
      ? reply('## Open tasks\nwrite big.txt')
      : reply().tool('Write', { file_path: 'big.txt', content: 'z'.repeat(400_000) }),
  );
  const r = await runCli(['-p', 'write big.txt', '--permission-mode', 'auto-accept', '--output-format', 'json', ...SMALL], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 1, r.stderr);
  const res = JSON.parse(r.stdout);
  assert.equal(res.is_error, true);
  assert.match(res.result, /Stopped: the context is too full to go on \(a single model turn filled it again right after a compaction/);
  assert.match(res.result, /What fills it: a Write call's input \(big\.txt\): 100k tokens/);
  assert.match(res.result, /60k-token window \(from settings modelContextWindow\)/);
  assert.match(r.stderr, /compacted into a summary/, 'the first compaction happened');
  assert.deepEqual(
    model.requests.map((q) => (isSummaryRequest(q) ? 'summary' : 'model')),
    ['model', 'summary', 'model'],
  );
});

test('a conversation still over the threshold right after compacting (or a failed compaction) stops the run', async () => {
  // A 2k window: the system prompt alone is over 80 % of it, so no summary can help.
  const { dir, home } = makeProject({ 'a.txt': 'alpha\n', '.assistant/settings.json': JSON.stringify({ modelContextWindow: 2_000 }) });
  model.reset();
  model.script(reply().tool('Read', { file_path: 'a.txt' }), reply('## Open tasks\nnone'));
  const r = await runCli(['-p', 'read a.txt', ...SMALL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /error: Stopped: the context is too full to go on \(it is still over the threshold right after a compaction\)/);
  assert.match(r.stderr, /What fills it: the system prompt \(instructions, tool definitions, ASSISTANT\.md\): \dk tokens/);
  assert.equal(model.requests.length, 2);

  model.reset();
  model.script(reply().tool('Read', { file_path: 'a.txt' }), fail(400, { message: 'prompt is too long' }));
  const failed = await runCli(['-p', 'read a.txt', ...SMALL], { cwd: dir, home, env: env() });
  assert.equal(failed.code, 1, failed.stderr);
  assert.match(failed.stderr, /error: Stopped: the context is too full to go on \(compaction failed \(.*prompt is too long\)\)/);
  assert.equal(model.requests.length, 2, 'no request after the failed compaction');
});
