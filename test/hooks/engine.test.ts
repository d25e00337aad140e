import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentEvent } from '../../src/agent/events.ts';
import type { PreparedCall } from '../../src/agent/tool-call.ts';
import { HookEngine } from '../../src/hooks/engine.ts';
import type { HookEvent, HookSpec } from '../../src/hooks/schema.ts';
import { MAX_STOP_BLOCKS, sessionEnd, sessionStart, stopSeam, toolSeams, userPromptSubmit } from '../../src/agent/hook-seams.ts';
import type { ToolDef } from '../../src/tools/types.ts';

const signal = new AbortController().signal;

function setup(specs: Array<Partial<HookSpec> & { event: HookEvent; command: string }>, env: Record<string, string> = {}) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-hook-engine-')));
  const events: AgentEvent[] = [];
  const hooks: HookSpec[] = specs.map((s) => ({ matcher: undefined, timeoutMs: 10_000, failClosed: false, source: 'settings.json', ...s }));
  const engine = new HookEngine(hooks, {
    projectDir: dir,
    sessionId: 'sess-1',
    transcriptPath: join(dir, 't.jsonl'),
    env,
    permissionMode: () => 'default',
    emit: (e) => events.push(e),
  });
  const warnings = () => events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  return { dir, engine, events, warnings };
}

function call(name: string, input: Record<string, unknown>, filePath?: string): PreparedCall {
  return { id: 'toolu_1', name, tool: { name } as ToolDef, input, filePath };
}

test('the same command string runs once per event; a failClosed duplicate makes the one run failClosed', async () => {
  const { dir, engine } = setup([
    { event: 'PreToolUse', matcher: 'Bash', command: 'echo x >> runs.log; exit 1' },
    { event: 'PreToolUse', matcher: '*', command: 'echo x >> runs.log; exit 1', failClosed: true },
    { event: 'PreToolUse', matcher: 'Read', command: 'echo read >> runs.log' },
  ]);
  const verdict = await toolSeams(engine).preToolUse!(call('Bash', { command: 'ls' }), signal);
  assert.equal(readFileSync(join(dir, 'runs.log'), 'utf8'), 'x\n', 'one run; the Read hook is not selected');
  assert.match(
    verdict.block ?? '',
    /^PreToolUse:Bash hook error: \[echo x >> runs\.log; exit 1\]: the hook failed \(exit 1\) and is marked failClosed/,
  );
});

test('hook environment: ASSISTANT_* and CLAUDE_PROJECT_DIR win over settings env; tool variables only for tools', async () => {
  const dump =
    'echo "$ASSISTANT_HOOK_EVENT|$ASSISTANT_PROJECT_DIR|$CLAUDE_PROJECT_DIR|$ASSISTANT_SESSION_ID|${ASSISTANT_TOOL_NAME-unset}|${ASSISTANT_FILE_PATH-unset}|$MINE|$(pwd)" >> env.log';
  const { dir, engine } = setup(
    [
      { event: 'PostToolUse', command: dump },
      { event: 'SessionEnd', command: dump },
    ],
    { MINE: 'mine', ASSISTANT_SESSION_ID: 'forged', CLAUDE_PROJECT_DIR: '/forged' },
  );
  await toolSeams(engine).postToolUse!(call('Edit', { file_path: 'a.txt' }, '/abs/a.txt'), { output: 'ok' }, 3, signal);
  await sessionEnd(engine, 'other', signal);
  assert.deepEqual(readFileSync(join(dir, 'env.log'), 'utf8').trim().split('\n'), [
    `PostToolUse|${dir}|${dir}|sess-1|Edit|/abs/a.txt|mine|${dir}`,
    `SessionEnd|${dir}|${dir}|sess-1|unset|unset|mine|${dir}`,
  ]);
});

