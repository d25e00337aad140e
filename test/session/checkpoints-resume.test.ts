import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { restoreFiles } from '../../src/session/checkpoints.ts';
import { rewindFiles } from '../../src/session/rewind-points.ts';
import { readEntries } from '../../src/session/transcript.ts';
import { reply, startFakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { openSession, signal } from './helpers.ts';

test("a resumed compacted session numbers its prompts after the transcript's, so rewinding picks the right files", async () => {
  const model = await startFakeModel();
  try {
    const { dir, home } = makeProject({ 'c.txt': 'c0\n' });
    model.script(
      reply().tool('Write', { file_path: 'a.txt', content: 'a1\n' }),
      reply('Created a.'),
      reply().tool('Write', { file_path: 'b.txt', content: 'b1\n' }),
      reply('Created b.'),
      reply('Summary: a and b were created.'),
      reply().tool('Read', { file_path: 'c.txt' }),
      reply().tool('Write', { file_path: 'c.txt', content: 'c3\n' }),
      reply('Changed c.'),
    );
    const first = await openSession(model, dir, home);
    assert.equal((await first.prompt('create a', signal())).status, 'done');
    assert.equal((await first.prompt('create b', signal())).status, 'done');
    assert.equal((await first.compact('manual', undefined, signal())).ok, true);
    const path = first.conversation.transcript.path;

    // The compacted conversation holds one user message (the summary): counting those restarted at 1.
    const resumed = await openSession(model, dir, home, { sessionId: first.id, path });
    assert.equal(resumed.conversation.messages.filter((m) => m.role === 'user').length, 1);
    assert.equal((await resumed.prompt('change c', signal())).status, 'done');
    assert.equal(readFileSync(join(dir, 'c.txt'), 'utf8'), 'c3\n');

    const numbers = readEntries(path).flatMap((e) => (e.type === 'checkpoint' ? [e.prompt] : []));
    assert.deepEqual(numbers, [1, 2, 3], 'the resumed prompt is number 3, not a second number 2');
    assert.deepEqual(restoreFiles(path, 3), [join(dir, 'c.txt')], 'prompt 3 restores only what it changed');
    assert.equal(readFileSync(join(dir, 'c.txt'), 'utf8'), 'c0\n');
    assert.equal(readFileSync(join(dir, 'b.txt'), 'utf8'), 'b1\n', "prompt 2's file is left alone");

    // The positional rewind used by /rewind agrees: the third prompt is index 2.
    writeFileSync(join(dir, 'c.txt'), 'c3\n');
    assert.deepEqual(rewindFiles(path, 2), [join(dir, 'c.txt')]);
    assert.deepEqual(rewindFiles(path, 1), [join(dir, 'b.txt')], 'c.txt is already as it was: only b.txt changes');
    assert.equal(existsSync(join(dir, 'b.txt')), false);
    assert.equal(existsSync(join(dir, 'a.txt')), true);
  } finally {
    await model.close();
  }
});
