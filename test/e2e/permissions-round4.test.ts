import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { toolCallsRun } from './tool-calls.ts';

/**
 * Round 4 of the bypass classes (docs/permissions.md), the worst of each through the built CLI
 * (headless, fake model): refused, listed in `permission_denials`, and the damage does not
 * happen. The damage itself is shown with real bash in test/permissions/bypass-round4.test.ts.
 */

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('Plan Mode and Normal: glob options, awk getline and env -C cannot reach a denied file', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': JSON.stringify({
      permissions: { allow: ['Bash(awk:*)', 'Bash(env:*)', 'Bash(touch:*)'], deny: ['Read(.env)', 'Edit(secrets/**)'] },
    }),
    '.env': 'SECRET=hunter2\n',
    'secrets/k': 'key\n',
    'a.txt': 'hi\n',
  });
  for (const [mode, tools] of [
    [
      'plan',
      [
        ['Bash', { command: 'GLOBIGNORE=x; cat *' }],
        ['Bash', { command: 'cat 2>/dev/null .env' }],
      ],
    ],
    [
      'normal',
      [
        ['Bash', { command: 'shopt -s nocaseglob; cat .EN*' }],
        ['Bash', { command: `awk 'BEGIN{getline l < ".env"; print l}'` }],
        ['Bash', { command: 'env -C secrets touch pwned' }],
        ['Bash', { command: "awk '{print $1}' a.txt" }],
      ],
    ],
  ] as const) {
    const { results, result } = await toolCallsRun(
      model,
      dir,
      home,
      ['--permission-mode', mode],
      tools as unknown as Array<[string, Record<string, unknown>]>,
    );
    const refused = mode === 'plan' ? 2 : 3;
    assert.equal(result.permission_denials.length, refused, `${mode}: ${results.join('\n---\n')}`);
    for (const r of results.slice(0, refused)) assert.doesNotMatch(r, /hunter2/);
    if (mode === 'normal') assert.match(results[3], /hi/);
  }
  assert.ok(!existsSync(join(dir, 'secrets/pwned')));
});

test('Bypass: a start-up file reached through `..` after an expansion, or Python site-packages, asks (refused headless)', async () => {
  const { dir, home } = makeProject({ 'src/a.ts': '' });
  const { results, result } = await toolCallsRun(
    model,
    dir,
    home,
    ['--permission-mode', 'bypass'],
    [
      ['Bash', { command: `mkdir -p "$HOME/x" && echo 'touch PWNED' >> "$HOME"/x/../.bashrc` }],
      ['Write', { file_path: '~/.local/lib/python3.12/site-packages/x.pth', content: 'import os\n' }],
      ['Bash', { command: 'ls src' }],
    ],
  );
  assert.equal(result.permission_denials.length, 2, results.join('\n---\n'));
  assert.ok(!existsSync(join(home, '.bashrc')) || !readFileSync(join(home, '.bashrc'), 'utf8').includes('PWNED'));
  assert.match(results[2], /a\.ts/);
});
