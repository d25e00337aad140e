/**
 * Hooks end to end through the built CLI and the fake model: SPEC §4's exit-code table, for every
 * event, and hooks that misbehave (crash, time out, are missing, print 10 MB, ignore their input).
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeModel, reply, hang, lastToolResults, systemPrompt, userTexts, type FakeModel, type Step } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli, startCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

/** exit.sh CODE [STDERR] [STDOUT]: reads its input, prints what it is given, exits with CODE. */
const EXIT_SH = `#!/bin/sh
cat >/dev/null
if [ -n "$2" ]; then printf '%s\\n' "$2" >&2; fi
if [ -n "$3" ]; then printf '%s\\n' "$3"; fi
exit "$1"
`;
/** log.sh: appends its input (one JSON line) to hooks.jsonl. */
const LOG_SH = `#!/bin/sh
cat >> "$(dirname "$0")/../hooks.jsonl"
`;

type Hooks = Record<string, unknown>;
interface Project {
  dir: string;
  home: string;
}

/** A temporary project whose .assistant/settings.json holds `hooks`; *.sh files are made executable. */
function project(hooks: Hooks, files: Record<string, string> = {}): Project {
  const all = {
    '.assistant/settings.json': `${JSON.stringify({ hooks }, null, 2)}\n`,
    'hooks/exit.sh': EXIT_SH,
    'hooks/log.sh': LOG_SH,
    ...files,
  };
  const p = makeProject(all);
  for (const f of Object.keys(all)) if (f.endsWith('.sh') && !f.includes('plain')) chmodSync(join(p.dir, f), 0o755);
  return p;
}

/** One matcher group with one command hook. */
function on(command: string, matcher?: string, extra: Record<string, unknown> = {}) {
  return [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command, ...extra }] }];
}

async function run(p: Project, steps: Step[], args: string[] = [], prompt = 'do the task') {
  model.reset();
  model.script(...steps);
  return runCli(['-p', prompt, '--model', 'anthropic:claude-sonnet-4-5', ...args], {
    cwd: p.dir,
    home: p.home,
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
}

function logged(p: Project): Array<Record<string, any>> {
  const f = join(p.dir, 'hooks.jsonl');
  return existsSync(f)
    ? readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
}

async function waitGone(pid: number, ms = 4000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (stat === '' || /\) Z /.test(stat)) return true;
    if (Date.now() > until) return false;
    await sleep(50);
  }
}

const BYPASS = ['--permission-mode', 'bypass'];
const BLOCKED_CALL = { command: 'touch BLOCK_MARKER && echo should-be-blocked', description: 'Echo a marker' };

// ───────────────────────────── PreToolUse ─────────────────────────────

test('PreToolUse exit 0: the call goes on and runs', async () => {
  const p = project({ PreToolUse: on('./hooks/exit.sh 0 "" "ignored stdout"', 'Bash') });
  const r = await run(p, [reply().tool('Bash', BLOCKED_CALL), reply('Done.')], [...BYPASS, '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(p.dir, 'BLOCK_MARKER')), 'the command ran');
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, false);
  assert.equal(res.content.trim(), 'should-be-blocked');
  assert.deepEqual(JSON.parse(r.stdout).permission_denials, []);
  assert.doesNotMatch(r.stderr, /warning/);
});

test('PreToolUse exit 2: blocked; the reason on stderr reaches the model as the tool error; listed in permission_denials; exit 0', async () => {
  const command = './hooks/exit.sh 2 "REASON-ON-STDERR: Bash is blocked by policy" "stdout is not the reason"';
  const p = project({ PreToolUse: on(command, 'Bash') });
  const r = await run(
    p,
    [reply().tool('Bash', BLOCKED_CALL, { id: 'toolu_block_1' }), reply('I will not run it.')],
    [...BYPASS, '--output-format', 'json'],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'BLOCK_MARKER')), 'the command did not run');
  assert.equal(model.requests.length, 2, 'the model is asked again and adjusts its plan');
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.toolUseId, 'toolu_block_1');
  assert.equal(res.isError, true);
  assert.equal(res.content.trim(), `PreToolUse:Bash hook error: [${command}]: REASON-ON-STDERR: Bash is blocked by policy`);
  const result = JSON.parse(r.stdout);
  assert.equal(result.is_error, false);
  assert.equal(result.result, 'I will not run it.');
  assert.deepEqual(result.permission_denials, [{ tool_name: 'Bash', tool_use_id: 'toolu_block_1', tool_input: BLOCKED_CALL }]);
});

