/**
 * `assistant hooks list`, `assistant hooks test` and `assistant doctor`, run through the built CLI
 * (`npm run build` first). No model is contacted: these commands never call one. Doctor checks
 * that the provider answers (a GET of its model list): `PROVIDER` stands in for it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`;

type Hooks = Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;
const settings = (hooks: Hooks, extra: Record<string, unknown> = {}) => `${JSON.stringify({ ...extra, hooks }, null, 2)}\n`;
const cmd = (command: string, more: Record<string, unknown> = {}) => ({ type: 'command', command, ...more });

function script(dir: string, rel: string, body: string) {
  const p = join(dir, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

let provider: Server;
let PROVIDER = '';
const requests: string[] = [];
before(async () => {
  provider = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  PROVIDER = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => provider.close(() => r())));

function cli(p: { dir: string; home: string }, args: string[], env: Record<string, string> = {}) {
  return runCli(args, {
    cwd: p.dir,
    home: p.home,
    env: { PATH, ...(args[0] === 'doctor' && env.ANTHROPIC_API_KEY ? { ANTHROPIC_BASE_URL: PROVIDER } : {}), ...env },
  });
}

// ───────────────────────────── hooks list ─────────────────────────────

test('hooks list: every hook by event, matcher, command and source file, from user, project, local and --settings files', async () => {
  const p = makeProject({
    '.assistant/settings.json': settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd('./hooks/guard.sh', { timeout: 5, failClosed: true })] },
        { hooks: [cmd('./hooks/audit.sh')] },
      ],
      Stop: [{ hooks: [cmd('./hooks/summary.sh')] }],
    }),
    '.assistant/settings.local.json': settings({
      PostToolUse: [{ matcher: 'Edit|Write', hooks: [cmd('npx prettier --write "$ASSISTANT_FILE_PATH"')] }],
    }),
    'extra.json': settings({ UserPromptSubmit: [{ hooks: [cmd('echo extra-context')] }] }),
  });
  mkdirSync(join(p.home, '.assistant'), { recursive: true });
  writeFileSync(
    join(p.home, '.assistant/settings.json'),
    settings({ Notification: [{ hooks: [cmd('~/bin/notify.sh')] }], PreToolUse: [{ matcher: '.*', hooks: [cmd('true')] }] }),
  );
  script(p.dir, 'hooks/guard.sh', 'exit 0');
  script(p.dir, 'hooks/audit.sh', 'exit 0');
  script(p.dir, 'hooks/summary.sh', 'exit 0');
  script(p.home, 'bin/notify.sh', 'exit 0');
  const r = await cli(p, ['hooks', 'list', '--settings', 'extra.json']);
  assert.equal(r.code, 0, r.stderr);
  const user = join(p.home, '.assistant/settings.json');
  const proj = join(p.dir, '.assistant/settings.json');
  const local = join(p.dir, '.assistant/settings.local.json');
  const out = r.stdout;
  // Events in a fixed order, each hook with its matcher ([*] when omitted) and its source file.
  assert.deepEqual(
    out.split('\n').filter((l) => /^\S/.test(l)),
    ['PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'UserPromptSubmit'],
  );
  assert.match(out, new RegExp(`\\[\\.\\*\\]  true\\n\\s+from ${user}\\n`));
  assert.match(out, new RegExp(`\\[Bash\\]  \\./hooks/guard\\.sh  \\(timeout 5s, failClosed\\)\\n\\s+from ${proj}\\n`));
  assert.match(out, new RegExp(`\\[\\*\\]  \\./hooks/audit\\.sh\\n\\s+from ${proj}\\n`));
  assert.match(out, new RegExp(`\\[Edit\\|Write\\]  npx prettier --write "\\$ASSISTANT_FILE_PATH"\\n\\s+from ${local}\\n`));
  assert.match(out, new RegExp(`~/bin/notify\\.sh\\n\\s+from ${user}\\n`));
  assert.match(out, new RegExp(`\\./hooks/summary\\.sh\\n\\s+from ${proj}\\n`));
  assert.match(out, new RegExp(`echo extra-context\\n\\s+from ${join(p.dir, 'extra.json')}\\n`));
  assert.doesNotMatch(out, /warning:/, 'every program exists');
});

test('hooks list: warns about hook programs that cannot be found, scripts that are not executable, and unknown events', async () => {
  const p = makeProject({
    '.assistant/settings.json': settings({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [cmd('./hooks/missing-guard.sh'), cmd('"$ASSISTANT_PROJECT_DIR"/hooks/plain.sh'), cmd('no-such-program-xyz --check')],
        },
      ],
      PostToolUse: [{ hooks: [cmd('"$CLAUDE_PROJECT_DIR/.claude/hooks/fmt.sh"')] }],
      AfterEverything: [{ hooks: [cmd('true')] }],
    }),
    'hooks/plain.sh': 'echo not executable\n',
  });
  const r = await cli(p, ['hooks', 'list']);
  assert.equal(r.code, 0, r.stderr);
  const warnings = r.stdout.split('\n').filter((l) => l.startsWith('warning: '));
  const has = (re: RegExp) =>
    assert.ok(
      warnings.some((w) => re.test(w)),
      `no warning matching ${re}:\n${warnings.join('\n')}`,
    );
  has(
    new RegExp(
      `PreToolUse hook "\\./hooks/missing-guard\\.sh" \\(.*settings\\.json\\): ${join(p.dir, 'hooks/missing-guard.sh')} does not exist`,
    ),
  );
  has(new RegExp(`${join(p.dir, 'hooks/plain.sh')} is not executable \\(chmod \\+x it`));
  has(/program "no-such-program-xyz" is not on PATH/);
  has(new RegExp(`${join(p.dir, '.claude/hooks/fmt.sh')} does not exist`));
  has(/unknown hook event "AfterEverything" is ignored/);
});

test('hooks list: no hooks, and a broken settings file is reported with file:line:column (exit 2)', async () => {
  const empty = makeProject();
  const none = await cli(empty, ['hooks', 'list']);
  assert.equal(none.code, 0);
  assert.equal(none.stdout, 'No hooks are configured.\n');
  const broken = makeProject({ '.assistant/settings.local.json': '{\n  "hooks": {\n    "Stop": [],\n  }\n}\n' });
  const r = await cli(broken, ['hooks', 'list']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`${join(broken.dir, '.assistant/settings.local.json')}:3:15: not valid JSON: a trailing comma`));
  assert.match(r.stderr, /fix: /);
});

// ───────────────────────────── hooks test ─────────────────────────────

/** A project whose guard answers according to the command it is asked about. */
function guarded() {
  const p = makeProject({
    '.assistant/settings.json': settings({
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('./guard.sh')] }],
      PostToolUse: [{ matcher: 'Edit|Write', hooks: [cmd('./post.sh')] }],
      Stop: [{ hooks: [cmd('./stop.sh')] }],
      UserPromptSubmit: [{ hooks: [cmd('./prompt.sh')] }],
    }),
  });
  script(
    p.dir,
    'guard.sh',
    [
      'input=$(cat)',
      'printf "%s" "$input" > guard-input.json',
      'case "$input" in',
      '  *"rm -rf"*) echo "rm -rf is not allowed here" >&2; exit 2 ;;',
      '  *json-deny*) echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by JSON"}}\' ;;',
      '  *json-allow*) echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe"}}\' ;;',
      '  *exit-one*) echo "meant to block" >&2; exit 1 ;;',
      '  *slow*) sleep 0.3 ;;',
      'esac',
      'exit 0',
    ].join('\n'),
  );
  script(
    p.dir,
    'post.sh',
    'cat > post-input.json\nenv | grep "^ASSISTANT_" | sort > post-env.txt\necho "use 2 spaces, not tabs, in $ASSISTANT_FILE_PATH" >&2\nexit 2',
  );
  script(
    p.dir,
    'stop.sh',
    'input=$(cat)\ncase "$input" in *unfinished*) echo \'{"decision":"block","reason":"the tests have not been run"}\' ;; esac\nexit 0',
  );
  script(
    p.dir,
    'prompt.sh',
    'input=$(cat)\ncase "$input" in *password*) echo "prompts must not contain secrets" >&2; exit 2 ;; esac\necho "Current branch: main"',
  );
  return p;
}

