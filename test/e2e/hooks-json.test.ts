/**
 * Hooks end to end: the JSON output protocol, hook decisions against modes and rules, matchers,
 * parallel runs and de-duplication, and how settings are read (once, at the start).
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, systemPrompt, userTexts, type FakeModel, type Step } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

/** say.sh FILE: reads its input, prints hooks/FILE on stdout, exits 0 (JSON without shell quoting). */
const SAY_SH = `#!/bin/sh
cat >/dev/null
cat "$(dirname "$0")/$1"
`;
/** mark.sh NAME: appends "NAME TOOL" to hooks.log. */
const MARK_SH = `#!/bin/sh
cat >/dev/null
echo "$1 \${ASSISTANT_TOOL_NAME-none}" >> "$(dirname "$0")/../hooks.log"
`;

interface Project {
  dir: string;
  home: string;
}

/** A project with .assistant/settings.json = `settings`, hooks/say.sh, hooks/mark.sh and hooks/NAME.json answers. */
function project(settings: Record<string, unknown>, answers: Record<string, unknown> = {}, files: Record<string, string> = {}): Project {
  const all: Record<string, string> = {
    '.assistant/settings.json': `${JSON.stringify(settings, null, 2)}\n`,
    'hooks/say.sh': SAY_SH,
    'hooks/mark.sh': MARK_SH,
    'src/app.js': 'export const mode = "old";\n',
    ...Object.fromEntries(Object.entries(answers).map(([name, json]) => [`hooks/${name}.json`, `${JSON.stringify(json)}\n`])),
    ...files,
  };
  const p = makeProject(all);
  for (const f of Object.keys(all)) if (f.endsWith('.sh')) chmodSync(join(p.dir, f), 0o755);
  return p;
}

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

const BYPASS = ['--permission-mode', 'bypass'];
const MARKER_CALL = { command: 'touch MARKER && echo marker-made', description: 'Make a marker' };
const READ_THEN_EDIT = [
  reply().tool('Read', { file_path: 'src/app.js' }),
  reply().tool('Edit', { file_path: 'src/app.js', old_string: '"old"', new_string: '"new"' }),
  reply('Done.'),
];
const appText = (p: Project) => readFileSync(join(p.dir, 'src/app.js'), 'utf8');

// ───────────────────────────── PreToolUse decisions ─────────────────────────────

test('PreToolUse {"decision":"block"} (legacy): the reason is the tool error, the call does not run', async () => {
  const p = project(
    { hooks: { PreToolUse: on('./hooks/say.sh block.json', 'Bash') } },
    { block: { decision: 'block', reason: 'JSON-BLOCK-REASON: Bash is blocked by policy' } },
  );
  const r = await run(p, [reply().tool('Bash', MARKER_CALL), reply('ok')], [...BYPASS, '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'MARKER')));
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, true);
  assert.equal(res.content, 'JSON-BLOCK-REASON: Bash is blocked by policy');
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 1);
});

test('PreToolUse permissionDecision "deny": the model receives the reason; the command does not run', async () => {
  const deny = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'JSON-DENY-REASON: Bash is blocked by policy',
    },
  };
  const p = project({ hooks: { PreToolUse: on('./hooks/say.sh deny.json', 'Bash') } }, { deny });
  const r = await run(p, [reply().tool('Bash', MARKER_CALL), reply('ok')], [...BYPASS, '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'MARKER')));
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, true);
  assert.equal(res.content, 'JSON-DENY-REASON: Bash is blocked by policy');
  assert.deepEqual(
    JSON.parse(r.stdout).permission_denials.map((d: { tool_name: string }) => d.tool_name),
    ['Bash'],
  );
});

test('PreToolUse deny beats allow from another hook', async () => {
  const p = project(
    {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: './hooks/say.sh allow.json' },
              { type: 'command', command: './hooks/say.sh deny.json' },
            ],
          },
        ],
      },
    },
    {
      allow: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } },
      deny: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'DENIED' } },
    },
  );
  const r = await run(p, [reply().tool('Bash', MARKER_CALL), reply('ok')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'MARKER')));
  assert.equal(lastToolResults(model.requests[1])[0].content, 'DENIED');
});