test('PreToolUse exit 2 with an empty stderr: the reason is stdout', async () => {
  const command = './hooks/exit.sh 2 "" "REASON-ON-STDOUT: use the wrapper script"';
  const p = project({ PreToolUse: on(command, 'Bash') });
  const r = await run(p, [reply().tool('Bash', BLOCKED_CALL), reply('ok')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'BLOCK_MARKER')));
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, true);
  assert.equal(res.content.trim(), `PreToolUse:Bash hook error: [${command}]: REASON-ON-STDOUT: use the wrapper script`);
});

test('PreToolUse exit 1: not blocking; a warning says exit 1 does not block; the model is not told', async () => {
  const command = './hooks/exit.sh 1 "REASON-ON-STDERR: exit 1 text"';
  const p = project({ PreToolUse: on(command, 'Bash') });
  const r = await run(p, [reply().tool('Bash', BLOCKED_CALL), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(p.dir, 'BLOCK_MARKER')), 'exit 1 does not block');
  assert.match(
    r.stderr,
    /warning: PreToolUse hook "\.\/hooks\/exit\.sh 1 [^\n]*" \([^)]*settings\.json\) exit 1 — exit 1 does not block; exit 2 does; not blocking\. Output: REASON-ON-STDERR: exit 1 text/,
  );
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, false);
  assert.equal(res.content.trim(), 'should-be-blocked');
  assert.doesNotMatch(
    JSON.stringify(model.requests[1].body.messages),
    /REASON-ON-STDERR|hook/i,
    'nothing about the hook reaches the model',
  );
});

const NOT_BLOCKING: Array<{
  name: string;
  command: string;
  extra?: Record<string, unknown>;
  files?: Record<string, string>;
  warning: RegExp;
  startup?: RegExp;
}> = [
  { name: 'another exit code (3)', command: './hooks/exit.sh 3 "three"', warning: /exit 3; not blocking\. Output: three/ },
  {
    name: 'a crash (killed by a signal)',
    command: 'kill -SEGV $$',
    warning: /"kill -SEGV \$\$" \([^)]*\) crashed \(killed by SIGSEGV\); not blocking/,
  },
  {
    name: 'a timeout',
    command: 'sleep 30',
    extra: { timeout: 1 },
    warning: /"sleep 30" \([^)]*\) timed out after 1 s and was killed; not blocking/,
  },
  {
    name: 'a missing script (exit 127)',
    command: './hooks/missing-guard.sh',
    warning: /exit 127 \(command not found\); not blocking/,
    startup: /warning: PreToolUse hook "\.\/hooks\/missing-guard\.sh" \([^)]*\): \S*\/hooks\/missing-guard\.sh does not exist/,
  },
  {
    name: 'a script that is not executable (exit 126)',
    command: './hooks/plain.sh',
    files: { 'hooks/plain.sh': '#!/bin/sh\nexit 2\n' },
    warning: /exit 126; not blocking/,
    startup: /warning: PreToolUse hook "\.\/hooks\/plain\.sh" \([^)]*\): \S*\/hooks\/plain\.sh is not executable/,
  },
  {
    name: 'a program that is not on PATH',
    command: 'no-such-guard-program --check',
    warning: /exit 127 \(command not found\); not blocking/,
    startup: /program "no-such-guard-program" is not on PATH/,
  },
];