test('hooks test PreToolUse: exit 2 blocks, with exit code, output, time and the message the model would get', async () => {
  const p = guarded();
  const r = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"rm -rf build"}']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    new RegExp(
      `^● \\./guard\\.sh  \\(${join(p.dir, '.assistant/settings.json')}\\)\\n  exit 2, \\d+ ms, blocks\\n  stderr: rm -rf is not allowed here\\n`,
    ),
  );
  assert.match(
    r.stdout,
    /\nDecision: blocked — the model would receive: PreToolUse:Bash hook error: \[\.\/guard\.sh\]: rm -rf is not allowed here\n$/,
  );
  // The hook got Claude Code's PreToolUse input.
  const input = JSON.parse(readFileSync(join(p.dir, 'guard-input.json'), 'utf8'));
  assert.equal(input.hook_event_name, 'PreToolUse');
  assert.equal(input.tool_name, 'Bash');
  assert.deepEqual(input.tool_input, { command: 'rm -rf build' });
  assert.equal(input.cwd, p.dir);
  assert.equal(input.permission_mode, 'default');
  for (const k of ['session_id', 'transcript_path', 'tool_use_id']) assert.ok(k in input, k);
});

test('hooks test PreToolUse: exit 0 lets the call go on; JSON deny blocks; JSON allow is reported; --mode is passed on', async () => {
  const p = guarded();
  const allow = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"ls"}', '--mode', 'plan']);
  assert.equal(allow.code, 0, allow.stderr);
  assert.match(allow.stdout, /exit 0, \d+ ms, ok\n/);
  assert.match(allow.stdout, /Decision: no objection — the call goes on to the permission check\n$/);
  assert.equal(JSON.parse(readFileSync(join(p.dir, 'guard-input.json'), 'utf8')).permission_mode, 'plan');
  const deny = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"json-deny"}']);
  assert.match(deny.stdout, /stdout: \{"hookSpecificOutput".*"deny"/);
  assert.match(deny.stdout, /Decision: blocked — the model would receive: denied by JSON\n$/);
  const ok = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"json-allow"}']);
  assert.match(ok.stdout, /Decision: allow \(safe\)\n$/);
});