test('PreToolUse permissionDecision "allow" skips the question: an Edit headless Normal mode would refuse runs', async () => {
  const allow = {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'formatter-approved' },
  };
  // Without the hook, Normal mode headless refuses the Edit.
  const control = project({});
  const c = await run(control, READ_THEN_EDIT, ['--permission-mode', 'normal', '--output-format', 'json']);
  assert.equal(c.code, 0, c.stderr);
  assert.equal(JSON.parse(c.stdout).permission_denials.length, 1);
  assert.match(appText(control), /"old"/);
  // With it, the Edit runs.
  const p = project({ hooks: { PreToolUse: on('./hooks/say.sh allow.json', 'Edit') } }, { allow });
  const r = await run(p, READ_THEN_EDIT, ['--permission-mode', 'normal', '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).permission_denials, []);
  assert.match(appText(p), /"new"/);
  assert.equal(lastToolResults(model.requests[2])[0].isError, false);
});

test('PreToolUse permissionDecision "allow" never overrides Plan Mode', async () => {
  const allow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
  const p = project({ hooks: { PreToolUse: on('./hooks/say.sh allow.json') } }, { allow });
  const r = await run(
    p,
    [...READ_THEN_EDIT.slice(0, 2), reply().tool('Bash', MARKER_CALL), reply('Done.')],
    ['--permission-mode', 'plan', '--output-format', 'json'],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(appText(p), /"old"/, 'the Edit stays refused');
  assert.ok(!existsSync(join(p.dir, 'MARKER')), 'the Bash command stays refused');
  const edit = lastToolResults(model.requests[2])[0];
  assert.equal(edit.isError, true);
  assert.match(edit.content, /Plan Mode/);
  assert.match(lastToolResults(model.requests[3])[0].content, /Plan Mode/);
  assert.deepEqual(
    JSON.parse(r.stdout).permission_denials.map((d: { tool_name: string }) => d.tool_name),
    ['Edit', 'Bash'],
  );
});

test('PreToolUse sees a call a deny rule refuses; its "allow" never overrides the rule (docs/hooks.md)', async () => {
  const allow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
  const hooks = [
    {
      hooks: [
        { type: 'command', command: './hooks/say.sh allow.json' },
        { type: 'command', command: './hooks/mark.sh pre' },
      ],
    },
  ];
  const p = project({ permissions: { deny: ['Edit'] }, hooks: { PreToolUse: hooks } }, { allow });
  const r = await run(p, READ_THEN_EDIT, [...BYPASS, '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(appText(p), /"old"/);
  assert.equal(readFileSync(join(p.dir, 'hooks.log'), 'utf8'), 'pre Read\npre Edit\n', 'the audit hook saw the refused Edit');
  assert.equal(lastToolResults(model.requests[2])[0].isError, true);
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 1);
});

test('PreToolUse permissionDecision "ask" is refused headless, even in Bypass mode, with the hook\'s reason', async () => {
  const ask = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: 'ASK-REASON: confirm deployments',
    },
  };
  const p = project({ hooks: { PreToolUse: on('./hooks/say.sh ask.json', 'Bash') } }, { ask });
  const r = await run(p, [reply().tool('Bash', MARKER_CALL), reply('ok')], [...BYPASS, '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'MARKER')));
  const res = lastToolResults(model.requests[1])[0];
  assert.equal(res.isError, true);
  assert.match(res.content, /ASK-REASON: confirm deployments/);
  assert.match(res.content, /headless/);
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 1);
});

test('PreToolUse updatedInput rewrites the Bash command before it runs; PostToolUse sees the new input', async () => {
  const rewrite = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: 'echo rewritten | tee rewritten.txt' },
    },
  };
  const p = project(
    {
      hooks: { PreToolUse: on('./hooks/say.sh rewrite.json', 'Bash'), PostToolUse: on('cat > hooks/post.json', 'Bash') },
    },
    { rewrite },
  );
  const r = await run(p, [reply().tool('Bash', { command: 'echo original | tee original.txt' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(p.dir, 'rewritten.txt')), 'the rewritten command ran');
  assert.ok(!existsSync(join(p.dir, 'original.txt')), 'the original command did not');
  assert.equal(lastToolResults(model.requests[1])[0].content.trim(), 'rewritten');
  const post = JSON.parse(readFileSync(join(p.dir, 'hooks/post.json'), 'utf8'));
  assert.equal(post.tool_input.command, 'echo rewritten | tee rewritten.txt');
  assert.equal(post.tool_response.stdout, 'rewritten');
});

test('PreToolUse updatedInput is checked by the rules again: a rewrite into a denied tool input is refused', async () => {
  const rewrite = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      updatedInput: { file_path: '.assistant/settings.json', old_string: '"hooks"', new_string: '"hooks_off"' },
    },
  };
  const p = project({ hooks: { PreToolUse: on('./hooks/say.sh rewrite.json', 'Edit') } }, { rewrite });
  const r = await run(p, READ_THEN_EDIT, ['--permission-mode', 'auto-accept', '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(readFileSync(join(p.dir, '.assistant/settings.json'), 'utf8'), /"hooks"/);
  assert.match(appText(p), /"old"/);
  assert.equal(lastToolResults(model.requests[2])[0].isError, true);
});

// ───────────────────────────── other JSON fields ─────────────────────────────

test('additionalContext from UserPromptSubmit, SessionStart and PostToolUse reaches the model', async () => {
  const ctx = (event: string, text: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
  const p = project(
    {
      hooks: {
        UserPromptSubmit: on('./hooks/say.sh ups.json'),
        SessionStart: on('./hooks/say.sh start.json'),
        PostToolUse: on('./hooks/say.sh post.json', 'Bash'),
      },
    },
    {
      ups: ctx('UserPromptSubmit', 'CTX-FROM-PROMPT-HOOK'),
      start: ctx('SessionStart', 'CTX-FROM-START-HOOK'),
      post: ctx('PostToolUse', 'CTX-FROM-POST-HOOK'),
    },
  );
  const r = await run(p, [reply().tool('Bash', { command: 'echo ran' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.match(userTexts(model.requests[0]).join('\n'), /CTX-FROM-PROMPT-HOOK/);
  assert.doesNotMatch(userTexts(model.requests[0]).join('\n'), /hookSpecificOutput/, 'the JSON itself is not context');
  assert.match(systemPrompt(model.requests[0]) ?? '', /CTX-FROM-START-HOOK/);
  const res = lastToolResults(model.requests[1])[0];
  assert.match(res.content, /^ran\n[\s\S]*CTX-FROM-POST-HOOK/);
  assert.equal(res.isError, false);
});

test('PostToolUse {"decision":"block"}: the reason reaches the model as feedback', async () => {
  const p = project(
    { hooks: { PostToolUse: on('./hooks/say.sh block.json', 'Bash') } },
    { block: { decision: 'block', reason: 'POST-JSON-REASON: lint failed' } },
  );
  const r = await run(p, [reply().tool('Bash', { command: 'echo ran' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  const res = lastToolResults(model.requests[1])[0];
  assert.match(res.content, /^ran\n\nPostToolUse:Bash hook feedback:\nPOST-JSON-REASON: lint failed$/);
});

test('Stop {"decision":"block"}: the model gets the reason and continues', async () => {
  const STOP_SH = `#!/bin/sh
case "$(cat)" in *'"stop_hook_active":false'*) cat "$(dirname "$0")/block.json" ;; esac
exit 0
`;
  const p = project(
    { hooks: { Stop: on('./hooks/stop.sh') } },
    { block: { decision: 'block', reason: 'STOP-JSON-REASON: update the changelog' } },
    { 'hooks/stop.sh': STOP_SH },
  );
  const r = await run(p, [reply('Done early.'), reply('Changelog updated.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(model.requests.length, 2);
  assert.match(userTexts(model.requests[1]).at(-1) ?? '', /STOP-JSON-REASON: update the changelog/);
  assert.equal(r.stdout.trim(), 'Changelog updated.');
});

test('UserPromptSubmit {"decision":"block"}: the prompt is blocked, the reason goes to the user only, exit 1', async () => {
  const p = project(
    { hooks: { UserPromptSubmit: on('./hooks/say.sh block.json') } },
    { block: { decision: 'block', reason: 'UPS-JSON-BLOCK: no deploys on Friday' } },
  );
  const r = await run(p, [reply('never asked')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UPS-JSON-BLOCK: no deploys on Friday/);
  assert.equal(model.requests.length, 0);
});

test('{"continue":false} from PostToolUse ends the run: exit 0, stopReason on stderr, no more model requests', async () => {
  const p = project(
    { hooks: { PostToolUse: on('./hooks/say.sh stop.json', 'Bash') } },
    { stop: { continue: false, stopReason: 'STOP-REASON: budget reached' } },
  );
  const r = await run(p, [reply().tool('Bash', MARKER_CALL), reply('never asked')], [...BYPASS, '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(p.dir, 'MARKER')), 'the call had already run');
  assert.equal(model.requests.length, 1);
  assert.match(r.stderr, /STOP-REASON: budget reached/);
  const result = JSON.parse(r.stdout);
  assert.equal(result.is_error, false);
  assert.match(result.stop_reason, /STOP-REASON: budget reached/);
});

test('{"continue":false} from PreToolUse ends the run before the call runs', async () => {
  const p = project(
    { hooks: { PreToolUse: on('./hooks/say.sh stop.json', 'Bash') } },
    { stop: { continue: false, stopReason: 'STOP-REASON: freeze' } },
  );
  const r = await run(p, [reply().tool('Bash', MARKER_CALL), reply('never asked')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(p.dir, 'MARKER')), 'the call did not run');
  assert.equal(model.requests.length, 1);
  assert.match(r.stderr, /STOP-REASON: freeze/);
});

test('{"continue":false} from UserPromptSubmit ends the run before any model request, exit 0', async () => {
  const p = project(
    { hooks: { UserPromptSubmit: on('./hooks/say.sh stop.json') } },
    { stop: { continue: false, stopReason: 'STOP-REASON: office hours are over' } },
  );
  const r = await run(p, [reply('never asked')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(model.requests.length, 0);
  assert.match(r.stderr, /STOP-REASON: office hours are over/);
});

function stopBesideBlock() {
  return project(
    {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: './hooks/say.sh stop.json' },
              { type: 'command', command: './hooks/say.sh block.json' },
            ],
          },
        ],
      },
    },
    { stop: { continue: false, stopReason: 'STOP-REASON: enough' }, block: { decision: 'block', reason: 'keep going' } },
  );
}

test('{"continue":false} from Stop beats another Stop hook\'s block: the run ends, exit 0', async () => {
  const r = await run(stopBesideBlock(), [reply('Done.'), reply('never asked')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(model.requests.length, 1, 'continue:false beats decision:block');
  assert.equal(r.stdout.trim(), 'Done.');
});

// Known bug (src/agent/loop.ts:104): after the Stop seam the loop does not check `halted()`, so the run
// ends as "done" and the Stop hook's stopReason is never shown (SPEC §11.2: "stopReason shown").
test('{"continue":false} from Stop shows its stopReason', async () => {
  const r = await run(stopBesideBlock(), [reply('Done.'), reply('never asked')], ['--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /STOP-REASON: enough/);
  assert.match(JSON.parse(r.stdout).stop_reason ?? '', /STOP-REASON: enough/);
});

test('systemMessage is shown to the user as a warning (stderr, and a warning line in stream-json)', async () => {
  const p = project(
    { hooks: { PreToolUse: on('./hooks/say.sh msg.json', 'Bash') } },
    { msg: { systemMessage: 'SYS-MSG: remember to bump the version' } },
  );
  const text = await run(p, [reply().tool('Bash', { command: 'echo ran' }), reply('Done.')], BYPASS);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stderr, /warning: SYS-MSG: remember to bump the version/);
  assert.doesNotMatch(JSON.stringify(model.requests[1].body.messages), /SYS-MSG/, 'not sent to the model');
  const stream = await run(
    p,
    [reply().tool('Bash', { command: 'echo ran' }), reply('Done.')],
    [...BYPASS, '--output-format', 'stream-json', '--verbose'],
  );
  assert.equal(stream.code, 0, stream.stderr);
  const lines = stream.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(lines.some((l) => l.type === 'warning' && l.message === 'SYS-MSG: remember to bump the version'));
  assert.match(stream.stderr, /warning: SYS-MSG/);
});

// ───────────────────────────── matchers, parallel runs, de-duplication ─────────────────────────────

test('matchers select tools end to end: omitted, "*", exact, A|B, A,B, whole-name regular expressions', async () => {
  const groups = [
    [undefined, 'omitted'],
    ['*', 'star'],
    ['', 'empty'],
    ['Bash', 'exact'],
    ['Edit|Write', 'pipe'],
    ['Read,Grep', 'comma'],
    ['.as', 'partial-regex'],
    ['Ba.*', 'regex'],
    ['B.*|R.*', 'regex-alt'],
    ['bash', 'wrong-case'],
  ] as const;
  const p = project({
    hooks: {
      PreToolUse: groups.map(([matcher, name]) => ({
        ...(matcher === undefined ? {} : { matcher }),
        hooks: [{ type: 'command', command: `./hooks/mark.sh ${name}` }],
      })),
    },
  });
  const r = await run(
    p,
    [
      reply().tool('Bash', { command: 'echo hi' }),
      reply().tool('Read', { file_path: 'src/app.js' }),
      reply().tool('Edit', { file_path: 'src/app.js', old_string: '"old"', new_string: '"new"' }),
      reply().tool('Grep', { pattern: 'mode' }),
      reply('Done.'),
    ],
    BYPASS,
  );
  assert.equal(r.code, 0, r.stderr);
  const log = readFileSync(join(p.dir, 'hooks.log'), 'utf8').trim().split('\n');
  const firedFor = (tool: string) =>
    log
      .filter((l) => l.endsWith(` ${tool}`))
      .map((l) => l.split(' ')[0])
      .sort();
  assert.deepEqual(firedFor('Bash'), ['empty', 'exact', 'omitted', 'regex', 'regex-alt', 'star']);
  assert.deepEqual(firedFor('Read'), ['comma', 'empty', 'omitted', 'regex-alt', 'star']);
  assert.deepEqual(firedFor('Edit'), ['empty', 'omitted', 'pipe', 'star']);
  assert.deepEqual(firedFor('Grep'), ['comma', 'empty', 'omitted', 'star']);
});

test('events without tools ignore a matcher', async () => {
  const p = project({ hooks: { Stop: on('./hooks/mark.sh stop', 'NoSuchTool'), UserPromptSubmit: on('./hooks/mark.sh prompt', 'Bash') } });
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(p.dir, 'hooks.log'), 'utf8').trim().split('\n').sort(), ['prompt none', 'stop none']);
});

test('hooks from every settings file run: user, project, local and --settings (file or inline JSON)', async () => {
  const p = project(
    { hooks: { PreToolUse: on('./hooks/mark.sh project', 'Bash') } },
    {},
    {
      '.assistant/settings.local.json': JSON.stringify({ hooks: { PreToolUse: on('./hooks/mark.sh local', 'Bash') } }),
      'extra-settings.json': JSON.stringify({ hooks: { PreToolUse: on('./hooks/mark.sh flag-file', 'Bash') } }),
    },
  );
  mkdirSync(join(p.home, '.assistant'), { recursive: true });
  writeFileSync(
    join(p.home, '.assistant/settings.json'),
    JSON.stringify({ hooks: { PreToolUse: on(`${join(p.dir, 'hooks/mark.sh')} user`, 'Bash') } }),
  );
  const r = await run(
    p,
    [reply().tool('Bash', { command: 'echo hi' }), reply('Done.')],
    [...BYPASS, '--settings', 'extra-settings.json', '--output-format', 'stream-json', '--verbose'],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(p.dir, 'hooks.log'), 'utf8').trim().split('\n').sort(), [
    'flag-file Bash',
    'local Bash',
    'project Bash',
    'user Bash',
  ]);
  const sources = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => l.subtype === 'hook_response')
    .map((l) => l.source)
    .sort();
  assert.deepEqual(
    sources,
    [
      join(p.home, '.assistant/settings.json'),
      join(p.dir, '.assistant/settings.json'),
      join(p.dir, '.assistant/settings.local.json'),
      join(p.dir, 'extra-settings.json'),
    ].sort(),
  );
  const inline = await run(
    p,
    [reply().tool('Bash', { command: 'echo hi' }), reply('Done.')],
    [...BYPASS, '--settings', JSON.stringify({ hooks: { PreToolUse: on('./hooks/mark.sh inline', 'Bash') } })],
  );
  assert.equal(inline.code, 0, inline.stderr);
  assert.match(readFileSync(join(p.dir, 'hooks.log'), 'utf8'), /^inline Bash$/m);
});

test('matching hooks of one event run in parallel', async () => {
  const slow = (name: string) => `date +%s%N > hooks/${name}.start; sleep 1.2; date +%s%N > hooks/${name}.end`;
  const p = project({
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: slow('a') }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: slow('b') }] },
      ],
    },
  });
  const r = await run(p, [reply().tool('Bash', { command: 'date +%s%N > ran.at' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  const t = (f: string) => BigInt(readFileSync(join(p.dir, f), 'utf8').trim());
  const [aStart, aEnd, bStart, bEnd, ran] = [t('hooks/a.start'), t('hooks/a.end'), t('hooks/b.start'), t('hooks/b.end'), t('ran.at')];
  assert.ok(aStart < bEnd && bStart < aEnd, 'the two hooks overlap in time');
  assert.ok(ran > aEnd && ran > bEnd, 'the call runs after both hooks finished');
});

test('the same command in the project and local settings runs once; other commands still run', async () => {
  const p = project(
    { hooks: { PreToolUse: on('./hooks/mark.sh shared', 'Bash'), Stop: on('./hooks/mark.sh stop-shared') } },
    {},
    {
      '.assistant/settings.local.json': JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: '*',
              hooks: [
                { type: 'command', command: './hooks/mark.sh shared' },
                { type: 'command', command: './hooks/mark.sh local-only' },
              ],
            },
          ],
          Stop: on('./hooks/mark.sh stop-shared'),
        },
      }),
    },
  );
  const r = await run(p, [reply().tool('Bash', { command: 'echo hi' }), reply('Done.')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  const log = readFileSync(join(p.dir, 'hooks.log'), 'utf8').trim().split('\n').sort();
  assert.deepEqual(log, ['local-only Bash', 'shared Bash', 'stop-shared none']);
});

test('de-duplication keeps failClosed: a failing guard listed twice, once failClosed, blocks', async () => {
  const p = project(
    { hooks: { PreToolUse: on('./hooks/guard.sh', 'Bash', { failClosed: true }) } },
    {},
    {
      'hooks/guard.sh': '#!/bin/sh\necho run >> "$(dirname "$0")/../guard.log"\nexit 1\n',
    },
  );
  mkdirSync(join(p.home, '.assistant'), { recursive: true });
  writeFileSync(join(p.home, '.assistant/settings.json'), JSON.stringify({ hooks: { PreToolUse: on('./hooks/guard.sh', 'Bash') } }));
  const r = await run(p, [reply().tool('Bash', MARKER_CALL), reply('ok')], BYPASS);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(p.dir, 'guard.log'), 'utf8'), 'run\n', 'runs once');
  assert.ok(!existsSync(join(p.dir, 'MARKER')), 'the failClosed entry still blocks');
  assert.match(lastToolResults(model.requests[1])[0].content, /marked failClosed/);
});

// ───────────────────────────── settings ─────────────────────────────

test('a settings file with a syntax error stops the run before anything: exit 2, file:line:col', async () => {
  const p = project({});
  writeFileSync(
    join(p.dir, '.assistant/settings.json'),
    '{\n  "hooks": {\n    "PreToolUse": [ { "matcher": "Bash" "hooks": [] } ]\n  }\n}\n',
  );
  const r = await run(p, [reply('never asked')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`${join(p.dir, '.assistant/settings.json').replace(/[/.]/g, '\\$&')}:3:\\d+: not valid JSON`));
  assert.equal(model.requests.length, 0);
});

test('a hook entry that breaks the schema stops the run: exit 2, naming the file and the key', async () => {
  const p = project({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: '30' }] }] } });
  const r = await run(p, [reply('never asked')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /settings\.json:\d+:\d+: "hooks\.PreToolUse\.0\.hooks\.0\.timeout"/);
  assert.equal(model.requests.length, 0);
});

test('an unknown hook event is a warning at start-up, not an error', async () => {
  const p = project({ hooks: { PreToolUSE: on('./hooks/mark.sh typo') } });
  const r = await run(p, [reply('Done.')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: .*settings\.json: unknown hook event "PreToolUSE"/);
});

test('a settings change during the run is reported and not applied: a newly added blocking hook does not block', async () => {
  // The model cannot write the settings, even in Bypass (SPEC §11.16): the user's own hook changes them.
  const p = project({ hooks: { PostToolUse: on('./hooks/mark.sh post && cp new-settings.json .assistant/settings.json', 'Bash') } });
  const blocking = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "NEW-GUARD" >&2; exit 2' }] }] } };
  writeFileSync(join(p.dir, 'new-settings.json'), JSON.stringify(blocking));
  const r = await run(
    p,
    [reply().tool('Bash', { command: 'touch FIRST_RAN' }), reply().tool('Bash', { command: 'touch SECOND_RAN' }), reply('Done.')],
    BYPASS,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(readFileSync(join(p.dir, '.assistant/settings.json'), 'utf8'), /NEW-GUARD/, 'the settings did change');
  assert.ok(existsSync(join(p.dir, 'SECOND_RAN')), 'the new hook did not block the next call');
  assert.doesNotMatch(JSON.stringify(model.requests[2].body.messages), /NEW-GUARD/);
  assert.match(r.stderr, /warning: .*\.assistant\/settings\.json changed during the session; the change is ignored/);
  assert.equal(r.stderr.match(/changed during the session/g)!.length, 1, 'reported once');
  assert.equal(readFileSync(join(p.dir, 'hooks.log'), 'utf8').trim().split('\n').length, 2, 'the old hooks keep running');
});

// Possible bug (src/agent/tool-call.ts:83): a hook's "allow" turns the protected-file question into an
// allow, so a broad auto-approve hook on Edit lets the model rewrite its own guards. SPEC §4: edits of
// .assistant/settings*.json "always ask the user, in every mode but bypass" (Claude Code: hook decisions
// do not bypass ask rules).
test('a hook\'s "allow" does not skip the question for the settings files that hold the guards', async () => {
  const allow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
  const p = project({ hooks: { PreToolUse: on('./hooks/say.sh allow.json', 'Edit') } }, { allow });
  const before = readFileSync(join(p.dir, '.assistant/settings.json'), 'utf8');
  const r = await run(
    p,
    [
      reply().tool('Read', { file_path: '.assistant/settings.json' }),
      reply().tool('Edit', { file_path: '.assistant/settings.json', old_string: '"PreToolUse"', new_string: '"Disabled"' }),
      reply('Done.'),
    ],
    ['--permission-mode', 'normal'],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(p.dir, '.assistant/settings.json'), 'utf8'), before);
});

test('the model editing .assistant/settings.json or settings.local.json in Auto-Accept headless is refused', async () => {
  const p = project({ hooks: { PreToolUse: on('./hooks/mark.sh guard', 'Bash') } });
  const before = readFileSync(join(p.dir, '.assistant/settings.json'), 'utf8');
  const r = await run(
    p,
    [
      reply().tool('Read', { file_path: '.assistant/settings.json' }),
      reply().tool('Edit', { file_path: '.assistant/settings.json', old_string: '"PreToolUse"', new_string: '"Disabled"' }),
      reply().tool('Write', { file_path: '.assistant/settings.local.json', content: '{"hooks":{}}\n' }),
      reply().tool('Read', { file_path: 'src/app.js' }),
      reply().tool('Edit', { file_path: 'src/app.js', old_string: '"old"', new_string: '"new"' }),
      reply('Done.'),
    ],
    ['--permission-mode', 'auto-accept', '--output-format', 'json'],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(p.dir, '.assistant/settings.json'), 'utf8'), before);
  assert.ok(!existsSync(join(p.dir, '.assistant/settings.local.json')));
  assert.equal(lastToolResults(model.requests[2])[0].isError, true);
  assert.equal(lastToolResults(model.requests[3])[0].isError, true);
  assert.match(lastToolResults(model.requests[2])[0].content, /settings/);
  assert.match(appText(p), /"new"/, 'other edits in the project are accepted');
  assert.deepEqual(
    JSON.parse(r.stdout).permission_denials.map((d: { tool_input: { file_path: string } }) => d.tool_input.file_path),
    ['.assistant/settings.json', '.assistant/settings.local.json'],
  );
});