for (const c of NOT_BLOCKING) {
  test(`PreToolUse ${c.name}: not blocking, a warning names the hook and how it ended, the model is not told`, async () => {
    const p = project({ PreToolUse: on(c.command, 'Bash', c.extra) }, c.files);
    const r = await run(p, [reply().tool('Bash', BLOCKED_CALL), reply('Done.')], BYPASS);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(p.dir, 'BLOCK_MARKER')), 'the call was not blocked');
    assert.match(r.stderr, c.warning);
    const runtime = r.stderr.search(c.warning);
    if (c.startup) {
      const startup = r.stderr.search(c.startup);
      assert.ok(startup >= 0, `start-up report missing:\n${r.stderr}`);
      assert.ok(startup < runtime, 'the start-up report comes before the run');
    }
    const res = lastToolResults(model.requests[1])[0];
    assert.equal(res.isError, false);
    assert.equal(res.content.trim(), 'should-be-blocked');
    assert.doesNotMatch(JSON.stringify(model.requests[1].body.messages), /hook/i, 'the model is not told');
    assert.equal(r.stdout.trim(), 'Done.');
  });
}

test('a timed-out hook has its whole process group killed, background children included', async () => {
  const p = project({ PreToolUse: on('sleep 30 & echo $! > hooks/bg.pid; sleep 30', 'Bash', { timeout: 1 }) });
  const r = await run(p, [reply().tool('Bash', { command: 'echo after' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /timed out after 1 s/);
  const pid = Number(readFileSync(join(p.dir, 'hooks/bg.pid'), 'utf8'));
  assert.ok(pid > 0);
  assert.ok(await waitGone(pid), `the hook's background child ${pid} is still running`);
});

test('failClosed: exit 1 blocks the call instead of warning', async () => {
  const p = project({ PreToolUse: on('./hooks/exit.sh 1 "guard broke"', 'Bash', { failClosed: true }) });
  const r = await run(p, [reply().tool('Bash', BLOCKED_CALL), reply('ok')], [...BYPASS, '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'BLOCK_MARKER')), 'blocked');
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, true);
  assert.match(
    res.content,
    /^PreToolUse:Bash hook error: \[\.\/hooks\/exit\.sh 1 "guard broke"\]: the hook failed \(exit 1\) and is marked failClosed: guard broke/,
  );
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 1);
});

test('failClosed: a timeout and a missing script block too', async () => {
  const p = project({
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: 'sleep 30', timeout: 1, failClosed: true },
          { type: 'command', command: './hooks/gone.sh', failClosed: true },
        ],
      },
    ],
  });
  const r = await run(p, [reply().tool('Bash', BLOCKED_CALL), reply('ok')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'BLOCK_MARKER')));
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, true);
  assert.match(res.content, /\[sleep 30\]: the hook failed \(timed out after 1 s and was killed\) and is marked failClosed/);
  assert.match(res.content, /\[\.\/hooks\/gone\.sh\]: the hook failed \(exit 127 \(command not found\)\) and is marked failClosed/);
});

// ───────────────────────────── PostToolUse ─────────────────────────────

test('PostToolUse exit 2: the call already ran; the reason reaches the model as feedback with the result', async () => {
  const command = './hooks/exit.sh 2 "POST-REASON: run the formatter"';
  const p = project({ PostToolUse: on(command, 'Bash') });
  const r = await run(
    p,
    [reply().tool('Bash', { command: 'touch POST_MARKER && echo post-ran' }), reply('Done.')],
    [...BYPASS, '--output-format', 'json'],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(p.dir, 'POST_MARKER')));
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.content, `post-ran\n\nPostToolUse:Bash hook feedback:\n[${command}]: POST-REASON: run the formatter`);
  assert.deepEqual(JSON.parse(r.stdout).permission_denials, [], 'feedback is not a refusal');
});