test('hooks test PreToolUse: exit 1 is a warning that says exit 2 blocks; a tool the matcher does not select runs nothing', async () => {
  const p = guarded();
  const r = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"exit-one"}']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /warning: PreToolUse hook "\.\/guard\.sh" \(.*\) exit 1 — exit 1 does not block; exit 2 does; not blocking\. Output: meant to block/,
  );
  assert.match(r.stdout, /exit 1, \d+ ms, failed, not blocking\n/);
  assert.match(r.stdout, /Decision: no objection/);
  const other = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Read', '--input', '{"file_path":"a.txt"}']);
  assert.equal(other.code, 0);
  assert.match(other.stdout, /^No PreToolUse hook matches tool Read\.\nDecision: no objection/);
});

test('hooks test prints how long each hook took', async () => {
  const p = guarded();
  const r = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"slow"}']);
  const ms = Number(/exit 0, (\d+) ms/.exec(r.stdout)?.[1]);
  assert.ok(ms >= 250 && ms < 5000, r.stdout);
});

test('hooks test PostToolUse: exit 2 is feedback for the model; the hook gets tool_response and ASSISTANT_* variables', async () => {
  const p = guarded();
  const r = await cli(p, [
    'hooks',
    'test',
    'PostToolUse',
    '--tool',
    'Edit',
    '--input',
    '{"file_path":"src/a.ts","old_string":"a","new_string":"b"}',
    '--response',
    '{"filePath":"src/a.ts","oldString":"a","newString":"b"}',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const file = join(p.dir, 'src/a.ts');
  assert.match(r.stdout, /exit 2, \d+ ms, blocks\n/);
  assert.ok(
    r.stdout.endsWith(
      `Decision: feedback to the model: PostToolUse:Edit hook feedback:\n[./post.sh]: use 2 spaces, not tabs, in ${file}\n`,
    ),
    r.stdout,
  );
  const input = JSON.parse(readFileSync(join(p.dir, 'post-input.json'), 'utf8'));
  assert.equal(input.hook_event_name, 'PostToolUse');
  assert.equal(input.tool_input.file_path, file, 'file paths reach hooks absolute');
  assert.deepEqual(input.tool_response, { filePath: 'src/a.ts', oldString: 'a', newString: 'b' });
  const env = readFileSync(join(p.dir, 'post-env.txt'), 'utf8');
  assert.match(env, new RegExp(`^ASSISTANT_FILE_PATH=${file}$`, 'm'));
  assert.match(env, /^ASSISTANT_HOOK_EVENT=PostToolUse$/m);
  assert.match(env, new RegExp(`^ASSISTANT_PROJECT_DIR=${p.dir}$`, 'm'));
  assert.match(env, /^ASSISTANT_SESSION_ID=\S+$/m);
  assert.match(env, /^ASSISTANT_TOOL_NAME=Edit$/m);
  const write = await cli(p, ['hooks', 'test', 'PostToolUse', '--tool', 'Bash', '--input', '{"command":"ls"}']);
  assert.match(write.stdout, /No PostToolUse hook matches tool Bash\.\nDecision: no feedback\n$/);
});

test('hooks test Stop: a JSON block keeps the assistant going with the reason; otherwise it stops', async () => {
  const p = guarded();
  const more = await cli(p, ['hooks', 'test', 'Stop', '--input', '{"last_assistant_message":"unfinished work"}']);
  assert.equal(more.code, 0, more.stderr);
  assert.match(more.stdout, /Decision: does not stop — the model would receive: Stop hook feedback:\nthe tests have not been run\n$/);
  const done = await cli(p, ['hooks', 'test', 'Stop', '--input', '{"last_assistant_message":"All done."}']);
  assert.match(done.stdout, /Decision: stops\n$/);
});

test('hooks test UserPromptSubmit: exit 2 blocks and erases the prompt; stdout becomes context', async () => {
  const p = guarded();
  const blocked = await cli(p, ['hooks', 'test', 'UserPromptSubmit', '--input', '{"prompt":"my password is hunter2"}']);
  assert.equal(blocked.code, 0, blocked.stderr);
  assert.match(blocked.stdout, /Decision: prompt blocked and erased: prompts must not contain secrets\n$/);
  const ok = await cli(p, ['hooks', 'test', 'UserPromptSubmit', '--input', '{"prompt":"fix the bug"}']);
  assert.match(ok.stdout, /Decision: prompt goes on, with context: Current branch: main\n$/);
});

test('hooks test: bad usage exits 2 with a message (unknown event, PreToolUse without --tool, --input not a JSON object)', async () => {
  const p = guarded();
  const unknown = await cli(p, ['hooks', 'test', 'BeforeTool', '--tool', 'Bash']);
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /Unknown event "BeforeTool"\. Events: PreToolUse, PostToolUse, Notification, Stop, UserPromptSubmit, SessionStart, SessionEnd, PreCompact, SubagentStop\./,
  );
  const noTool = await cli(p, ['hooks', 'test', 'PreToolUse', '--input', '{"command":"ls"}']);
  assert.equal(noTool.code, 2);
  assert.match(noTool.stderr, /PreToolUse needs --tool NAME/);
  const noPostTool = await cli(p, ['hooks', 'test', 'PostToolUse']);
  assert.equal(noPostTool.code, 2);
  const badJson = await cli(p, ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', 'ls -la']);
  assert.equal(badJson.code, 2);
  assert.match(badJson.stderr, /--input must be a JSON object/);
  const noEvent = await cli(p, ['hooks', 'test']);
  assert.equal(noEvent.code, 2);
  assert.match(noEvent.stderr, /missing required argument 'event'/);
});

// ───────────────────────────── doctor ─────────────────────────────

test('doctor: a healthy setup with a model key exits 0', async () => {
  const p = makeProject({
    '.assistant/settings.json': settings({
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('"$ASSISTANT_PROJECT_DIR/.assistant/hooks/guard.sh"')] }],
      Stop: [{ hooks: [cmd('echo done')] }],
    }),
  });
  script(p.dir, '.assistant/hooks/guard.sh', 'exit 0');
  const r = await cli(p, ['doctor'], { ANTHROPIC_API_KEY: 'test-key' });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`✓ settings: ${join(p.dir, '.assistant/settings.json')}\n`));
  assert.match(r.stdout, /✓ hooks: 2 configured, every program found\n/);
  assert.match(r.stdout, /✓ model: anthropic:/);
  assert.match(r.stdout, /✓ provider: anthropic:.* reachable at http:\/\/127\.0\.0\.1:\d+ \(HTTP 200\)/);
  assert.ok(requests.includes('GET /v1/models') && requests.every((x) => x.startsWith('GET ')), 'a GET of the model list, never a prompt');
  assert.match(r.stdout, /✓ ripgrep/);
  assert.match(r.stdout, /All good\.\n$/);
  assert.doesNotMatch(r.stdout, /✗/);
});

