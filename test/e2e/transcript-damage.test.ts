import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeModel, userTexts, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];

test('-c over a transcript with lines that are JSON but not entries: skipped, counted, named; the rest resumes', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('first answer'), reply('second answer'));
  const first = await runCli(['-p', 'REMEMBER-ME', ...MODEL], { cwd: dir, home, env: model.env() });
  assert.equal(first.code, 0, first.stderr);
  const projects = join(home, '.assistant', 'projects');
  const proj = join(projects, readdirSync(projects)[0]);
  const file = join(proj, readdirSync(proj).find((f) => f.endsWith('.jsonl'))!);
  const ts = new Date().toISOString();
  appendFileSync(
    file,
    [
      'null',
      JSON.stringify({ type: 'message', timestamp: ts }),
      JSON.stringify({ type: 'message', message: { role: 'user', content: 'a string where parts are expected' }, timestamp: ts }),
      JSON.stringify({
        type: 'message',
        message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1' }] },
        timestamp: ts,
      }),
      JSON.stringify({ type: 'compact', trigger: 'auto', timestamp: ts }),
      '[1, 2, 3]',
      '{"type":"message","mess',
    ].join('\n'),
  );
  const next = await runCli(['-c', '-p', 'AND-THEN', ...MODEL], { cwd: dir, home, env: model.env() });
  assert.equal(next.code, 0, next.stderr);
  assert.equal(next.stdout, 'second answer\n');
  assert.doesNotMatch(next.stderr, /TypeError|at .*\.js:\d+/, 'no crash, no stack trace');
  assert.ok(next.stderr.includes(file), `the warning names the file: ${next.stderr}`);
  assert.match(next.stderr, /7 lines were skipped .*\(the first, line \d+: not a transcript entry/);
  assert.deepEqual(userTexts(model.requests[1]), ['REMEMBER-ME', 'AND-THEN'], 'the valid history is resumed');
  assert.match(readFileSync(file, 'utf8'), /"mess\n\{"type":"session"/, 'the torn last line does not swallow the next entry');
});