test('PostToolUse exit 0 and exit 1: nothing reaches the model; exit 1 warns without the PreToolUse hint', async () => {
  const p = project({
    PostToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: './hooks/exit.sh 0 "" "post stdout"' },
          { type: 'command', command: './hooks/exit.sh 1 "post failed"' },
        ],
      },
    ],
  });
  const r = await run(p, [reply().tool('Bash', { command: 'echo post-ran' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(lastToolResults(model.requests[1])[0].content.trim(), 'post-ran');
  assert.match(
    r.stderr,
    /warning: PostToolUse hook "\.\/hooks\/exit\.sh 1 "post failed"" \([^)]*\) exit 1; not blocking\. Output: post failed/,
  );
  assert.doesNotMatch(r.stderr, /exit 2 does/);
  assert.doesNotMatch(r.stderr, /post stdout/);
});

// ───────────────────────────── Stop ─────────────────────────────

const STOP_ONCE_SH = `#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" >> "$(dirname "$0")/../hooks.jsonl"
case "$input" in
  *'"stop_hook_active":false'*) echo "STOP-REASON: run the tests before finishing" >&2; exit 2 ;;
esac
exit 0
`;

test('Stop exit 2: the model gets the reason and goes on; the next Stop has stop_hook_active true', async () => {
  const p = project({ Stop: on('./hooks/stop-once.sh') }, { 'hooks/stop-once.sh': STOP_ONCE_SH });
  const r = await run(
    p,
    [reply('Finished early.'), reply().tool('Bash', { command: 'echo tests pass' }), reply('Tests pass. Done.')],
    BYPASS,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'Tests pass. Done.');
  assert.equal(model.requests.length, 3);
  const texts = userTexts(model.requests[1]);
  assert.equal(texts.at(-1), 'Stop hook feedback:\n[./hooks/stop-once.sh]: STOP-REASON: run the tests before finishing');
  const stops = logged(p);
  assert.equal(stops.length, 2);
  assert.equal(stops[0].stop_hook_active, false);
  assert.equal(stops[0].last_assistant_message, 'Finished early.');
  assert.equal(stops[1].stop_hook_active, true);
  assert.equal(stops[1].last_assistant_message, 'Tests pass. Done.');
});

test('Stop exit 0: the assistant stops after one request', async () => {
  const p = project({ Stop: on('./hooks/exit.sh 0 "" "not for the model"') });
  const r = await run(p, [reply('Done.'), reply('never asked')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'Done.');
  assert.equal(model.requests.length, 1);
});

test('a Stop hook that always exits 2 is overruled after 8 blocks in a row, with a warning', async () => {
  const p = project({ Stop: on('./hooks/exit.sh 2 "keep going"') });
  const steps = Array.from({ length: 12 }, (_, i) => reply(`Answer ${i + 1}.`));
  const r = await run(p, steps);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(model.requests.length, 9, 'the first answer and 8 continuations');
  assert.equal(r.stdout.trim(), 'Answer 9.');
  assert.match(r.stderr, /warning: Stop hooks blocked stopping 8 times in a row; stopping anyway/);
  assert.equal(userTexts(model.requests[8]).filter((t) => t.startsWith('Stop hook feedback:')).length, 8);
});

test('Stop exit 1: not blocking, a warning; the model is not asked again', async () => {
  const p = project({ Stop: on('./hooks/exit.sh 1 "stop hook broke"') });
  const r = await run(p, [reply('Done.'), reply('never asked')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(model.requests.length, 1);
  assert.match(r.stderr, /warning: Stop hook "\.\/hooks\/exit\.sh 1 [^\n]*exit 1; not blocking\. Output: stop hook broke/);
});

// ───────────────────────────── UserPromptSubmit ─────────────────────────────

test('UserPromptSubmit exit 0: stdout is added to the prompt as context the model sees', async () => {
  const p = project({ UserPromptSubmit: on('./hooks/exit.sh 0 "" "PROMPT-CONTEXT: the branch is release-7"') });
  const r = await run(p, [reply('Done.')], [], 'what branch?');
  assert.equal(r.code, 0, r.stderr);
  const texts = userTexts(model.requests[0]).join('\n');
  assert.match(texts, /what branch\?/);
  assert.match(texts, /PROMPT-CONTEXT: the branch is release-7/);
});

test('UserPromptSubmit exit 2: the prompt is blocked, exit 1, the reason on stderr, no model request', async () => {
  const p = project({ UserPromptSubmit: on('./hooks/exit.sh 2 "PROMPT-BLOCKED: prompts may not contain secrets"') });
  const r = await run(p, [reply('never asked')], [], 'my password is hunter2');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /PROMPT-BLOCKED: prompts may not contain secrets/);
  assert.equal(model.requests.length, 0, 'the model never sees the prompt');
  assert.equal(r.stdout.trim(), '');
  // Erased: the prompt is not kept in the session transcript either.
  const projects = join(p.home, '.assistant', 'projects');
  const kept = existsSync(projects) ? readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')) : [];
  for (const f of kept) assert.doesNotMatch(readFileSync(join(projects, f), 'utf8'), /hunter2/);
});

test('UserPromptSubmit exit 2 with --output-format json: is_error result, exit 1', async () => {
  const p = project({ UserPromptSubmit: on('./hooks/exit.sh 2 "PROMPT-BLOCKED"') });
  const r = await run(p, [reply('never asked')], ['--output-format', 'json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).is_error, true);
  assert.match(r.stderr, /PROMPT-BLOCKED/);
  assert.equal(model.requests.length, 0);
});

test('UserPromptSubmit exit 1: not blocking, a warning; its stdout is not added', async () => {
  const p = project({ UserPromptSubmit: on('./hooks/exit.sh 1 "ups broke" "NOT-CONTEXT"') });
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: UserPromptSubmit hook [^\n]*exit 1; not blocking/);
  assert.doesNotMatch(userTexts(model.requests[0]).join('\n'), /NOT-CONTEXT/);
});

// ───────────────────────────── SessionStart, SessionEnd ─────────────────────────────

test('SessionStart exit 0: its stdout reaches the model in the system prompt', async () => {
  const p = project({ SessionStart: on('./hooks/exit.sh 0 "" "SESSION-CONTEXT: deploys are frozen"') });
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(systemPrompt(model.requests[0]) ?? '', /SESSION-CONTEXT: deploys are frozen/);
  assert.doesNotMatch(userTexts(model.requests[0]).join('\n'), /SESSION-CONTEXT/);
});

test('SessionEnd runs once at the end, after Stop, with reason "other"', async () => {
  const p = project({ SessionEnd: on('./hooks/log.sh'), Stop: on('./hooks/log.sh'), SessionStart: on('./hooks/log.sh') });
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  const events = logged(p);
  assert.deepEqual(
    events.map((e) => e.hook_event_name),
    ['SessionStart', 'Stop', 'SessionEnd'],
  );
  assert.equal(events[2].reason, 'other');
});

test('SessionEnd also runs when a UserPromptSubmit hook blocked the prompt', async () => {
  const p = project({ SessionEnd: on('./hooks/log.sh'), UserPromptSubmit: on('./hooks/exit.sh 2 "no"') });
  const r = await run(p, [reply('never asked')]);
  assert.equal(r.code, 1);
  assert.deepEqual(
    logged(p).map((e) => e.hook_event_name),
    ['SessionEnd'],
  );
});

test('others (SessionStart, SessionEnd) exit 2: the reason is shown to the user, nothing is blocked', async () => {
  const p = project({
    SessionStart: on('./hooks/exit.sh 2 "START-REASON: cache is cold"'),
    SessionEnd: on('./hooks/exit.sh 2 "END-REASON: could not upload the log"'),
  });
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'Done.');
  assert.match(r.stderr, /START-REASON: cache is cold/);
  assert.match(r.stderr, /END-REASON: could not upload the log/);
  assert.doesNotMatch(systemPrompt(model.requests[0]) ?? '', /START-REASON/);
});

test('others exit 1: a warning naming the hook and its exit code', async () => {
  const p = project({ SessionStart: on('./hooks/exit.sh 1 "start broke"'), SessionEnd: on('./hooks/exit.sh 7') });
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /warning: SessionStart hook "\.\/hooks\/exit\.sh 1 "start broke"" \([^)]*\) exit 1; not blocking\. Output: start broke/,
  );
  assert.match(r.stderr, /warning: SessionEnd hook "\.\/hooks\/exit\.sh 7" \([^)]*\) exit 7; not blocking/);
});

// ───────────────────────────── output formats ─────────────────────────────

test('stream-json shows each hook as a hook_response line and warnings as warning lines (and on stderr, SPEC §11.3)', async () => {
  const p = project({
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: './hooks/exit.sh 1 "warned"' },
          { type: 'command', command: './hooks/exit.sh 0' },
        ],
      },
    ],
  });
  const r = await run(
    p,
    [reply().tool('Bash', { command: 'echo hi' }), reply('Done.')],
    [...BYPASS, '--output-format', 'stream-json', '--verbose'],
  );
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const hooks = lines.filter((l) => l.type === 'system' && l.subtype === 'hook_response');
  assert.equal(hooks.length, 2);
  const failed = hooks.find((h) => h.exit_code === 1);
  assert.equal(failed.hook_event, 'PreToolUse');
  assert.equal(failed.command, './hooks/exit.sh 1 "warned"');
  assert.equal(failed.outcome, 'failed');
  assert.match(failed.source, /\.assistant\/settings\.json$/);
  assert.equal(hooks.find((h) => h.exit_code === 0).outcome, 'ok');
  const warnings = lines.filter((l) => l.type === 'warning');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].message, /exit 1 does not block; exit 2 does/);
  assert.match(r.stderr, /warning: .*exit 1 does not block/);
  assert.equal(lines.at(-1).type, 'result');
});

