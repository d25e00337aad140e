import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEnd, interpret } from '../../src/hooks/outcome.ts';
import type { HookRun } from '../../src/hooks/runner.ts';
import type { HookEvent, HookSpec } from '../../src/hooks/schema.ts';

function hook(over: Partial<HookSpec> = {}): HookSpec {
  return {
    event: 'PreToolUse',
    matcher: 'Bash',
    command: './guard.sh',
    timeoutMs: 5000,
    failClosed: false,
    source: '/p/.assistant/settings.json',
    ...over,
  };
}

function run(over: Partial<HookRun> = {}, h: Partial<HookSpec> = {}): HookRun {
  return { hook: hook(h), exitCode: 0, stdout: '', stderr: '', timedOut: false, interrupted: false, durationMs: 5, ...over };
}

const ALL_EVENTS: HookEvent[] = [
  'PreToolUse',
  'PostToolUse',
  'Notification',
  'Stop',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'SubagentStop',
];

test('exit 0: ok, with plain stdout kept and no JSON', () => {
  for (const ev of ALL_EVENTS) {
    const o = interpret(run({ stdout: 'some context\n', stderr: 'noise' }), ev);
    assert.deepEqual(o, { kind: 'ok', json: undefined, stdout: 'some context\n' }, ev);
  }
});

test('exit 0: stdout is parsed as JSON only when it starts with "{" (after white space)', () => {
  const j = { decision: 'block', reason: 'no' };
  assert.deepEqual(interpret(run({ stdout: JSON.stringify(j) }), 'PostToolUse'), { kind: 'ok', json: j, stdout: JSON.stringify(j) });
  assert.deepEqual((interpret(run({ stdout: `\n  ${JSON.stringify(j)}\n` }), 'Stop') as { json?: unknown }).json, j);
  // Text that merely contains JSON, arrays, scalars and broken JSON are plain output.
  for (const stdout of [`note: ${JSON.stringify(j)}`, '[{"decision":"block"}]', '"block"', '42', '{"decision": "block",', '{not json}']) {
    const o = interpret(run({ stdout }), 'PostToolUse');
    assert.equal(o.kind, 'ok', stdout);
    assert.equal((o as { json?: unknown }).json, undefined, stdout);
    assert.equal((o as { stdout: string }).stdout, stdout);
  }
});

test('exit 2 blocks; the reason is stderr, else stdout, else a fixed text', () => {
  for (const ev of ALL_EVENTS) {
    assert.deepEqual(
      interpret(run({ exitCode: 2, stderr: 'on stderr\n', stdout: 'on stdout\n' }), ev),
      { kind: 'block', reason: 'on stderr' },
      ev,
    );
    assert.deepEqual(
      interpret(run({ exitCode: 2, stderr: '  \n', stdout: 'on stdout\n' }), ev),
      { kind: 'block', reason: 'on stdout' },
      ev,
    );
  }
  const silent = interpret(run({ exitCode: 2 }), 'PreToolUse');
  assert.equal(silent.kind, 'block');
  assert.match((silent as { reason: string }).reason, /no reason|printed nothing/i);
  // Exit 2 ignores JSON on stdout as a protocol: it is only the reason text when stderr is empty.
  const withJson = interpret(run({ exitCode: 2, stdout: '{"decision":"approve"}' }), 'PreToolUse');
  assert.deepEqual(withJson, { kind: 'block', reason: '{"decision":"approve"}' });
});

test('other exit codes do not block: a warning names the event, hook, source, exit code and output', () => {
  for (const code of [1, 3, 126, 127, 255]) {
    const o = interpret(run({ exitCode: code, stderr: 'boom\n' }), 'PostToolUse');
    assert.equal(o.kind, 'failed', String(code));
    const w = (o as { warning: string }).warning;
    assert.match(w, /^PostToolUse hook "\.\/guard\.sh" \(\/p\/\.assistant\/settings\.json\)/);
    assert.match(w, new RegExp(`exit ${code}`));
    assert.match(w, /not blocking/);
    assert.match(w, /Output: boom/);
    assert.doesNotMatch(w, /exit 2 does/, 'the exit-1 hint is for PreToolUse only');
  }
  assert.match((interpret(run({ exitCode: 127 }), 'Stop') as { warning: string }).warning, /exit 127 \(command not found\)/);
  // Output falls back to stdout, and is clipped.
  const long = interpret(run({ exitCode: 1, stdout: 'x'.repeat(5000) }), 'Stop') as { warning: string };
  assert.ok(long.warning.length < 1000, `warning is ${long.warning.length} chars`);
  assert.match(long.warning, /Output: x+…$/);
  // No output: no "Output:" part.
  assert.doesNotMatch((interpret(run({ exitCode: 1 }), 'Stop') as { warning: string }).warning, /Output/);
});

test('PreToolUse exit 1 warns that exit 1 does not block and exit 2 does', () => {
  const o = interpret(run({ exitCode: 1, stderr: 'refused' }), 'PreToolUse');
  assert.equal(o.kind, 'failed');
  assert.match((o as { warning: string }).warning, /exit 1 does not block; exit 2 does/);
  assert.doesNotMatch((interpret(run({ exitCode: 3 }), 'PreToolUse') as { warning: string }).warning, /exit 2 does/);
});

test('a crash, timeout or spawn failure does not block and says what happened', () => {
  const t = interpret(run({ exitCode: null, timedOut: true }, { timeoutMs: 1000 }), 'PreToolUse');
  assert.equal(t.kind, 'failed');
  assert.match((t as { warning: string }).warning, /timed out after 1 s and was killed/);
  const s = interpret(run({ exitCode: null, spawnError: 'spawn bash ENOENT' }), 'PreToolUse');
  assert.match((s as { warning: string }).warning, /could not start: spawn bash ENOENT/);
  const i = interpret(run({ exitCode: null, interrupted: true }), 'PreToolUse');
  assert.equal(i.kind, 'failed');
  assert.match((i as { warning: string }).warning, /interrupted/);
  assert.equal(describeEnd(run({ exitCode: null, timedOut: true }, { timeoutMs: 1500 })), 'timed out after 1.5 s and was killed');
});

test('failClosed: any end but exit 0 blocks, with what happened in the reason', () => {
  const fc = { failClosed: true };
  for (const [over, pattern] of [
    [{ exitCode: 1, stderr: 'oops' }, /exit 1.*failClosed.*oops/],
    [{ exitCode: 127 }, /exit 127 \(command not found\)/],
    [{ exitCode: null, timedOut: true }, /timed out/],
    [{ exitCode: null, spawnError: 'EACCES' }, /could not start: EACCES/],
    [{ exitCode: 139 }, /exit 139/],
  ] as Array<[Partial<HookRun>, RegExp]>) {
    const o = interpret(run(over, fc), 'PreToolUse');
    assert.equal(o.kind, 'block', JSON.stringify(over));
    assert.match((o as { reason: string }).reason, pattern);
  }
  assert.equal(interpret(run({ exitCode: 0 }, fc), 'PreToolUse').kind, 'ok');
  assert.deepEqual(interpret(run({ exitCode: 2, stderr: 'policy' }, fc), 'PreToolUse'), { kind: 'block', reason: 'policy' });
});
