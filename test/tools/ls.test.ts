import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { lsTool } from '../../src/tools/ls.ts';
import { makeCtx, tempDir } from './helpers.ts';

test('LS lists a tree, directories first with a slash, skipping .git, node_modules and gitignored entries', async () => {
  const dir = await tempDir('ls-');
  for (const d of ['src/util', '.git/objects', 'node_modules/x', 'coverage']) await mkdir(join(dir, d), { recursive: true });
  for (const f of ['README.md', 'src/index.ts', 'src/util/a.ts', 'src/util/secret.tmp', '.env', 'coverage/lcov.info'])
    await writeFile(join(dir, f), '');
  await writeFile(join(dir, '.gitignore'), 'coverage/\n');
  await writeFile(join(dir, 'src/.gitignore'), '*.tmp\n');
  const r = await lsTool.execute({ path: dir }, makeCtx(dir));
  assert.equal(r.isError, undefined, r.output);
  assert.equal(
    r.output,
    [
      `- ${dir}/`,
      '  - src/',
      '    - util/',
      '      - a.ts',
      '    - .gitignore',
      '    - index.ts',
      '  - .env',
      '  - .gitignore',
      '  - README.md',
    ].join('\n'),
  );
  // Listing a sub-directory still honours the project's .gitignore files.
  const sub = await lsTool.execute({ path: 'src/util' }, makeCtx(dir));
  assert.equal(sub.output, `- ${join(dir, 'src/util')}/\n  - a.ts`);
});

test('LS ignore patterns leave entries out', async () => {
  const dir = await tempDir('ls-');
  await mkdir(join(dir, 'dist'));
  for (const f of ['a.log', 'b.txt', 'dist/out.js']) await writeFile(join(dir, f), '');
  const r = await lsTool.execute({ path: '.', ignore: ['*.log', 'dist'] }, makeCtx(dir));
  assert.equal(r.output, `- ${dir}/\n  - b.txt`);
});

test('LS caps the listing at 1000 entries with a note', async () => {
  const dir = await tempDir('ls-');
  await Promise.all(Array.from({ length: 1100 }, (_, i) => writeFile(join(dir, `f${i}`), '')));
  const r = await lsTool.execute({ path: dir }, makeCtx(dir));
  assert.equal(r.output.split('\n\n')[0].split('\n').length, 1001);
  assert.match(r.output, /Listing truncated at 1000 entries/);
});

test('LS refuses a missing path and a file', async () => {
  const dir = await tempDir('ls-');
  await writeFile(join(dir, 'f.txt'), '');
  const missing = await lsTool.execute({ path: 'nope' }, makeCtx(dir));
  assert.equal(missing.isError, true);
  assert.match(missing.output, /does not exist/);
  const file = await lsTool.execute({ path: 'f.txt' }, makeCtx(dir));
  assert.equal(file.isError, true);
  assert.match(file.output, /is a file.*Read/);
});
