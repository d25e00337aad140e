import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMemoryFile, isMemoryFile, memoryFileChoices } from '../../src/agent/memory.ts';
import { modeNamed, recipeModeName, selectableModes } from '../../src/agent/modes.ts';
import { RunMeter } from '../../src/agent/run-meter.ts';
import { isCompactionSummary, readReplay, recordedSpend } from '../../src/agent/transcripts.ts';
import type { Session } from '../../src/agent/session.ts';

test('modes: bypass is offered and taken only in a session started in it; other names are refused with the list', () => {
  assert.deepEqual(selectableModes(false), ['plan', 'normal', 'auto-accept']);
  assert.deepEqual(selectableModes(true), ['plan', 'normal', 'auto-accept', 'bypass']);
  assert.deepEqual(modeNamed('acceptEdits', false), { mode: 'auto-accept' });
  assert.match((modeNamed('bypass', false) as { error: string }).error, /not switched on during a session/);
  assert.deepEqual(modeNamed('bypass', true), { mode: 'bypass' });
  assert.match(
    (modeNamed('fast', false) as { error: string }).error,
    /"fast" is not a mode\. Use one of: plan, normal, auto-accept, bypass\./,
  );
  assert.equal(recipeModeName('plan'), 'Plan Mode');
});

test('memory: the convention files are known by name, /memory offers three, and a missing one is created empty', () => {
  assert.ok(isMemoryFile('/p/ASSISTANT.md') && isMemoryFile('sub/ASSISTANT.local.md'));
  assert.ok(!isMemoryFile('/p/README.md'));
  const dir = mkdtempSync(join(tmpdir(), 'front-door-'));
  const choices = memoryFileChoices({ cwd: join(dir, 'p'), home: join(dir, 'h') });
  assert.deepEqual(
    choices.map((c) => c.path),
    [join(dir, 'p/ASSISTANT.md'), join(dir, 'p/ASSISTANT.local.md'), join(dir, 'h/.assistant/ASSISTANT.md')],
  );
  ensureMemoryFile(choices[2].path);
  assert.equal(readFileSync(choices[2].path, 'utf8'), '');
  writeFileSync(choices[2].path, 'kept');
  ensureMemoryFile(choices[2].path);
  assert.equal(readFileSync(choices[2].path, 'utf8'), 'kept', 'an existing file is not emptied');
});

test('transcripts: an unreadable transcript replays as nothing; results add up to the earlier spend', () => {
  assert.deepEqual(readReplay('/nonexistent/x.jsonl'), { entries: [], prompts: [] });
  const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const result = { type: 'result', status: 'done', turns: 1, usage, costUsd: 0.5, timestamp: '' } as const;
  const spend = recordedSpend([result, result] as never);
  assert.equal(spend.costUsd, 1);
  assert.equal(spend.usage.inputTokens, 20);
  assert.ok(!isCompactionSummary('hello'));
});

test("run meter: the running prompt's tokens count at the model's price until it ends; earlier runs always count", () => {
  const session = {
    costUsd: 1,
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    model: { facts: { price: [1_000_000, 0, 0, 0] } },
  } as unknown as Session;
  const m = new RunMeter({ costUsd: 2, usage: { inputTokens: 3, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } });
  m.begin();
  m.newPrompt();
  const message = {
    type: 'message',
    message: { role: 'assistant', content: [] },
    usage: { inputTokens: 1, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  } as const;
  assert.equal(m.observe(message as never), true);
  assert.equal(m.observe({ type: 'subagent', event: message } as never), false, "a subagent's tokens count, the cost shown waits");
  assert.equal(m.liveCostUsd(session), 3 + 2);
  m.end();
  assert.equal(m.liveCostUsd(session), 3);
  assert.equal(m.totalUsage(session).inputTokens, 4);
});
