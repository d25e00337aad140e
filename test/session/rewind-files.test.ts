import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileHistory } from '../../src/session/checkpoints.ts';
import { rewindFiles } from '../../src/session/rewind-points.ts';
import { Transcript } from '../../src/session/transcript.ts';

test('/rewind puts back a deleted executable with its mode, a file whose folder was removed, and removes a created one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewind-files-'));
  const t = new Transcript(join(dir, 'projects'), 'sess');
  const timestamp = new Date().toISOString();
  t.write({ type: 'session', sessionId: 'sess', cwd: dir, model: 'm', version: 'v', timestamp });
  t.write({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'change things' }] }, timestamp });
  const history = new FileHistory(t);
  history.startPrompt();

  const script = join(dir, 'run.sh');
  writeFileSync(script, '#!/bin/sh\necho old\n');
  chmodSync(script, 0o750);
  history.beforeChange(script, readFileSync(script));
  writeFileSync(script, '#!/bin/sh\necho new\n');
  rmSync(script); // then a Bash `rm`

  const nested = join(dir, 'sub', 'deep', 'a.txt');
  mkdirSync(join(dir, 'sub', 'deep'), { recursive: true });
  writeFileSync(nested, 'A\n');
  history.beforeChange(nested, readFileSync(nested));
  rmSync(join(dir, 'sub'), { recursive: true }); // then `rm -rf sub`

  const created = join(dir, 'created.txt');
  history.beforeChange(created, null);
  writeFileSync(created, 'new\n');

  const restored = rewindFiles(t.path, 0);
  assert.deepEqual(restored.sort(), [created, script, nested].sort());
  assert.equal(readFileSync(script, 'utf8'), '#!/bin/sh\necho old\n');
  assert.equal((statSync(script).mode & 0o777).toString(8), '750', 'the script is executable again');
  assert.equal(readFileSync(nested, 'utf8'), 'A\n');
  assert.equal(existsSync(created), false);
});
