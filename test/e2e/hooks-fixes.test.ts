/**
 * Hook fixes (session 3), end to end through the built CLI: de-duplication keeps the longest
 * timeout, `"continue": false` from SessionStart, `failClosed` on a matcher group, the
 * "program not on PATH" check on commands it cannot parse, and invalid matchers as settings errors.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, type FakeModel, type Step } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';
import { TmuxCli } from './tmux.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

interface Project {
  dir: string;
  home: string;
}

function project(settings: Record<string, unknown>, files: Record<string, string> = {}): Project {
  const all = { '.assistant/settings.json': `${JSON.stringify(settings, null, 2)}\n`, ...files };
  const p = makeProject(all);
  for (const f of Object.keys(all)) if (f.endsWith('.sh')) chmodSync(join(p.dir, f), 0o755);
  return p;
}

const env = () => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });

async function run(p: Project, steps: Step[], args: string[] = []) {
  model.reset();
  model.script(...steps);
  return runCli(['-p', 'do the task', '--model', 'anthropic:claude-sonnet-4-5', ...args], { cwd: p.dir, home: p.home, env: env() });
}

const TOUCH = [reply().tool('Bash', { command: 'touch MARK' }), reply('Done.')];

test('the same guard in user and project settings runs once, with the longer timeout: a short one cannot switch it off', async () => {
  const guard = 'sleep 1.5; echo "guarded: no touching" >&2; exit 2';
  const p = project({
    permissions: { allow: ['Bash(touch:*)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo run >> runs.log; ${guard}`, timeout: 10 }] }] },
  });
  mkdirSync(join(p.home, '.assistant'), { recursive: true });
  writeFileSync(
    join(p.home, '.assistant/settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo run >> runs.log; ${guard}`, timeout: 1 }] }] } }),
  );
  const r = await run(p, TOUCH, ['--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(join(p.dir, 'MARK')), false, 'the guard blocked the call');
  assert.equal(readFileSync(join(p.dir, 'runs.log'), 'utf8'), 'run\n', 'it ran once');
  assert.doesNotMatch(r.stderr, /timed out/);
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 1);
});

test('SessionStart "continue": false ends a headless run before the prompt is sent: exit 0, stopReason shown, SessionEnd still runs', async () => {
  const p = project(
    {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: './hooks/start.sh' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo ups >> events.log' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'echo stop >> events.log' }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: 'echo end >> events.log' }] }],
      },
    },
    {
      'hooks/start.sh':
        '#!/bin/sh\ncat >/dev/null\necho start >> events.log\necho \'{"continue":false,"stopReason":"Not on the release branch: switch to main first."}\'\n',
    },
  );
  const r = await run(p, [reply('Should never be asked.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Stopped by a hook: Not on the release branch: switch to main first\./);
  assert.equal(model.requests.length, 0, 'nothing was sent to the model');
  assert.deepEqual(readFileSync(join(p.dir, 'events.log'), 'utf8').trim().split('\n'), ['start', 'end']);
  assert.equal(r.stdout, '');
  const json = await run(p, [reply('Should never be asked.')], ['--output-format', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const result = JSON.parse(json.stdout);
  assert.equal(result.stop_reason, 'Not on the release branch: switch to main first.');
  assert.equal(result.is_error, false);
  assert.equal(model.requests.length, 0);
});

test('SessionStart "continue": false in the interactive session is shown at once; the session stays open and answers', async () => {
  const p = project(
    {
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: './hooks/start.sh' }] }] },
    },
    { 'hooks/start.sh': '#!/bin/sh\ncat >/dev/null\necho \'{"continue":false,"stopReason":"Not on the release branch."}\'\n' },
  );
  model.reset();
  model.script(reply('Hello back.'));
  const t = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], { cwd: p.dir, home: p.home, env: env() });
  try {
    const screen = await t.waitFor('the session stays open');
    assert.match(screen.replace(/\s+/g, ' '), /asked to stop: Not on the release branch\. — the session stays open; \/exit ends it\./);
    await t.submit('hello');
    await t.waitFor('Hello back.');
    assert.equal(model.requests.length, 1, 'the prompt was sent');
  } finally {
    t.close();
  }
});

test('"failClosed": true on the matcher group makes its hooks block when they time out or crash', async () => {
  const p = project({
    permissions: { allow: ['Bash(touch:*)'] },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          failClosed: true,
          hooks: [
            { type: 'command', command: 'sleep 5', timeout: 0.5 },
            { type: 'command', command: 'exit 1' },
          ],
        },
      ],
    },
  });
  const r = await run(p, TOUCH, ['--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(join(p.dir, 'MARK')), false, 'the call was blocked');
  assert.doesNotMatch(r.stderr, /not supported|is ignored/, 'failClosed is a known group key');
  const toolResult = JSON.stringify(model.requests[1].body.messages);
  assert.match(toolResult, /\[sleep 5\]: the hook failed \(timed out after 0\.5 s and was killed\) and is marked failClosed/);
  assert.match(toolResult, /\[exit 1\]: the hook failed \(exit 1\) and is marked failClosed/);
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 1);
});

test('the missing-program check skips commands whose first word it cannot tell (c=$(jq …); …), and still finds real misses', async () => {
  const commands = [
    'c=$(jq -r .tool_input.command); echo "$c" >> cmd.log',
    'VAR="a b" ./hooks/ok.sh',
    'cd hooks && ./ok.sh',
    '"$CLAUDE_PROJECT_DIR"/hooks/ok.sh',
    "bash -c 'cat >/dev/null'",
  ];
  const p = project(
    { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: commands.map((command) => ({ type: 'command', command })) }] } },
    { 'hooks/ok.sh': '#!/bin/sh\ncat >/dev/null\n' },
  );
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /not on PATH|does not exist/);
  const doctor = await runCli(['doctor'], { cwd: p.dir, home: p.home, env: env() });
  assert.match(doctor.stdout, /✓ hooks: 5 configured, every program found/);
  assert.doesNotMatch(doctor.stdout, /✗ hook:/);
  const miss = project({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'VAR="a b" ./hooks/gone.sh' }] }] } });
  const m = await run(miss, [reply('Done.')]);
  assert.match(m.stderr, new RegExp(`warning: Stop hook .*${join(miss.dir, 'hooks/gone.sh')} does not exist`));
});

test('a matcher that is not a valid regular expression stops every entry point with exit 2 naming file, line and column', async () => {
  const text =
    '{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash(", "hooks": [ { "type": "command", "command": "exit 2" } ] }\n    ]\n  }\n}\n';
  const p = project({}, { '.assistant/settings.json': text });
  const file = join(p.dir, '.assistant/settings.json');
  const where = new RegExp(`${file}:4:9: .*"Bash\\(" is not a valid regular expression \\(Unterminated group\\)`);
  const r = await run(p, TOUCH);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, where);
  assert.equal(model.requests.length, 0, 'nothing runs');
  assert.equal(existsSync(join(p.dir, 'MARK')), false);
  const list = await runCli(['hooks', 'list'], { cwd: p.dir, home: p.home, env: env() });
  assert.equal(list.code, 2);
  assert.match(list.stderr, where);
  const doctor = await runCli(['doctor'], { cwd: p.dir, home: p.home, env: env() });
  assert.equal(doctor.code, 1, doctor.stdout);
  assert.match(doctor.stdout, new RegExp(`✗ ${where.source}`));
  assert.match(doctor.stdout, /\d+ problems? found/);
});