test('PreToolUse input carries the absolute file path; exit 2 reasons of several hooks are all given', async () => {
  const { dir, engine } = setup([
    { event: 'PreToolUse', command: 'cat > in.json' },
    { event: 'PreToolUse', command: 'echo first >&2; exit 2' },
    { event: 'PreToolUse', command: 'echo second; exit 2' },
  ]);
  const verdict = await toolSeams(engine).preToolUse!(call('Read', { file_path: 'src/a.ts' }, '/p/src/a.ts'), signal);
  assert.equal(verdict.block, 'PreToolUse:Read hook error: [echo first >&2; exit 2]: first\n[echo second; exit 2]: second');
  const input = JSON.parse(readFileSync(join(dir, 'in.json'), 'utf8'));
  assert.deepEqual(Object.keys(input), [
    'session_id',
    'transcript_path',
    'cwd',
    'prompt_id',
    'permission_mode',
    'hook_event_name',
    'tool_name',
    'tool_input',
    'tool_use_id',
  ]);
  assert.deepEqual(input.tool_input, { file_path: '/p/src/a.ts' });
  assert.equal(input.permission_mode, 'default');
});

test('PreToolUse JSON: deny > ask > allow; updatedInput is passed on; continue:false blocks the call', async () => {
  const say = (j: unknown) => `echo '${JSON.stringify(j)}'`;
  const decision = (d: string, reason = d) =>
    say({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d, permissionDecisionReason: reason } });
  const a = setup([
    { event: 'PreToolUse', command: decision('allow') },
    { event: 'PreToolUse', command: decision('ask', 'ASK') },
  ]);
  assert.deepEqual(await toolSeams(a.engine).preToolUse!(call('Bash', { command: 'x' }), signal), { decision: 'ask', reason: 'ASK' });
  const d = setup([
    { event: 'PreToolUse', command: decision('ask') },
    { event: 'PreToolUse', command: decision('deny', 'NO') },
  ]);
  assert.deepEqual(await toolSeams(d.engine).preToolUse!(call('Bash', { command: 'x' }), signal), { block: 'NO' });
  const legacy = setup([{ event: 'PreToolUse', command: say({ decision: 'approve', reason: 'fine' }) }]);
  assert.deepEqual(await toolSeams(legacy.engine).preToolUse!(call('Bash', { command: 'x' }), signal), {
    decision: 'allow',
    reason: 'fine',
  });
  const u = setup([
    { event: 'PreToolUse', command: say({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'y' } } }) },
  ]);
  assert.deepEqual(await toolSeams(u.engine).preToolUse!(call('Bash', { command: 'x' }), signal), { updatedInput: { command: 'y' } });
  const stop = setup([{ event: 'PreToolUse', command: say({ continue: false, stopReason: 'HALT' }) }]);
  assert.match((await toolSeams(stop.engine).preToolUse!(call('Bash', { command: 'x' }), signal)).block ?? '', /HALT/);
  assert.equal(stop.engine.stopReason, 'HALT');
});

test('PostToolUse: exit 2, decision block and additionalContext become feedback; a plain stdout does not', async () => {
  const { engine } = setup([
    { event: 'PostToolUse', command: 'echo "lint failed" >&2; exit 2' },
    { event: 'PostToolUse', command: `echo '{"decision":"block","reason":"JSON reason"}'` },
    { event: 'PostToolUse', command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"more context"}}'` },
    { event: 'PostToolUse', command: 'echo plain stdout' },
  ]);
  const feedback = await toolSeams(engine).postToolUse!(call('Bash', { command: 'x' }), { output: 'out' }, 1, signal);
  assert.equal(feedback, 'PostToolUse:Bash hook feedback:\n[echo "lint failed" >&2; exit 2]: lint failed\nJSON reason\nmore context');
});