test('doctor: a missing hook script is named, exit 1', async () => {
  const p = makeProject({
    '.assistant/settings.json': settings({
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('"$ASSISTANT_PROJECT_DIR/.assistant/hooks/guard.sh"')] }],
    }),
  });
  const r = await cli(p, ['doctor'], { ANTHROPIC_API_KEY: 'test-key' });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    new RegExp(
      `✗ hook: PreToolUse hook ".*guard\\.sh"" \\(${join(p.dir, '.assistant/settings.json')}\\): ${join(p.dir, '.assistant/hooks/guard.sh')} does not exist\n`,
    ),
  );
  assert.match(r.stdout, /1 problem found\.\n$/);
});

test('doctor: a broken settings file is reported with file:line:column, exit 1; no model is a problem too', async () => {
  const p = makeProject({
    '.assistant/settings.json': '{\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "shell", "command": "x" } ] } ]\n  }\n}\n',
  });
  const r = await cli(p, ['doctor'], { ANTHROPIC_API_KEY: 'test-key' });
  assert.equal(r.code, 1);
  assert.match(r.stdout, new RegExp(`✗ ${join(p.dir, '.assistant/settings.json')}:3:\\d+: "hooks\\.Stop\\.0\\.hooks\\.0\\.type"`));
  const json = makeProject({ '.assistant/settings.json': '{ "hooks": { } ' });
  const bad = await cli(json, ['doctor'], { ANTHROPIC_API_KEY: 'test-key' });
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, new RegExp(`✗ ${join(json.dir, '.assistant/settings.json')}:1:\\d+: not valid JSON`));
  const noModel = await cli(makeProject(), ['doctor']);
  assert.equal(noModel.code, 1);
  assert.match(noModel.stdout, /✗ No model is configured/);
});

test('doctor finds hook programs on the PATH it was given', async () => {
  const p = makeProject({ '.assistant/settings.json': settings({ Stop: [{ hooks: [cmd('my-notifier --done')] }] }) });
  const bin = join(p.home, 'bin');
  mkdirSync(bin);
  symlinkSync('/bin/sh', join(bin, 'my-notifier'));
  const missing = await cli(p, ['doctor'], { ANTHROPIC_API_KEY: 'k' });
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /program "my-notifier" is not on PATH/);
  const found = await cli(p, ['doctor'], { ANTHROPIC_API_KEY: 'k', PATH: `${bin}:${PATH}` });
  assert.equal(found.code, 0, found.stdout);
});
