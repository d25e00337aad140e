import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../src/agent/session.ts';
import { mapPart } from '../../src/providers/ai-sdk-stream.ts';
import type { ModelHandle, ModelRequest, StreamEvent } from '../../src/providers/types.ts';
import { makeProject } from '../fakes/project.ts';

const SIG = { google: { thoughtSignature: 'SIG-123' } };

test("a tool call's provider metadata (Gemini's thought signature) is read from the stream", () => {
  const ev = mapPart({ type: 'tool-call', toolCallId: 't1', toolName: 'LS', input: '{}', providerMetadata: SIG } as never);
  assert.deepEqual(ev, { type: 'tool-call', id: 't1', name: 'LS', input: '{}', meta: SIG });
  const plain = mapPart({ type: 'tool-call', toolCallId: 't2', toolName: 'LS', input: '{}' } as never);
  assert.equal('meta' in (plain as object), false);
});

test('…and sent back with the call on the next request, and kept in the transcript', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'x\n' });
  const requests: ModelRequest[] = [];
  const turns: StreamEvent[][] = [
    [
      { type: 'tool-call', id: 't1', name: 'LS', input: '{}', meta: SIG },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    ],
    [
      { type: 'text', delta: 'done' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    ],
  ];
  const model: ModelHandle = {
    id: 'google:gemini-3-pro',
    provider: 'google',
    model: 'gemini-3-pro',
    label: 'gemini',
    contextWindow: 1_000_000,
    async *stream(req) {
      requests.push(structuredClone(req));
      yield* turns[requests.length - 1];
    },
  };
  const session = new Session({
    cwd: dir,
    home,
    model,
    mode: 'bypass',
    additionalDirs: [],
    env: {},
    emit: () => {},
    ask: async () => ({ allow: true }),
    version: 't',
  });
  const out = await session.prompt('list', new AbortController().signal);
  assert.equal(out.status, 'done');
  const call = requests[1].messages.flatMap((m) => (m.role === 'assistant' ? m.content : [])).find((p) => p.type === 'tool-call');
  assert.deepEqual((call as { providerOptions?: unknown }).providerOptions, SIG);
  const { loadMessages } = await import('../../src/session/transcript.ts');
  const reloaded = loadMessages(session.conversation.transcript.path)
    .flatMap((m) => (m.role === 'assistant' ? m.content : []))
    .find((p) => p.type === 'tool-call');
  assert.deepEqual((reloaded as { providerOptions?: unknown }).providerOptions, SIG);
});
