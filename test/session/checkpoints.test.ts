import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileHistory, restoreFiles } from '../../src/session/checkpoints.ts';
import { projectDir, readEntries, Transcript } from '../../src/session/transcript.ts';
import { makeProject } from '../fakes/project.ts';

test('files changed in a prompt are restored to their content before it', () => {
  const { dir, home } = makeProject({ 'a.txt': 'v0\n' });
  const t = new Transcript(projectDir(home, dir), 'sess');
  const h = new FileHistory(t);
  const a = join(dir, 'a.txt');
  const b = join(dir, 'b.txt');

  h.startPrompt(); // prompt 1: edit a twice
  h.beforeChange(a, 'v0\n');
  writeFileSync(a, 'v1\n');
  h.beforeChange(a, 'v1\n');
  writeFileSync(a, 'v1b\n');
  h.startPrompt(); // prompt 2: edit a, create b
  h.beforeChange(a, 'v1b\n');
  writeFileSync(a, 'v2\n');
  h.beforeChange(b, null);
  writeFileSync(b, 'new\n');

  const checkpoints = readEntries(t.path).filter((e) => e.type === 'checkpoint');
  assert.equal(checkpoints.length, 3, 'one backup per file per prompt');

  assert.deepEqual(restoreFiles(t.path, 2).sort(), [a, b].sort());
  assert.equal(readFileSync(a, 'utf8'), 'v1b\n');
  assert.equal(existsSync(b), false);

  restoreFiles(t.path, 1);
  assert.equal(readFileSync(a, 'utf8'), 'v0\n');
});