test('stream-json: a blocking hook has outcome "block" and its reason', async () => {
  const p = project({ PreToolUse: on('./hooks/exit.sh 2 "nope"', 'Bash') });
  const r = await run(p, [reply().tool('Bash', BLOCKED_CALL), reply('ok')], [...BYPASS, '--output-format', 'stream-json', '--verbose']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const hook = lines.find((l) => l.subtype === 'hook_response');
  assert.equal(hook.outcome, 'block');
  assert.equal(hook.exit_code, 2);
  assert.equal(hook.message, 'nope');
  assert.ok(lines.some((l) => l.subtype === 'permission_denied' && l.tool_name === 'Bash'));
});

// ───────────────────────────── misbehaving hooks ─────────────────────────────

test('a hook that prints 10 MB: the run stays fast and the model gets a capped reason', async () => {
  const p = project(
    {
      PreToolUse: on('head -c 10485760 /dev/zero | tr "\\0" r >&2; exit 2', 'Bash'),
      PostToolUse: on('head -c 10485760 /dev/zero | tr "\\0" o', 'Read'),
    },
    { 'a.txt': 'alpha\n' },
  );
  const r = await run(
    p,
    [reply().tool('Read', { file_path: 'a.txt' }), reply().tool('Bash', { command: 'touch BIG_MARKER' }), reply('Done.')],
    BYPASS,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'BIG_MARKER')));
  const read = lastToolResults(model.requests[1])[0];
  assert.match(read.content, /alpha/);
  assert.ok(read.content.length < 1000, 'PostToolUse stdout on exit 0 is not sent to the model');
  const blocked = lastToolResults(model.requests[2])[0];
  assert.equal(blocked.isError, true);
  assert.match(blocked.content, /^PreToolUse:Bash hook error: \[[^\]]*\]: r{1000}/);
  assert.ok(blocked.content.length < 300 * 1024, `the model received ${blocked.content.length} chars`);
  assert.ok(model.requests[2].rawBody.length < 1024 * 1024);
});

