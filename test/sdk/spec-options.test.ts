/** SPEC §15 options that no other test drove (qa-spec2): appendSystemPrompt, disallowedTools, addDirs, resume, continue, abortController. */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { collect, envFor } from './sdk-run.ts';
import { query, type SDKMessage } from '../../src/sdk/index.ts';

const MODEL = 'anthropic:claude-sonnet-4-5';
let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});
const resultOf = (m: SDKMessage[]) => m.at(-1) as Extract<SDKMessage, { type: 'result' }>;

test('appendSystemPrompt, disallowedTools and addDirs shape the run; resume and continue bring the session back', async () => {
  const other = makeProject({ 's.txt': 'OTHER\n' });
  const { dir, home } = makeProject({ 'a.txt': 'A\n' });
  const env = envFor(model, home);
  model.reset();
  model.script(
    reply()
      .tool('Read', { file_path: 'a.txt' })
      .tool('Read', { file_path: `${other.dir}/s.txt` }),
    reply('first'),
  );
  const one = resultOf(
    await collect(
      query({
        prompt: 'one',
        options: {
          cwd: dir,
          model: MODEL,
          env,
          appendSystemPrompt: 'APPENDED-XYZ',
          disallowedTools: ['Read(a.txt)'],
          addDirs: [other.dir],
        },
      }),
    ),
  );
  assert.equal(one.result, 'first');
  assert.match(JSON.stringify(model.requests[0].body.system), /APPENDED-XYZ/);
  const [denied, added] = lastToolResults(model.requests[1]).map((x) => String(x.content));
  assert.match(denied, /denied by the rule "Read\(a\.txt\)"/);
  assert.match(denied, /disallowedTools option/, 'the rule is named by the option it came from');
  assert.doesNotMatch(denied, /--disallowed-tools/);
  assert.equal(added, '     1\tOTHER');
  assert.deepEqual(
    one.permission_denials.map((d) => d.tool_name),
    ['Read'],
  );

  model.reset();
  model.script(reply('second'), reply('third'));
  const two = resultOf(await collect(query({ prompt: 'two', options: { cwd: dir, model: MODEL, env, resume: one.session_id } })));
  assert.equal(two.session_id, one.session_id);
  assert.match(JSON.stringify(model.requests[0].body.messages), /"one"/);
  const three = resultOf(await collect(query({ prompt: 'three', options: { cwd: dir, model: MODEL, env, continue: true } })));
  assert.equal(three.session_id, one.session_id);
  assert.match(JSON.stringify(model.requests[1].body.messages), /"two"/);
});

test('abortController.abort() ends a query in flight with an error result, and the Bash call is stopped', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'sleep 20' }), reply('never'));
  const abortController = new AbortController();
  const q = query({
    prompt: 'go',
    options: { cwd: dir, model: MODEL, env: envFor(model, home), abortController, permissionMode: 'bypass' },
  });
  setTimeout(() => abortController.abort(), 500);
  const started = Date.now();
  const r = resultOf(await collect(q));
  assert.ok(Date.now() - started < 10_000, 'the sleep was stopped');
  assert.equal(r.is_error, true);
  assert.equal(model.requests.length, 1, 'nothing more is asked of the model');
});

test('Claude Agent SDK option names port: additionalDirectories is addDirs; options with no effect here warn, typos still fail', async () => {
  const other = makeProject({ 's.txt': 'OTHER\n' });
  const { dir, home } = makeProject({ 'a.txt': 'A\n' });
  model.reset();
  model.script(reply().tool('Read', { file_path: `${other.dir}/s.txt` }), reply('read it'));
  const options = {
    cwd: dir,
    model: MODEL,
    env: envFor(model, home),
    additionalDirectories: [other.dir],
    settingSources: ['project'],
    includePartialMessages: false,
  };
  const out = await collect(query({ prompt: 'read the other file', options: options as never }));
  assert.equal(resultOf(out).is_error, false);
  assert.match(JSON.stringify(lastToolResults(model.requests[1])), /OTHER/, 'the added directory was readable');
  const warnings = out.filter((m) => m.type === 'warning').map((m) => (m as { message: string }).message);
  assert.deepEqual(warnings, [
    'query() option settingSources (Claude Agent SDK) has no effect here and was ignored.',
    'query() option includePartialMessages (Claude Agent SDK) has no effect here and was ignored.',
  ]);
  assert.throws(() => query({ prompt: 'x', options: { colour: 'red' } as never }), /unknown option colour/);
});
