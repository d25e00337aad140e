import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathCandidates, slashCandidates } from '../../src/ui/complete.ts';
import { loadCommands } from '../../src/commands/loader.ts';
import { makeProject } from '../fakes/project.ts';

test('Tab completes built-in and custom slash commands, including /project: forms', () => {
  const { dir, home } = makeProject({
    '.assistant/commands/review.md': '---\ndescription: Review the diff\n---\nReview.',
    '.assistant/commands/rewrite.md': 'Rewrite.',
  });
  const loaded = loadCommands({ projectRoot: dir, home });
  assert.deepEqual(
    slashCandidates('/re', loaded).map((c) => c.value),
    ['/recipes', '/recipe', '/resume', '/rewind', '/review', '/rewrite'],
  );
  assert.deepEqual(
    slashCandidates('/project:rev', loaded).map((c) => c.value),
    ['/project:review'],
  );
  assert.match(slashCandidates('/review', loaded)[0].hint!, /Review the diff \(project\)/);
});

test('@ paths complete from the directory typed so far and respect .gitignore at every level', () => {
  const { dir, home } = makeProject({
    '.gitignore': 'dist/\n*.log\n',
    'src/main.ts': '',
    'src/math.ts': '',
    'src/.gitignore': 'gen.ts\n',
    'src/gen.ts': '',
    'dist/out.js': '',
    'debug.log': '',
    'docs/a.md': '',
    '.env': '',
  });
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'HEAD'), '');
  assert.deepEqual(
    pathCandidates('@', dir, home).map((c) => c.value),
    ['@docs/', '@src/'],
  );
  assert.deepEqual(
    pathCandidates('@src/ma', dir, home).map((c) => c.value),
    ['@src/main.ts', '@src/math.ts'],
  );
  assert.deepEqual(pathCandidates('@src/g', dir, home), [], 'ignored by src/.gitignore');
  assert.deepEqual(
    pathCandidates('@.', dir, home).map((c) => c.value),
    ['@.env', '@.gitignore'],
    'dot files when asked for; never .git',
  );
  assert.equal(pathCandidates('@d', dir, home)[0].partial, true, 'a directory completes without a trailing space');
});
