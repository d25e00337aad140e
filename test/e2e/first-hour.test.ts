import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

/** A replay file in `dir` whose first turn makes these calls and whose second answers `answer`. */
function replay(dir: string, calls: Array<{ name: string; input: Record<string, unknown> }>, answer = 'Done.'): string {
  const file = join(dir, 'replay.json');
  writeFileSync(file, JSON.stringify({ turns: [{ tool_calls: calls }, { text: answer }] }));
  return `replay:${file}`;
}

test('a headless text run names each call on stderr in one line and ends with what was refused and how to allow it', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'x\n' });
  const model = replay(dir, [
    { name: 'LS', input: { path: '.' } },
    { name: 'Read', input: { file_path: '../../../../../../etc/hostname' } },
    // Read first: an Edit of a file never read fails its own check before any question (docs/decisions.md).
    { name: 'Read', input: { file_path: 'a.txt' } },
    { name: 'Edit', input: { file_path: 'a.txt', old_string: 'x', new_string: 'y' } },
    { name: 'Bash', input: { command: 'npm test' } },
  ]);
  const r = await runCli(['-p', 'go', '--model', model], { cwd: dir, home });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Done.\n', 'stdout holds the answer only');
  const lines = r.stderr.trim().split('\n');
  assert.ok(lines.includes('● Read(/etc/hostname): refused'), 'a path outside the project is shown absolute, not as ../../..');
  assert.ok(
    lines.some((l) => /^● LS\(\.\): /.test(l)),
    r.stderr,
  );
  assert.ok(lines.includes('● Update(a.txt): refused'));
  assert.ok(lines.includes('● Bash(npm test): refused'));
  const summary = lines.at(-1)!;
  assert.match(summary, /^3 tool calls were refused \(Read, Edit, Bash\): a headless run cannot ask\./);
  assert.match(summary, /--permission-mode auto-accept/);
  assert.match(summary, /--allowed-tools "Bash\(npm:\*\)"/);
  assert.match(summary, /--add-dir \/etc/);

  // --verbose: each result and refusal under its own call, even when read-only calls ran together.
  const v = await runCli(['-p', 'go', '--model', model, '--verbose'], { cwd: dir, home });
  const vl = v.stderr.split('\n');
  for (const [i, l] of vl.entries()) {
    if (!l.startsWith('  ⎿ ')) continue;
    const call = vl
      .slice(0, i)
      .reverse()
      .find((x) => x.startsWith('● '))!;
    if (l.includes('refused: Permission to use Read')) assert.match(call, /^● Read\(/);
    if (l.includes('Listed')) assert.match(call, /^● LS\(/);
    if (l.includes('Permission to use Edit')) assert.match(call, /^● Edit\(/);
  }
  assert.ok(vl.some((l) => l.includes('refused: Permission to use Edit')));
});

test('flags a new user gets wrong: -p -r "prompt", an unknown -r id, JSON output of a configuration error, /status', async () => {
  const { dir, home } = makeProject();
  const swallowed = await runCli(['-p', '-r', 'why does the test fail'], { cwd: dir, home });
  assert.equal(swallowed.code, 2);
  assert.match(swallowed.stderr, /--resume needs a session id/, 'the prompt is not taken as a session id');

  const unknown = await runCli(['-p', 'hi', '-r', '0123abcd'], { cwd: dir, home });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /No session "0123abcd"/);

  mkdirSync(join(dir, '.assistant'));
  writeFileSync(join(dir, '.assistant', 'settings.json'), '{ "permissions": { "allow": [ } }');
  const bad = await runCli(['-p', 'hi', '--output-format', 'json', '--model', 'replay:nothing.json'], { cwd: dir, home });
  assert.equal(bad.code, 2);
  const json = JSON.parse(bad.stdout);
  assert.equal(json.type, 'result');
  assert.equal(json.is_error, true);
  assert.match(json.result, /settings\.json/);
  assert.match(bad.stderr, /settings\.json/, 'stderr still says it');

  writeFileSync(join(dir, '.assistant', 'settings.json'), '{}');
  const status = await runCli(['-p', '/status'], { cwd: dir, home, env: { ANTHROPIC_API_KEY: 'k' } });
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /^model: anthropic:claude-\S+$/m);
  assert.match(status.stdout, /^context window: \d+ tokens \(from /m);
});

test('the AGENTS.md fallback notice is shown once per file, not on every run', async () => {
  const { dir, home } = makeProject({ 'AGENTS.md': '# Agents\nUse tabs.\n' });
  const model = replay(dir, []);
  const first = await runCli(['-p', 'hi', '--model', model], { cwd: dir, home });
  assert.match(first.stderr, /No ASSISTANT\.md found; using .*AGENTS\.md instead/);
  const second = await runCli(['-p', 'hi', '--model', model], { cwd: dir, home });
  assert.equal(second.code, 0, second.stderr);
  assert.doesNotMatch(second.stderr, /AGENTS\.md/);
});

test('a resumed session remembers what was read (a file changed since must be read again); verification and hooks are in the transcript', async () => {
  const { dir, home } = makeProject({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  mkdirSync(join(dir, '.assistant'));
  writeFileSync(
    join(dir, '.assistant', 'settings.json'),
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'true' }] }] } }),
  );
  const read = replay(
    dir,
    [
      { name: 'Read', input: { file_path: 'a.txt' } },
      { name: 'Read', input: { file_path: 'b.txt' } },
    ],
    'Read both.',
  );
  const first = await runCli(['-p', 'read them', '--model', read], { cwd: dir, home });
  assert.equal(first.code, 0, first.stderr);
  writeFileSync(join(dir, 'b.txt'), 'two, changed by someone else\n');
  const editFile = join(dir, 'edit.json');
  writeFileSync(
    editFile,
    JSON.stringify({
      turns: [
        {
          tool_calls: [
            { name: 'Edit', input: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' } },
            { name: 'Edit', input: { file_path: 'b.txt', old_string: 'two', new_string: 'TWO' } },
          ],
        },
        { text: 'Edited.' },
      ],
    }),
  );
  const second = await runCli(
    [
      '-c',
      '-p',
      'edit them',
      '--model',
      `replay:${editFile}`,
      '--permission-mode',
      'auto-accept',
      '--output-format',
      'stream-json',
      '--verify',
      'true',
    ],
    { cwd: dir, home },
  );
  assert.equal(second.code, 0, second.stderr);
  const results = second.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'user')
    .flatMap((e) => e.message.content);
  assert.equal(results[0].is_error, false, `a.txt, read in the first run, is edited: ${JSON.stringify(results[0])}`);
  assert.match(JSON.stringify(results[1]), /modified since it was last read/, 'b.txt changed on disk: read it again');
  assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'ONE\n');

  const transcript = readFileSync(JSON.parse(second.stdout.split('\n')[0]).transcript_path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const verify = transcript.find((e) => e.type === 'verify');
  assert.ok(verify, 'the verification run is recorded');
  assert.equal(verify.command, 'true');
  assert.equal(verify.passed, true);
  assert.ok(
    transcript.some((e) => e.type === 'hook' && e.event === 'PostToolUse' && e.outcome === 'ok'),
    'hook outcomes are recorded',
  );
});
