import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesToRewind, rewindPoints } from '../../src/session/rewind-points.ts';
import { loadMessages, projectDir, replayTranscript, Transcript, type TranscriptEntry } from '../../src/session/transcript.ts';
import { SUMMARY_PREFIX } from '../../src/session/compact.ts';
import type { Message } from '../../src/providers/types.ts';
import { userTexts, reply, startFakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { openSession, signal } from './helpers.ts';

const ts = '2026-01-01T00:00:00.000Z';
const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const user = (text: string): TranscriptEntry => ({
  type: 'message',
  message: { role: 'user', content: [{ type: 'text', text }] },
  timestamp: ts,
});
const answer = (text: string): TranscriptEntry => ({
  type: 'message',
  message: { role: 'assistant', content: [{ type: 'text', text }] },
  timestamp: ts,
});
const result: TranscriptEntry = { type: 'result', status: 'done', turns: 1, usage, costUsd: 0, timestamp: ts };
const turn = (n: string) => [user(`p${n}`), answer(`a${n}`), result];
const texts = (ms: Message[]) => ms.map((m) => (m.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? p.type).join(''));

test('a rewind entry takes the conversation back to before its prompt, through compactions; prompts keep their numbers', () => {
  const entries: TranscriptEntry[] = [
    { type: 'session', sessionId: 's', cwd: '/p', model: 'm', version: 't', timestamp: ts },
    ...turn('0'),
    ...turn('1'),
    { type: 'compact', trigger: 'manual', summary: 'S', timestamp: ts },
    ...turn('2'),
  ];
  const at = (extra: TranscriptEntry[]) => replayTranscript([...entries, ...extra]);
  assert.deepEqual(texts(at([]).messages), [`${SUMMARY_PREFIX}S`, 'p2', 'a2']);
  assert.deepEqual(texts(at([{ type: 'rewind', prompt: 2, timestamp: ts }]).messages), [`${SUMMARY_PREFIX}S`], 'before p2: the summary');
  assert.deepEqual(
    texts(at([{ type: 'rewind', prompt: 1, timestamp: ts }]).messages),
    ['p0', 'a0'],
    'before p1: the conversation before the compaction',
  );

  // After a rewind the next user message is a new prompt (index 3); the rewound ones are inactive.
  const after = at([
    { type: 'rewind', prompt: 1, timestamp: ts },
    ...turn('3'),
    { type: 'rewind', prompt: 3, timestamp: ts },
    ...turn('4'),
  ]);
  assert.deepEqual(
    after.prompts.map((p) => [p.index, p.text, p.active]),
    [
      [0, 'p0', true],
      [1, 'p1', false],
      [2, 'p2', false],
      [3, 'p3', false],
      [4, 'p4', true],
    ],
  );
  assert.deepEqual(texts(after.messages), ['p0', 'a0', 'p4', 'a4'], 'a rewind inside a rewound branch stacks on it');
});

test('a prompt cut short by a crash ends at the next session entry; Stop-hook follow-ups are not prompts', () => {
  const entries: TranscriptEntry[] = [
    user('p0'),
    answer('a0'),
    user('stop hook says: go on'),
    answer('a0b'),
    result,
    user('p1'),
    answer('half'),
    { type: 'session', sessionId: 's', cwd: '/p', model: 'm', version: 't', timestamp: ts, resumed: true },
    user('p2'),
  ];
  assert.deepEqual(
    replayTranscript(entries).prompts.map((p) => p.text),
    ['p0', 'p1', 'p2'],
  );
});

test('Session.rewindConversation: the model sees the rewound conversation, -c resumes it, files stay; /rewind lists what is left', async () => {
  const model = await startFakeModel();
  try {
    const { dir, home } = makeProject();
    model.script(
      reply('The word is kiwi.'),
      reply().tool('Write', { file_path: 'x.txt', content: 'x\n' }),
      reply('Now it is plum.'),
      reply('Fresh start after kiwi.'),
      reply('Still here.'),
    );
    const s = await openSession(model, dir, home);
    await s.prompt('remember kiwi', signal());
    await s.prompt('forget it, remember plum', signal());
    const path = s.conversation.transcript.path;
    assert.deepEqual(filesToRewind(path, 1), [join(dir, 'x.txt')]);
    s.conversation.rewind(1);
    assert.deepEqual(texts(s.conversation.messages), ['remember kiwi', 'The word is kiwi.']);
    assert.equal(readFileSync(join(dir, 'x.txt'), 'utf8'), 'x\n', 'the conversation alone: files are not touched');
    await s.prompt('what now', signal());
    assert.deepEqual(
      userTexts(model.requests[3]).filter((t) => !t.startsWith('<')),
      ['remember kiwi', 'what now'],
    );
    assert.deepEqual(
      rewindPoints(path).map((p) => [p.prompt, p.active, p.files.length]),
      [
        ['remember kiwi', true, 0],
        ['forget it, remember plum', false, 1],
        ['what now', true, 0],
      ],
    );

    const resumed = await openSession(model, dir, home, { sessionId: s.id, path });
    assert.deepEqual(texts(resumed.conversation.messages), texts(loadMessages(path)));
    assert.deepEqual(texts(resumed.conversation.messages), ['remember kiwi', 'The word is kiwi.', 'what now', 'Fresh start after kiwi.']);
  } finally {
    await model.close();
  }
});

test('a transcript written before rewind entries existed still loads the same', () => {
  const { home } = makeProject();
  const t = new Transcript(projectDir(home, '/y'), 'old');
  for (const e of [...turn('0'), ...turn('1')]) t.write(e);
  assert.deepEqual(texts(loadMessages(t.path)), ['p0', 'a0', 'p1', 'a1']);
});
