import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SUMMARY_PREFIX } from '../../src/session/compact.ts';
import { Conversation, type Compaction } from '../../src/session/conversation.ts';
import { readEntries } from '../../src/session/transcript.ts';
import { resolveModel } from '../../src/providers/resolve.ts';
import type { Message } from '../../src/providers/types.ts';
import { fail, reply, startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { signal } from './helpers.ts';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const texts = (ms: Message[]) => ms.map((m) => (m.content as Array<{ text?: string }>).map((p) => p.text ?? '').join(''));
const handle = (model: FakeModel, dir: string, contextWindow?: number, spec = 'anthropic:claude-sonnet-4-5') =>
  resolveModel({ spec, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl }, cwd: dir, contextWindow });

/** One prompt and its answer, as a run appends them. */
function turn(c: Conversation, n: number): void {
  c.startPrompt();
  c.countRun();
  c.append(user(`p${n}`), undefined, n === 0 ? { shown: '[Pasted text #1]' } : {});
  c.append(answer(`a${n}`), usage, {});
  c.endPrompt({ status: 'done', turns: 1, usage, costUsd: 0 });
}

test('a conversation keeps its messages and the files read in its transcript; a resumed one has both back', () => {
  const { dir, home } = makeProject();
  const c = new Conversation({ home, cwd: dir, id: 'conv-1', model: 'anthropic:m', version: 'test' });
  turn(c, 0);
  c.fileState.set(`${dir}/a.ts`, { mtimeMs: 5, size: 7 });
  turn(c, 1);
  assert.deepEqual(texts(c.messages), ['p0', 'a0', 'p1', 'a1']);
  const entries = readEntries(c.transcript.path);
  assert.deepEqual(
    entries.map((e) => e.type),
    ['session', 'message', 'message', 'result', 'file-state', 'message', 'message', 'result'],
  );
  assert.deepEqual(entries[0], { ...entries[0], sessionId: 'conv-1', cwd: dir, model: 'anthropic:m', version: 'test' });
  assert.equal((entries[1] as { shown?: string }).shown, '[Pasted text #1]', 'how the prompt was shown rides on its entry');
  assert.deepEqual((entries[2] as { usage?: unknown }).usage, usage);

  const again = new Conversation({
    home,
    cwd: dir,
    id: 'conv-1',
    model: 'anthropic:m',
    version: 'test',
    resume: { sessionId: 'conv-1', path: c.transcript.path },
  });
  assert.deepEqual(texts(again.messages), ['p0', 'a0', 'p1', 'a1']);
  assert.deepEqual(again.fileState.get(`${dir}/a.ts`), { mtimeMs: 5, size: 7 });
  assert.equal(again.transcript.path, c.transcript.path);
  assert.equal(
    (readEntries(c.transcript.path).at(-1) as { resumed?: boolean }).resumed,
    true,
    'a resumed run opens with its own session entry',
  );
});

test('rewind: back to before a prompt, recorded, what was read forgotten; a resume sees the rewound conversation', () => {
  const { dir, home } = makeProject();
  const c = new Conversation({ home, cwd: dir, id: 'conv-2', model: 'anthropic:m', version: 'test' });
  turn(c, 0);
  turn(c, 1);
  c.fileState.set(`${dir}/a.ts`, { mtimeMs: 1, size: 1 });
  c.rewind(1);
  assert.deepEqual(texts(c.messages), ['p0', 'a0']);
  assert.equal(c.fileState.size, 0, 'the model must read files again before editing them');
  assert.deepEqual(readEntries(c.transcript.path).at(-1), { ...readEntries(c.transcript.path).at(-1), type: 'rewind', prompt: 1 });
  turn(c, 2);
  const again = new Conversation({
    home,
    cwd: dir,
    id: 'conv-2',
    model: 'anthropic:m',
    version: 'test',
    resume: { sessionId: 'conv-2', path: c.transcript.path },
  });
  assert.deepEqual(texts(again.messages), ['p0', 'a0', 'p2', 'a2']);
});