test(`Stop: stop_hook_active is true while continuing; after ${MAX_STOP_BLOCKS} blocks in a row the assistant stops, with a warning`, async () => {
  const { dir, engine } = setup([{ event: 'Stop', command: 'cat >> stops.jsonl; echo again >&2; exit 2' }]);
  const emitted: string[] = [];
  const seam = stopSeam(engine, (e) => {
    if (e.type === 'warning') emitted.push(e.message);
  });
  const answers: Array<string | undefined> = [];
  for (let i = 0; i < MAX_STOP_BLOCKS + 1; i++) answers.push(await seam.onStop(signal, `answer ${i}`));
  assert.ok(
    answers.slice(0, MAX_STOP_BLOCKS).every((a) => a === 'Stop hook feedback:\n[cat >> stops.jsonl; echo again >&2; exit 2]: again'),
  );
  assert.equal(answers[MAX_STOP_BLOCKS], undefined);
  assert.equal(emitted.length, 1);
  assert.match(emitted[0], /8 times in a row/);
  const inputs = readFileSync(join(dir, 'stops.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    inputs.map((i) => i.stop_hook_active),
    [false, ...Array(MAX_STOP_BLOCKS).fill(true)],
  );
  assert.equal(inputs[3].last_assistant_message, 'answer 3');
  // After giving up, the streak starts again.
  assert.notEqual(await seam.onStop(signal, 'again'), undefined);
  seam.reset();
});

test('UserPromptSubmit: exit 2 blocks with the reason; stdout and additionalContext are context', async () => {
  const blocked = setup([
    { event: 'UserPromptSubmit', command: 'echo "no secrets" >&2; exit 2' },
    { event: 'UserPromptSubmit', command: 'echo ctx' },
  ]);
  assert.deepEqual(await userPromptSubmit(blocked.engine, 'p', signal), { blocked: 'no secrets', context: [] });
  const ok = setup([
    { event: 'UserPromptSubmit', command: 'echo "  plain context  "' },
    {
      event: 'UserPromptSubmit',
      command: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"json context"}}'`,
    },
    { event: 'UserPromptSubmit', command: `echo '{"suppressOutput":true}'` },
    { event: 'UserPromptSubmit', command: 'echo ignored; exit 1' },
  ]);
  assert.deepEqual(await userPromptSubmit(ok.engine, 'p', signal), { context: ['plain context', 'json context'] });
  assert.equal(ok.warnings().length, 1);
});

test('SessionStart: no prompt_id or permission_mode (as in Claude Code); exit 2 is shown to the user', async () => {
  const { dir, engine, warnings } = setup([
    { event: 'SessionStart', command: 'cat > start.json; echo ctx' },
    { event: 'SessionStart', command: 'echo "for the user" >&2; exit 2' },
  ]);
  assert.deepEqual(await sessionStart(engine, 'resume', signal), ['ctx']);
  const input = JSON.parse(readFileSync(join(dir, 'start.json'), 'utf8'));
  assert.deepEqual(Object.keys(input).sort(), ['cwd', 'hook_event_name', 'session_id', 'source', 'transcript_path']);
  assert.equal(input.source, 'resume');
  assert.deepEqual(warnings(), ['SessionStart hook "echo "for the user" >&2; exit 2" (settings.json): for the user']);
});

test('a slow hook is announced once it has run for a second', async () => {
  const { engine, events } = setup([
    { event: 'SessionEnd', command: 'sleep 1.2' },
    { event: 'SessionEnd', command: 'true' },
  ]);
  await sessionEnd(engine, 'other', signal);
  const announced = events.filter((e) => e.type === 'hook-running');
  assert.deepEqual(
    announced.filter((e) => e.command === 'sleep 1.2'),
    [{ type: 'hook-running', event: 'SessionEnd', command: 'sleep 1.2' }],
    'the slow hook, once',
  );
  const ran = events.filter((e) => e.type === 'hook') as Array<{ command: string; durationMs: number }>;
  assert.equal(ran.length, 2);
  // A hook that ended within the second is not announced (on a very busy machine even `true` may not).
  for (const h of ran)
    if (h.durationMs < 950)
      assert.ok(!announced.some((e) => e.command === h.command), `${h.command} ran ${h.durationMs} ms and was announced`);
});

