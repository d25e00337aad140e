/**
 * What hooks receive, end to end: each event's standard input compared field by field with the
 * captures from Claude Code (/work/shared/reference/claude-hook-inputs), and the environment.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeModel, reply, type FakeModel, type Step } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

/** The captures of Claude Code's hook input (a copy lives in the shared reference folder). */
const REFERENCE_DIRS = [
  process.env.CLAUDE_HOOK_INPUTS,
  '/work/shared/reference/claude-hook-inputs',
  fileURLToPath(new URL('../../../shared/reference/claude-hook-inputs', import.meta.url)),
].filter((d): d is string => !!d);
const REFERENCE = REFERENCE_DIRS.find((d) => existsSync(join(d, 'PreToolUse-Bash.json')));

/**
 * Claude Code's captures as shapes, for when the reference folder is not at hand: the same keys,
 * the same types. Kept in step with reference/claude-hook-inputs (checked below when it exists).
 */
const S = '',
  N = 0,
  B = false;
const COMMON = { session_id: S, transcript_path: S, cwd: S, prompt_id: S, hook_event_name: S };
const PATCH = [{ oldStart: N, oldLines: N, newStart: N, newLines: N, lines: [S] }];
const EXPECTED: Record<string, unknown> = {
  'PreToolUse-Bash': { ...COMMON, permission_mode: S, tool_name: S, tool_input: { command: S, description: S }, tool_use_id: S },
  'PostToolUse-Bash': {
    ...COMMON,
    permission_mode: S,
    tool_name: S,
    tool_input: { command: S, description: S },
    tool_use_id: S,
    duration_ms: N,
    tool_response: { stdout: S, stderr: S, interrupted: B, isImage: B, noOutputExpected: B },
  },
  'PreToolUse-Edit': {
    ...COMMON,
    permission_mode: S,
    tool_name: S,
    tool_input: { file_path: S, old_string: S, new_string: S, replace_all: B },
    tool_use_id: S,
  },
  'PostToolUse-Edit': {
    ...COMMON,
    permission_mode: S,
    tool_name: S,
    tool_input: { file_path: S, old_string: S, new_string: S, replace_all: B },
    tool_use_id: S,
    duration_ms: N,
    tool_response: { filePath: S, oldString: S, newString: S, originalFile: S, structuredPatch: PATCH, userModified: B, replaceAll: B },
  },
  'PreToolUse-Read': { ...COMMON, permission_mode: S, tool_name: S, tool_input: { file_path: S }, tool_use_id: S },
  'PostToolUse-Read': {
    ...COMMON,
    permission_mode: S,
    tool_name: S,
    tool_input: { file_path: S },
    tool_use_id: S,
    duration_ms: N,
    tool_response: { type: S, file: { filePath: S, content: S, numLines: N, startLine: N, totalLines: N } },
  },
  'PreToolUse-Grep-default': { ...COMMON, permission_mode: S, tool_name: S, tool_input: { pattern: S, path: S }, tool_use_id: S },
  'PostToolUse-Grep-default': {
    ...COMMON,
    permission_mode: S,
    tool_name: S,
    tool_input: { pattern: S, path: S },
    tool_use_id: S,
    duration_ms: N,
    tool_response: { mode: S, filenames: [S], numFiles: N },
  },
  'PreToolUse-Grep-content': {
    ...COMMON,
    permission_mode: S,
    tool_name: S,
    tool_input: { pattern: S, path: S, output_mode: S },
    tool_use_id: S,
  },
  'PostToolUse-Grep-content': {
    ...COMMON,
    permission_mode: S,
    tool_name: S,
    tool_input: { pattern: S, path: S, output_mode: S },
    tool_use_id: S,
    duration_ms: N,
    tool_response: { mode: S, numFiles: N, filenames: [], content: S, numLines: N },
  },
  Stop: { ...COMMON, permission_mode: S, stop_hook_active: B, last_assistant_message: S, background_tasks: [], session_crons: [] },
  UserPromptSubmit: { ...COMMON, permission_mode: S, prompt: S },
  SessionStart: { session_id: S, transcript_path: S, cwd: S, hook_event_name: S, source: S },
  SessionEnd: { ...COMMON, reason: S },
};

