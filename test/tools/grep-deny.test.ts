import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fsLookup } from '../../src/permissions/look.ts';
import { readDenied } from '../../src/permissions/path-forms.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { globTool } from '../../src/tools/glob.ts';
import { grepTool } from '../../src/tools/grep.ts';
import { lsTool } from '../../src/tools/ls.ts';
import { makeCtx, tempDir } from './helpers.ts';

/**
 * Grep, Glob and LS leave out files a Read deny rule covers, whatever the search root (audit 4,
 * F2): the session passes `readDenied` in the tool context.
 */
async function project() {
  const dir = await tempDir('deny-');
  await mkdir(join(dir, 'config'));
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, '.env'), 'KEY=SECRET\n');
  await writeFile(join(dir, 'config/.env'), 'NESTED=SECRET\n');
  await writeFile(join(dir, 'config/prod.json'), '{"pw":"SECRET"}\n');
  await writeFile(join(dir, 'src/a.ts'), 'const SECRET_NAME = 1;\n');
  await symlink(join(dir, '.env'), join(dir, 'src/envlink'));
  const rules = buildRules([{ kind: 'deny', rules: ['Read(.env)', 'Read(/config/prod.json)'], source: 'settings' }]).rules;
  const ctx = makeCtx(dir, {
    readDenied: (tool, abs) =>
      readDenied(tool, abs, { projectRoot: dir, additionalDirs: [], home: '/nonexistent', rules, look: fsLookup }) !== undefined,
  });
  return { dir, ctx };
}

test('Grep in content, files and count modes never shows a denied file', async () => {
  const { ctx } = await project();
  for (const input of [
    { pattern: 'SECRET', path: '.', output_mode: 'content' as const },
    { pattern: 'SECRET', output_mode: 'content' as const, glob: '*.env*' },
    { pattern: 'SECRET', output_mode: 'content' as const, '-C': 1 },
    { pattern: 'SECRET', output_mode: 'files_with_matches' as const },
    { pattern: 'SECRET', output_mode: 'count' as const },
  ]) {
    const r = await grepTool.execute(input, ctx);
    assert.doesNotMatch(r.output, /KEY=|NESTED=|pw|\.env|prod\.json/, JSON.stringify(input));
  }
  const content = await grepTool.execute({ pattern: 'SECRET', output_mode: 'content' }, ctx);
  assert.equal(content.output, 'src/a.ts:1:const SECRET_NAME = 1;');
  const count = await grepTool.execute({ pattern: 'SECRET', output_mode: 'count' }, ctx);
  assert.match(count.output, /^src\/a\.ts:1\n\nFound 1 total match across 1 file\./);
  const only = await grepTool.execute({ pattern: 'SECRET', output_mode: 'content', glob: '*.env*' }, ctx);
  assert.equal(only.output, 'No matches found');
});

test('Grep without the context check still reports every file (nothing is lost in the NUL-separated output)', async () => {
  const { dir } = await project();
  const r = await grepTool.execute({ pattern: 'SECRET', output_mode: 'content', '-n': false }, makeCtx(dir));
  assert.match(r.output, /^\.env:KEY=SECRET$/m);
  assert.match(r.output, /^config\/prod\.json:\{"pw":"SECRET"\}$/m);
});

test('Glob and LS do not list denied files, nor links to them', async () => {
  const { ctx } = await project();
  const g = await globTool.execute({ pattern: '**/*' }, ctx);
  assert.match(g.output, /src\/a\.ts/);
  assert.doesNotMatch(g.output, /\.env|prod\.json|envlink/);
  const named = await globTool.execute({ pattern: '**/.env' }, ctx);
  assert.equal(named.output, 'No files found');
  const ls = await lsTool.execute({ path: '.' }, ctx);
  assert.match(ls.output, /a\.ts/);
  assert.doesNotMatch(ls.output, /\.env|prod\.json|envlink/);
});
