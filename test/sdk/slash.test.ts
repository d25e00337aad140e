import { test, after, before } from 'node:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

const firstText = (i: number) => JSON.stringify((model.requests[i].body as { messages: Array<{ content: unknown }> }).messages[0].content);
const resultOf = (ms: SDKMessage[]) =>
  ms.find((m) => m.type === 'result') as unknown as { is_error: boolean; result: string; num_turns: number };

const COMMANDS = {
  '.assistant/commands/review.md':
    '---\ndescription: Review a file\nallowed-tools: Bash(touch:*)\n---\nReview $1 carefully. Branch: !`echo BRANCH-OUTPUT`\n',
  'src/a.ts': 'export {};\n',
};

test('query({ prompt: "/project:NAME args" }) runs the expanded command, with its allowed-tools for that prompt only', async () => {
  const { dir, home } = makeProject(COMMANDS);
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'touch granted.txt' }),
    reply('Reviewed.'),
    reply().tool('Bash', { command: 'touch again.txt' }),
    reply('Done.'),
  );
  let asked = 0;
  const canUseTool = async () => {
    asked++;
    return { behavior: 'deny' as const, message: 'no' };
  };
  // Two prompts in one session: the command's grant must not outlive its prompt.
  async function* prompts() {
    yield {
      type: 'user' as const,
      message: { role: 'user' as const, content: '/project:review src/a.ts' },
      parent_tool_use_id: null,
      session_id: '',
    };
    yield { type: 'user' as const, message: { role: 'user' as const, content: 'touch again' }, parent_tool_use_id: null, session_id: '' };
  }
  const ms = await collect(
    query({ prompt: prompts(), options: { cwd: dir, model: MODEL, permissionMode: 'normal', canUseTool, env: envFor(model, home) } }),
  );
  const results = ms.filter((m) => m.type === 'result') as unknown as Array<{ is_error: boolean; result: string }>;
  assert.equal(results[0].is_error, false, results[0].result);
  assert.equal(results[0].result, 'Reviewed.');
  assert.match(firstText(0), /Review src\/a\.ts carefully\. Branch: BRANCH-OUTPUT/, 'the command was expanded, its !`cmd` run');
  assert.doesNotMatch(firstText(0), /project:review/);
  assert.equal(lastToolResults(model.requests[1])[0].isError, false, 'allowed-tools granted Bash(touch:*) for the command');
  assert.equal(existsSync(join(dir, 'granted.txt')), true);
  assert.equal(asked, 1, 'the next prompt of the session is asked about the same kind of call');
  assert.equal(existsSync(join(dir, 'again.txt')), false);
});

test('SDK slash commands behave as in -p: /help prints without the model, an unknown command is an error result', async () => {
  const { dir, home } = makeProject(COMMANDS);
  model.reset();
  const help = resultOf(await collect(query({ prompt: '/help', options: { cwd: dir, model: MODEL, env: envFor(model, home) } })));
  assert.equal(help.is_error, false);
  assert.match(help.result, /Built-in commands:[^]*\/review/);
  assert.equal(help.num_turns, 0);
  const unknown = resultOf(await collect(query({ prompt: '/reviw x', options: { cwd: dir, model: MODEL, env: envFor(model, home) } })));
  assert.equal(unknown.is_error, true);
  assert.match(unknown.result, /Unknown command \/reviw\. Did you mean \/review\?/);
  const model_ = resultOf(await collect(query({ prompt: '/model x:y', options: { cwd: dir, model: MODEL, env: envFor(model, home) } })));
  assert.match(model_.result, /\/model belongs to the interactive session/);
  assert.equal(model.requests.length, 0, 'nothing was sent');
});
