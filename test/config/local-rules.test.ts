import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addLocalAllowRules } from '../../src/config/local-rules.ts';

const module = fileURLToPath(new URL('../../src/config/local-rules.ts', import.meta.url));
const loader = fileURLToPath(new URL('../loader.mjs', import.meta.url));

/** A separate process (another session) adding `n` rules named `tag-i`, one answer at a time. */
function session(root: string, tag: string, n: number): Promise<number | string> {
  const code = `import { addLocalAllowRules } from ${JSON.stringify(module)};
for (let i = 0; i < ${n}; i++) addLocalAllowRules(${JSON.stringify(root)}, ['Bash(${tag}-' + i + ')']);`;
  const child = spawn(process.execPath, ['--import', loader, '--input-type=module', '-e', code], { stdio: ['ignore', 'inherit', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  return new Promise((r) => child.on('close', (code) => r(code === 0 ? 0 : `exit ${code}: ${err.slice(0, 400)}`)));
}

test('two sessions answering "allow always" at once keep every rule of both', async () => {
  const root = mkdtempSync(join(tmpdir(), 'local-rules-'));
  mkdirSync(join(root, '.assistant'));
  writeFileSync(join(root, '.assistant', 'settings.local.json'), '{ "permissions": { "allow": ["Read"] } }\n');
  const codes = await Promise.all([session(root, 'a', 150), session(root, 'b', 150)]);
  assert.deepEqual(codes, [0, 0]);
  const allow: string[] = JSON.parse(readFileSync(join(root, '.assistant', 'settings.local.json'), 'utf8')).permissions.allow;
  assert.equal(allow.length, 301, `rules lost: ${301 - allow.length}`);
  assert.deepEqual(readdirSync(join(root, '.assistant')), ['settings.local.json'], 'no temp or lock file is left');
});

test('a broken or commented settings.local.json is never overwritten; the error names the file', () => {
  const root = mkdtempSync(join(tmpdir(), 'local-rules-'));
  mkdirSync(join(root, '.assistant'));
  const file = join(root, '.assistant', 'settings.local.json');
  for (const text of ['{ "permissions": { "allow": ["Read"', '{\n  // mine\n  "permissions": {}\n}\n']) {
    writeFileSync(file, text);
    assert.throws(
      () => addLocalAllowRules(root, ['Bash(ls)']),
      (e: Error) => e.message.includes(file),
    );
    assert.equal(readFileSync(file, 'utf8'), text);
  }
});