test('hooks that never read their input, or close it early, break nothing (even with a large input)', async () => {
  const p = project({
    PreToolUse: [
      {
        matcher: 'Write',
        hooks: [
          { type: 'command', command: 'exit 0' },
          { type: 'command', command: 'exec 0<&-; sleep 0.2; exit 0' },
          { type: 'command', command: 'head -c 10 >/dev/null' },
        ],
      },
    ],
    PostToolUse: on('true', 'Write'),
  });
  // 512 KB: far more than a pipe holds, well under the context window (no auto-compaction).
  const content = `${'z'.repeat(512 * 1024)}\n`;
  const r = await run(p, [reply().tool('Write', { file_path: 'big.txt', content }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /warning/);
  assert.equal(readFileSync(join(p.dir, 'big.txt'), 'utf8'), content);
  assert.equal(r.stdout.trim(), 'Done.');
});

test('a hook that waits for more input ends at end-of-file instead of hanging', async () => {
  const p = project({ PreToolUse: on('read -r first; read -r second; echo "second=[$second]" > hooks/read.txt; exit 0', 'Bash') });
  const r = await run(p, [reply().tool('Bash', { command: 'echo ran' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(p.dir, 'hooks/read.txt'), 'utf8'), 'second=[]\n');
  assert.equal(lastToolResults(model.requests[1])[0].content.trim(), 'ran');
});

test('a hook that runs longer than a second is shown by name while it runs', async () => {
  const p = project({ PreToolUse: on('sleep 1.3', 'Bash') });
  const r = await run(p, [reply().tool('Bash', { command: 'echo ran' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /waiting for PreToolUse hook "sleep 1\.3"/);
});

// ───────────────────────────── interrupts ─────────────────────────────

async function interruptWhen(p: Project, ready: () => boolean, steps: Step[]) {
  model.reset();
  model.script(...steps);
  const child = startCli(['-p', 'go', '--permission-mode', 'bypass', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: p.dir,
    home: p.home,
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  for (let i = 0; i < 200 && !ready(); i++) await sleep(25);
  assert.ok(ready(), `never got ready: ${stderr}`);
  await sleep(100);
  child.kill('SIGINT');
  return { code: await exited, stderr };
}

test("an interrupt kills a running hook's process group; Stop does not fire; SessionEnd still runs", async () => {
  const p = project({
    PreToolUse: on('sleep 30 & echo $! > hooks/bg.pid; sleep 30', 'Bash'),
    Stop: on('./hooks/log.sh'),
    SessionEnd: on('./hooks/log.sh'),
  });
  const pidFile = join(p.dir, 'hooks/bg.pid');
  const r = await interruptWhen(p, () => existsSync(pidFile), [reply().tool('Bash', BLOCKED_CALL), reply('never asked')]);
  assert.equal(r.code, 130, r.stderr);
  assert.ok(await waitGone(Number(readFileSync(pidFile, 'utf8'))), "the hook's background child was killed");
  assert.ok(!existsSync(join(p.dir, 'BLOCK_MARKER')), 'the call did not run');
  assert.equal(model.requests.length, 1);
  assert.doesNotMatch(r.stderr, /warning: PreToolUse hook/, 'an interrupted hook is not reported as failing');
  assert.deepEqual(
    logged(p).map((e) => e.hook_event_name),
    ['SessionEnd'],
  );
});

test('Stop does not fire when the user interrupts the model', async () => {
  const p = project({ Stop: on('./hooks/log.sh'), SessionEnd: on('./hooks/log.sh') });
  const r = await interruptWhen(p, () => model.requests.length > 0, [hang()]);
  assert.equal(r.code, 130, r.stderr);
  assert.deepEqual(
    logged(p).map((e) => e.hook_event_name),
    ['SessionEnd'],
  );
});