/** Keys (sorted) and value types, recursively; an array is the shape of its first element. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  return v === null ? 'null' : typeof v;
}

function referenceShape(name: string): unknown {
  return REFERENCE ? shape(JSON.parse(readFileSync(join(REFERENCE, `${name}.json`), 'utf8'))) : shape(EXPECTED[name]);
}

test('the built-in shapes agree with the reference captures', { skip: REFERENCE ? false : 'reference captures not found' }, () => {
  for (const name of Object.keys(EXPECTED)) {
    assert.deepEqual(shape(EXPECTED[name]), shape(JSON.parse(readFileSync(join(REFERENCE!, `${name}.json`), 'utf8'))), name);
  }
});

/** Every hook of every event appends its standard input (one JSON line) to hooks.jsonl. */
const CAPTURE_SH = `#!/bin/sh
cat >> "$CLAUDE_PROJECT_DIR/hooks.jsonl"
`;
/** Every hook appends its environment and working directory to env.log (one block per run). */
const ENV_SH = `#!/bin/sh
cat >/dev/null
{
  echo "event=$ASSISTANT_HOOK_EVENT"
  echo "pwd=$(pwd)"
  echo "project=\${ASSISTANT_PROJECT_DIR-unset}"
  echo "claude=\${CLAUDE_PROJECT_DIR-unset}"
  echo "tool=\${ASSISTANT_TOOL_NAME-unset}"
  echo "file=\${ASSISTANT_FILE_PATH-unset}"
  echo "session=\${ASSISTANT_SESSION_ID-unset}"
  echo "setting=\${MY_SETTING-unset}"
  echo "--"
} >> "$(dirname "$0")/../env.log"
`;

const ALL_EVENTS = ['PreToolUse', 'PostToolUse', 'Stop', 'UserPromptSubmit', 'SessionStart', 'SessionEnd'];

const MODULE = (n: number) =>
  `// module 0${n}\nconst VALUE = ${n};\n\nexport function fn0${n}(x) {\n  // TODO-0${n}: handle negative input\n  return x * VALUE + 0;\n}\n\nexport const name0${n} = 'mod0${n}';\n`;

function project(settings: Record<string, unknown>, files: Record<string, string> = {}) {
  const all: Record<string, string> = {
    '.assistant/settings.json': `${JSON.stringify(settings, null, 2)}\n`,
    'hooks/capture.sh': CAPTURE_SH,
    'hooks/env.sh': ENV_SH,
    'README.md': '# demo-project\n\nA small project used to test hooks.\n',
    ...Object.fromEntries([1, 2, 7].map((n) => [`src/mod0${n}.js`, MODULE(n)])),
    ...files,
  };
  const p = makeProject(all);
  for (const f of Object.keys(all)) if (f.endsWith('.sh')) chmodSync(join(p.dir, f), 0o755);
  return p;
}

const everyEvent = (command: string) => Object.fromEntries(ALL_EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command }] }]]));

