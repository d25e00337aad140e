import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endEarly, malformed, reply, startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const WIRES = [
  { name: 'anthropic', args: ['--model', 'anthropic:claude-sonnet-4-5'], env: () => model.env('anthropic') },
  { name: 'openai responses', args: ['--model', 'openai:gpt-5'], env: () => model.env('openai') },
  { name: 'openai chat', args: ['--model', 'openai-chat:gpt-4o'], env: () => model.env('openai-chat') },
  { name: 'openai-compatible', args: ['--model', 'openai-compatible:local-model'], env: () => model.env('openai-compatible') },
];

const CONTENT = 'line one\nline two\n'.repeat(20);
const write = () => reply().text('Writing it.').tool('Write', { file_path: 'out.txt', content: CONTENT });

for (const w of WIRES) {
  test(`${w.name}: a stream that ends mid tool call, and one that is not the wire format, are retried visibly`, async () => {
    const { dir, home } = makeProject();
    model.reset();
    model.script(endEarly(write()), malformed(write()), write(), reply('Done.'));
    const r = await runCli(['-p', 'write out.txt', '--permission-mode', 'auto-accept', ...w.args], { cwd: dir, home, env: w.env() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Done.\n');
    assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), CONTENT, 'the call of the whole answer ran');
    assert.match(r.stderr, /ended before the response was complete.*retrying/i);
    assert.match(r.stderr, /not valid JSON[^\n]*502 Bad Gateway[^\n]*retrying/i, 'says what the server sent');
    assert.doesNotMatch(r.stderr, /Expected a normalized/);
    assert.equal(model.requests.length, 4);
  });
}

test('retries run out on incomplete and malformed streams: exit 1 with what went wrong, no tool ran', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(endEarly(write()), endEarly(write()));
  const incomplete = await runCli(
    ['-p', 'write out.txt', '--permission-mode', 'auto-accept', '--output-format', 'json', ...WIRES[0].args],
    { cwd: dir, home, env: { ...WIRES[0].env(), ASSISTANT_MAX_RETRIES: '1' } },
  );
  assert.equal(incomplete.code, 1, incomplete.stderr);
  const res = JSON.parse(incomplete.stdout);
  assert.equal(res.is_error, true);
  assert.match(res.result, /ended before the response was complete.*gave up after 2 attempts/);
  assert.equal(existsSync(join(dir, 'out.txt')), false, 'the unfinished call was not run');

  model.reset();
  const bad = '{"type":"response.output_text.delta","delta":"hel';
  model.script(malformed(write(), { after: 3, data: bad }), malformed(write(), { after: 3, data: bad }));
  const garbled = await runCli(['-p', 'write out.txt', '--permission-mode', 'auto-accept', ...WIRES[1].args], {
    cwd: dir,
    home,
    env: { ...WIRES[1].env(), ASSISTANT_MAX_RETRIES: '1' },
  });
  assert.equal(garbled.code, 1, garbled.stderr);
  assert.match(garbled.stderr, /error: .*not valid JSON.*response\.output_text\.delta.*gave up after 2 attempts/);
  assert.equal(existsSync(join(dir, 'out.txt')), false);
});
