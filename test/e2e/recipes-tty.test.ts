import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const PROJECT = { 'src/value.js': 'export const value = 1;\n' };

test('recipes run in a terminal asks each permission question there: y allows, n with a note refuses', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(
    reply().tool('Read', { file_path: 'src/value.js' }),
    reply().tool('Edit', { file_path: 'src/value.js', old_string: 'value = 1', new_string: 'value = 2' }),
    reply().tool('Bash', { command: 'rm -rf build' }),
    reply('Fixed; I did not clean the build.'),
  );
  const t = TmuxCli.start(
    [
      'recipes',
      'run',
      '5',
      '--set',
      'bug summary=wrong value',
      '--set',
      'symptom=value is 1, expected 2',
      '--set',
      'test command=true',
      '--file',
      'src/value.js',
      '--model',
      'anthropic:claude-sonnet-4-5',
    ],
    { cwd: dir, home, env: env() },
  );
  try {
    await t.waitFor(/Edit\(.*src\/value\.js\) needs approval/);
    assert.equal(readFileSync(join(dir, 'src/value.js'), 'utf8'), PROJECT['src/value.js'], 'nothing changes while the question waits');
    t.type('y');
    t.keys('Enter');
    await t.waitFor(/Bash\(rm -rf build\) needs approval/);
    t.type('n keep the build');
    t.keys('Enter');
    await t.waitFor('[exit 0]');
    assert.match(t.screen(), /Fixed; I did not clean the build\./);
    assert.equal(readFileSync(join(dir, 'src/value.js'), 'utf8'), 'export const value = 2;\n');
    assert.match(lastToolResults(model.requests[3])[0].content, /The user refused this tool call and said: keep the build/);
  } finally {
    t.close();
  }
});