async function run(
  p: { dir: string; home: string },
  steps: Step[],
  args: string[],
  prompt = 'Inspect the project, run a command and make a small edit.',
) {
  model.reset();
  model.script(...steps);
  return runCli(['-p', prompt, '--model', 'anthropic:claude-sonnet-4-5', ...args], {
    cwd: p.dir,
    home: p.home,
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
}

function captured(dir: string): Array<Record<string, any>> {
  return readFileSync(join(dir, 'hooks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

test("every event's standard input has the keys and types of Claude Code's, with absolute file paths", async () => {
  const p = project({ hooks: everyEvent('"$CLAUDE_PROJECT_DIR"/hooks/capture.sh') });
  const steps = [
    reply().tool('Read', { file_path: 'README.md' }),
    reply().tool('Grep', { pattern: 'export function', path: 'src' }),
    reply().tool('Grep', { pattern: 'TODO-0', path: 'src', output_mode: 'content' }),
    reply().tool('Bash', { command: 'echo step-03', description: 'Echo step 3' }),
    reply().tool('Read', { file_path: 'src/mod07.js' }),
    reply().tool('Edit', {
      file_path: 'src/mod07.js',
      old_string: 'const VALUE = 7;',
      new_string: 'const VALUE = 70;',
      replace_all: false,
    }),
    reply('All steps done.'),
  ];
  const r = await run(p, steps, ['--permission-mode', 'bypass', '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /warning/, 'the "$CLAUDE_PROJECT_DIR"/… form is not reported as missing');
  const result = JSON.parse(r.stdout);
  const events = captured(p.dir);
  assert.deepEqual(
    events.map((e) => e.hook_event_name + (e.tool_name ? `:${e.tool_name}` : '')),
    [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse:Read',
      'PostToolUse:Read',
      'PreToolUse:Grep',
      'PostToolUse:Grep',
      'PreToolUse:Grep',
      'PostToolUse:Grep',
      'PreToolUse:Bash',
      'PostToolUse:Bash',
      'PreToolUse:Read',
      'PostToolUse:Read',
      'PreToolUse:Edit',
      'PostToolUse:Edit',
      'Stop',
      'SessionEnd',
    ],
  );
  const [
    start,
    submit,
    preRead,
    postRead,
    preGrepDefault,
    postGrepDefault,
    preGrepContent,
    postGrepContent,
    preBash,
    postBash,
    ,
    ,
    preEdit,
    postEdit,
    stop,
    end,
  ] = events;
  const compare: Array<[string, Record<string, any>]> = [
    ['SessionStart', start],
    ['UserPromptSubmit', submit],
    ['PreToolUse-Read', preRead],
    ['PostToolUse-Read', postRead],
    ['PreToolUse-Grep-default', preGrepDefault],
    ['PostToolUse-Grep-default', postGrepDefault],
    ['PreToolUse-Grep-content', preGrepContent],
    ['PostToolUse-Grep-content', postGrepContent],
    ['PreToolUse-Bash', preBash],
    ['PostToolUse-Bash', postBash],
    ['PreToolUse-Edit', preEdit],
    ['PostToolUse-Edit', postEdit],
    ['Stop', stop],
    ['SessionEnd', end],
  ];
  for (const [name, got] of compare)
    assert.deepEqual(shape(got), referenceShape(name), `${name}: keys and types differ from Claude Code's`);

  // Common values.
  for (const e of events) {
    assert.equal(e.session_id, result.session_id);
    assert.equal(e.cwd, p.dir);
    assert.ok(isAbsolute(e.transcript_path) && e.transcript_path.endsWith(`${result.session_id}.jsonl`), e.transcript_path);
    assert.ok(e.transcript_path.startsWith(join(p.home, '.assistant', 'projects')), e.transcript_path);
    if ('permission_mode' in e) assert.equal(e.permission_mode, 'bypassPermissions');
  }
  assert.ok(existsSync(stop.transcript_path), 'the transcript exists when hooks run');
  const promptIds = new Set(events.filter((e) => e !== start).map((e) => e.prompt_id));
  assert.equal(promptIds.size, 1, 'one prompt, one prompt_id');
  assert.match([...promptIds][0], /^[0-9a-f-]{36}$/);

  // Per-event values.
  assert.equal(start.source, 'startup');
  assert.equal(submit.prompt, 'Inspect the project, run a command and make a small edit.');
  assert.equal(preRead.tool_input.file_path, join(p.dir, 'README.md'), 'file paths are absolute in hook input');
  assert.equal(postRead.tool_response.file.filePath, join(p.dir, 'README.md'));
  // Claude Code keeps the file's last newline in `content` (and counts the empty line after it).
  assert.equal(postRead.tool_response.file.content.replace(/\n$/, ''), '# demo-project\n\nA small project used to test hooks.');
  assert.ok([3, 4].includes(postRead.tool_response.file.numLines), String(postRead.tool_response.file.numLines));
  assert.equal(preGrepDefault.tool_input.path, join(p.dir, 'src'));
  assert.equal(postGrepDefault.tool_response.mode, 'files_with_matches');
  assert.equal(postGrepDefault.tool_response.numFiles, 3);
  assert.deepEqual([...postGrepDefault.tool_response.filenames].sort(), ['src/mod01.js', 'src/mod02.js', 'src/mod07.js']);
  assert.equal(postGrepContent.tool_response.mode, 'content');
  assert.equal(postGrepContent.tool_response.numLines, 3);
  assert.match(postGrepContent.tool_response.content, /^src\/mod07\.js:5: {2}\/\/ TODO-07: handle negative input$/m);
  assert.deepEqual(preBash.tool_input, { command: 'echo step-03', description: 'Echo step 3' });
  assert.equal(preBash.tool_use_id, postBash.tool_use_id);
  assert.deepEqual(postBash.tool_response, { stdout: 'step-03', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
  assert.ok(postBash.duration_ms >= 0);
  assert.deepEqual(preEdit.tool_input, {
    file_path: join(p.dir, 'src/mod07.js'),
    old_string: 'const VALUE = 7;',
    new_string: 'const VALUE = 70;',
    replace_all: false,
  });
  assert.equal(postEdit.tool_response.filePath, join(p.dir, 'src/mod07.js'));
  assert.equal(postEdit.tool_response.originalFile, MODULE(7));
  assert.deepEqual(
    postEdit.tool_response.structuredPatch[0].lines.filter((l: string) => /^[-+]/.test(l)),
    ['-const VALUE = 7;', '+const VALUE = 70;'],
  );
  assert.equal(stop.stop_hook_active, false);
  assert.equal(stop.last_assistant_message, 'All steps done.');
  assert.equal(end.reason, 'other');
  // The ids the model used.
  const ids = model.requests.flatMap((q) => (q.answer?.toolCalls ?? []).map((c) => c.id));
  assert.deepEqual(
    [preRead, preGrepDefault, preGrepContent, preBash].map((e) => e.tool_use_id),
    ids.slice(0, 4),
  );
});

test('SessionStart source is "resume" with -c, and the session id carries over', async () => {
  const p = project({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: './hooks/capture.sh' }] }] } });
  const first = await run(p, [reply('First.')], ['--output-format', 'json'], 'one');
  assert.equal(first.code, 0, first.stderr);
  const second = await run(p, [reply('Second.')], ['-c', '--output-format', 'json'], 'two');
  assert.equal(second.code, 0, second.stderr);
  const starts = captured(p.dir);
  assert.deepEqual(
    starts.map((s) => s.source),
    ['startup', 'resume'],
  );
  const id = JSON.parse(first.stdout).session_id;
  assert.equal(JSON.parse(second.stdout).session_id, id);
  assert.deepEqual(
    starts.map((s) => s.session_id),
    [id, id],
  );
  for (const s of starts) assert.deepEqual(shape(s), referenceShape('SessionStart'));
});

test("permission_mode uses Claude Code's names for each mode", async () => {
  const p = project({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: './hooks/capture.sh' }] }] } });
  const modes: Array<[string, string]> = [
    ['normal', 'default'],
    ['plan', 'plan'],
    ['auto-accept', 'acceptEdits'],
    ['bypass', 'bypassPermissions'],
  ];
  for (const [mode] of modes) {
    const r = await run(p, [reply('ok')], ['--permission-mode', mode]);
    assert.equal(r.code, 0, r.stderr);
  }
  assert.deepEqual(
    captured(p.dir).map((e) => e.permission_mode),
    modes.map(([, claude]) => claude),
  );
});