test('de-duplication keeps the longest timeout of the entries, whichever file comes first', async () => {
  const guard = 'sleep 0.8; echo slow-guard >> runs.log; echo blocked >&2; exit 2';
  for (const order of [
    [300, 5000],
    [5000, 300],
  ]) {
    const { dir, engine, warnings } = setup(
      order.map((timeoutMs, n) => ({ event: 'PreToolUse' as const, command: guard, timeoutMs, source: `file${n}.json` })),
    );
    const verdict = await toolSeams(engine).preToolUse!(call('Bash', { command: 'touch MARK' }), signal);
    assert.equal(
      verdict.block,
      `PreToolUse:Bash hook error: [${guard}]: blocked`,
      `timeouts ${order}: the guard ran to its end and blocked`,
    );
    assert.equal(readFileSync(join(dir, 'runs.log'), 'utf8'), 'slow-guard\n', 'it ran once');
    assert.deepEqual(warnings(), []);
  }
  // The merge keeps both: a longer timeout from one entry, failClosed from another.
  const { engine } = setup([
    { event: 'PreToolUse', command: 'sleep 5', timeoutMs: 200, failClosed: true },
    { event: 'PreToolUse', command: 'sleep 5', timeoutMs: 400 },
  ]);
  const started = performance.now();
  const verdict = await toolSeams(engine).preToolUse!(call('Bash', { command: 'x' }), signal);
  assert.match(verdict.block ?? '', /timed out after 0\.4 s and was killed\) and is marked failClosed/);
  assert.ok(performance.now() - started < 4500, 'killed at its time-out, not after the 5 s sleep');
});

test('SessionStart "continue": false in a one-shot run: the next prompt is stopped before UserPromptSubmit fires; later prompts too', async () => {
  const say = (j: unknown) => `echo '${JSON.stringify(j)}'`;
  const { dir, engine, warnings } = setup([
    { event: 'SessionStart', command: say({ continue: false, stopReason: 'wrong branch: switch to main first' }) },
    { event: 'UserPromptSubmit', command: 'echo fired >> ups.log' },
  ]);
  await sessionStart(engine, 'startup', signal);
  engine.newPrompt();
  assert.equal(engine.stopReason, 'wrong branch: switch to main first');
  assert.deepEqual(await userPromptSubmit(engine, 'the prompt', signal), { context: [] });
  assert.equal(existsSync(join(dir, 'ups.log')), false, 'UserPromptSubmit does not see a prompt that is never sent');
  engine.newPrompt();
  assert.equal(engine.stopReason, 'wrong branch: switch to main first', 'newPrompt does not forget a SessionStart stop');
  assert.deepEqual(warnings(), [], 'one-shot runs show the reason with the result, not as a warning');
  // A stop from a prompt's own hook is still forgotten at the next prompt.
  const other = setup([{ event: 'Stop', command: say({ continue: false, stopReason: 'enough' }) }]);
  await stopSeam(other.engine, () => {}).onStop(signal, 'answer');
  assert.equal(other.engine.stopReason, 'enough');
  other.engine.newPrompt();
  assert.equal(other.engine.stopReason, undefined);
});

test('SessionStart "continue": false in an interactive session is shown to the user at once and stops nothing', async () => {
  const say = (j: unknown) => `echo '${JSON.stringify(j)}'`;
  const { dir, engine, warnings } = setup([
    { event: 'SessionStart', command: say({ continue: false, stopReason: 'wrong branch' }) },
    { event: 'UserPromptSubmit', command: 'echo fired >> ups.log' },
  ]);
  engine.interactive = true;
  await sessionStart(engine, 'startup', signal);
  assert.deepEqual(warnings(), [
    `SessionStart hook "${say({ continue: false, stopReason: 'wrong branch' })}" (settings.json) asked to stop: wrong branch — the session stays open; /exit ends it.`,
  ]);
  engine.newPrompt();
  assert.equal(engine.stopReason, undefined);
  await userPromptSubmit(engine, 'the prompt', signal);
  assert.equal(readFileSync(join(dir, 'ups.log'), 'utf8'), 'fired\n');
});
