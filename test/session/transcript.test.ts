import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, utimesSync } from 'node:fs';
import { listSessions, loadMessages, projectDir, readEntries, Transcript } from '../../src/session/transcript.ts';
import { makeProject } from '../fakes/project.ts';

test('project directory follows Claude Code naming', () => {
  assert.equal(projectDir('/h', '/home/user/my proj'), '/h/.assistant/projects/-home-user-my-proj');
});

test('a torn last line is skipped and unanswered tool calls are closed as interrupted', () => {
  const { home } = makeProject();
  const t = new Transcript(projectDir(home, '/x'), 's1');
  const ts = new Date().toISOString();
  t.write({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'go' }] }, timestamp: ts });
  t.write({
    type: 'message',
    message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'Bash', input: { command: 'sleep 9' } }] },
    timestamp: ts,
  });
  appendFileSync(t.path, '{"type":"message","mess');
  assert.equal(readEntries(t.path).length, 2);
  const msgs = loadMessages(t.path);
  assert.equal(msgs.length, 3);
  assert.equal(msgs[2].role, 'tool');
  const part = (msgs[2] as { content: Array<{ toolCallId: string; output: { type: string; value: string } }> }).content[0];
  assert.equal(part.toolCallId, 'c1');
  assert.equal(part.output.type, 'error-text');
  assert.match(part.output.value, /Interrupted/);
  const sessions = listSessions(projectDir(home, '/x'));
  assert.equal(sessions[0].sessionId, 's1');
  assert.equal(sessions[0].firstPrompt, 'go');
});

test('a session left without a prompt is not listed, so -c continues the last real one', () => {
  const home = makeProject({}).dir;
  const dir = projectDir(home, '/y');
  const real = new Transcript(dir, 'real');
  real.write({ type: 'session', sessionId: 'real', cwd: '/y', model: 'm', version: 't', timestamp: new Date().toISOString() });
  real.write({
    type: 'message',
    message: { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    timestamp: new Date().toISOString(),
  });
  const empty = new Transcript(dir, 'empty');
  empty.write({
    type: 'session',
    sessionId: 'empty',
    cwd: '/y',
    model: 'm',
    version: 't',
    timestamp: new Date(Date.now() + 5000).toISOString(),
  });
  const later = new Date(Date.now() + 10_000);
  utimesSync(empty.path, later, later);
  assert.deepEqual(
    listSessions(dir).map((s) => s.sessionId),
    ['real'],
  );
});

test('every line is checked against the transcript schema: what does not fit is skipped and counted', async () => {
  const { readTranscript, transcriptWarning } = await import('../../src/session/transcript.ts');
  const { home } = makeProject();
  const t = new Transcript(projectDir(home, '/z'), 's1');
  const ts = new Date().toISOString();
  t.write({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'go' }] }, timestamp: ts });
  const bad: Array<[string, unknown]> = [
    ['null', null],
    ['a number', 42],
    ['an unknown entry type', { type: 'mystery', timestamp: ts }],
    ['a message without a body', { type: 'message', timestamp: ts }],
    ['string content where parts are expected', { type: 'message', message: { role: 'user', content: 'hi' }, timestamp: ts }],
    ['a part without its text', { type: 'message', message: { role: 'assistant', content: [{ type: 'text' }] }, timestamp: ts }],
    [
      'a tool result without output',
      { type: 'message', message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'Read' }] }, timestamp: ts },
    ],
    ['an unknown role', { type: 'message', message: { role: 'robot', content: [] }, timestamp: ts }],
    ['a compact entry without summary', { type: 'compact', trigger: 'auto', timestamp: ts }],
    ['a rewind to a negative prompt', { type: 'rewind', prompt: -1, timestamp: ts }],
  ];
  for (const [, line] of bad) appendFileSync(t.path, `${JSON.stringify(line)}\n`);
  // Fields this program does not know (a newer version's, provider metadata) pass through untouched.
  t.write({
    type: 'message',
    message: { role: 'assistant', content: [{ type: 'text', text: 'ok', providerOptions: { x: { y: 1 } } }] },
    extra: 'kept',
    timestamp: ts,
  } as never);
  const read = readTranscript(t.path);
  assert.equal(read.skipped, bad.length, bad.map(([what]) => what).join(', '));
  assert.equal(read.entries.length, 2);
  assert.equal((read.entries[1] as { extra?: string }).extra, 'kept');
  assert.deepEqual(read.firstSkipped, { line: 2, why: 'not a transcript entry (Invalid input: expected object, received null)' });
  assert.deepEqual(
    loadMessages(t.path).map((m) => m.role),
    ['user', 'assistant'],
  );
  const warning = transcriptWarning(t.path) ?? '';
  assert.ok(warning.startsWith(`${t.path}: 10 lines were skipped`), warning);
});