function envBlocks(dir: string): Array<Record<string, string>> {
  return readFileSync(join(dir, 'env.log'), 'utf8')
    .split('--\n')
    .filter((b) => b.trim())
    .map((b) =>
      Object.fromEntries(
        b
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      ),
    );
}

test('hooks run in the project root with the ASSISTANT_*, CLAUDE_PROJECT_DIR and settings env variables', async () => {
  const p = project({ env: { MY_SETTING: 'from-settings' }, hooks: everyEvent('./hooks/env.sh') }, { 'src/a.js': 'const a = 1;\n' });
  const steps = [
    reply().tool('Bash', { command: 'cd src && pwd' }),
    reply().tool('Read', { file_path: 'src/a.js' }),
    reply().tool('Edit', { file_path: 'src/a.js', old_string: 'const a = 1;', new_string: 'const a = 2;' }),
    reply().tool('Write', { file_path: join('src', 'b.js'), content: 'const b = 1;\n' }),
    reply().tool('Bash', { command: 'pwd' }),
    reply('Done.'),
  ];
  const r = await run(p, steps, ['--permission-mode', 'bypass', '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const session = JSON.parse(r.stdout).session_id;
  assert.equal(readFileSync(join(p.dir, 'src/a.js'), 'utf8'), 'const a = 2;\n');
  const blocks = envBlocks(p.dir);
  assert.deepEqual(
    blocks.map((b) => `${b.event}:${b.tool}`),
    [
      'SessionStart:unset',
      'UserPromptSubmit:unset',
      'PreToolUse:Bash',
      'PostToolUse:Bash',
      'PreToolUse:Read',
      'PostToolUse:Read',
      'PreToolUse:Edit',
      'PostToolUse:Edit',
      'PreToolUse:Write',
      'PostToolUse:Write',
      'PreToolUse:Bash',
      'PostToolUse:Bash',
      'Stop:unset',
      'SessionEnd:unset',
    ],
  );
  for (const b of blocks) {
    assert.equal(b.pwd, p.dir, `${b.event}: hooks run in the project root, even after the model's "cd src"`);
    assert.equal(b.project, p.dir);
    assert.equal(b.claude, p.dir);
    assert.equal(b.session, session);
    assert.equal(b.setting, 'from-settings');
  }
  const file = (event: string, tool: string) => blocks.filter((b) => b.event === event && b.tool === tool).map((b) => b.file);
  assert.deepEqual(file('PreToolUse', 'Read'), [join(p.dir, 'src/a.js')]);
  assert.deepEqual(file('PostToolUse', 'Edit'), [join(p.dir, 'src/a.js')]);
  assert.deepEqual(file('PreToolUse', 'Write'), [join(p.dir, 'src/b.js')]);
  assert.deepEqual(file('PreToolUse', 'Bash'), ['unset', 'unset'], 'Bash concerns no file');
  assert.equal(blocks.find((b) => b.event === 'Stop')!.file, 'unset');
  // The model's shell kept its directory: the second Bash ran in src.
  assert.match(JSON.stringify(model.requests[5].body.messages.at(-1)), new RegExp(`${join(p.dir, 'src').replace(/[/.]/g, '\\$&')}`));
});

test("the settings env reaches hooks but a hook cannot change the assistant's own variables", async () => {
  const p = project({
    env: { MY_SETTING: 'from-settings', ASSISTANT_PROJECT_DIR: '/elsewhere', CLAUDE_PROJECT_DIR: '/elsewhere' },
    hooks: { SessionStart: [{ hooks: [{ type: 'command', command: './hooks/env.sh' }] }] },
  });
  const r = await run(p, [reply('ok')], []);
  assert.equal(r.code, 0, r.stderr);
  const [b] = envBlocks(p.dir);
  assert.equal(b.setting, 'from-settings');
  assert.equal(b.project, p.dir, 'ASSISTANT_PROJECT_DIR is the project, whatever the settings say');
  assert.equal(b.claude, p.dir);
});