test("compact: the model's summary replaces the messages and is recorded; a failure leaves them as they were", async () => {
  const model = await startFakeModel();
  try {
    const { dir, home } = makeProject();
    const m = await handle(model, dir);
    const c = new Conversation({ home, cwd: dir, id: 'conv-3', model: 'anthropic:m', version: 'test' });
    turn(c, 0);
    turn(c, 1);
    model.script(fail(400, { message: 'no' }), reply('## Summary\nkiwi was chosen'));
    const failed = await c.compact(m, 'manual', undefined, signal());
    assert.equal(failed.ok, false);
    assert.deepEqual(texts(c.messages), ['p0', 'a0', 'p1', 'a1']);
    const r = await c.compact(m, 'manual', 'keep the fruit', signal());
    assert.equal(r.ok, true);
    assert.equal(r.ok && r.before, 4);
    assert.deepEqual(texts(c.messages), [`${SUMMARY_PREFIX}## Summary\nkiwi was chosen`]);
    assert.deepEqual(
      readEntries(c.transcript.path)
        .filter((e) => e.type === 'compact')
        .map((e) => (e as { summary: string }).summary),
      ['## Summary\nkiwi was chosen'],
    );
    const again = new Conversation({
      home,
      cwd: dir,
      id: 'conv-3',
      model: 'anthropic:m',
      version: 'test',
      resume: { sessionId: 'conv-3', path: c.transcript.path },
    });
    assert.deepEqual(texts(again.messages), texts(c.messages));
  } finally {
    await model.close();
  }
});

test('autoCompact: nothing below the threshold; never twice without a model turn between; says why it stops', async () => {
  const model = await startFakeModel();
  try {
    const { dir, home } = makeProject();
    const m = await handle(model, dir, 2_000, 'anthropic:fake-unknown-model');
    const c = new Conversation({ home, cwd: dir, id: 'conv-4', model: 'anthropic:m', version: 'test' });
    turn(c, 0);
    const big = 'word '.repeat(1_200); // about 1,500 tokens: past half the 2,000-token window
    let fixed = () => 'x';
    const calls: string[] = [];
    const warnings: string[] = [];
    let shrink = false;
    const auto = {
      model: m,
      threshold: 0.5,
      fixed: () => fixed(),
      warn: (w: string) => warnings.push(w),
      compact: async (): Promise<Compaction> => {
        calls.push('compact');
        const before = c.messages.length;
        if (shrink) c.messages.splice(0, c.messages.length, user('summary'));
        return { ok: true, before, usage };
      },
    };
    assert.equal(await c.autoCompact(auto, signal()), undefined);
    assert.deepEqual(calls, [], 'below the threshold: no compaction');

    fixed = () => big;
    const still = await c.autoCompact(auto, signal());
    assert.deepEqual(calls, ['compact']);
    assert.match(still ?? '', /^Stopped: the context is too full to go on \(it is still over the threshold right after a compaction\)/);
    assert.match(still ?? '', /of the model's 2k-token window \(from settings modelContextWindow\)/);
    const again = await c.autoCompact(auto, signal());
    assert.match(again ?? '', /a second compaction would come with no new model turn since the first/);
    assert.deepEqual(calls, ['compact'], 'no second compaction');

    // A model turn since, in another prompt: compacting may help again, and does.
    c.countRun();
    c.append(answer('a turn'), usage, {});
    shrink = true;
    fixed = () => (c.messages.length > 1 ? big : 'x');
    assert.equal(await c.autoCompact(auto, signal()), undefined);
    assert.deepEqual(calls, ['compact', 'compact']);
    assert.deepEqual(warnings, ['The context was nearly full: the conversation (3 messages) was compacted into a summary.']);

    // One model turn of this run filled it again right after: compacting would only repeat that turn.
    c.append(answer('a long one'), usage, {});
    const loop = await c.autoCompact(auto, signal());
    assert.match(loop ?? '', /a single model turn filled it again right after a compaction/);
    assert.deepEqual(calls, ['compact', 'compact']);

    const ac = new AbortController();
    ac.abort();
    assert.equal(await c.autoCompact(auto, ac.signal), undefined, 'an aborted run does not compact');
  } finally {
    await model.close();
  }
});
