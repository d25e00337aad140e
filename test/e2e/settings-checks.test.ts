/**
 * Settings checks through the built CLI (`npm run build` first): JSON syntax errors at their real
 * position, unknown keys below the top level, an empty file, rule locations and unknown tools,
 * a swallowed prompt, and doctor's options (docs/configuration.md).
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const run = (files: Record<string, string>, args: string[] = ['-p', 'hi']) => {
  const { dir, home } = makeProject(files);
  model.reset();
  model.script(reply('Fine.'));
  return runCli(args, { cwd: dir, home, env: env() }).then((r) => ({ ...r, file: join(dir, '.assistant/settings.json') }));
};

test('a comment, single quotes, a duplicate "permissions": exit 2 at the offending character, with the dedicated fix', async () => {
  const c = await run({ '.assistant/settings.json': '// my settings\n{}' });
  assert.equal(c.code, 2);
  assert.ok(c.stderr.includes(`${c.file}:1:1: not valid JSON: a comment`), c.stderr);
  assert.match(c.stderr, /fix: JSON allows no comments/);
  assert.equal(model.requests.length, 0, 'nothing ran');
  const q = await run({ '.assistant/settings.json': '{\n  "model": \'x\'\n}\n' });
  assert.equal(q.code, 2);
  assert.ok(q.stderr.includes(`${q.file}:2:12: not valid JSON: a string in single quotes`), q.stderr);
  // A second "permissions" would drop the first one's deny rules: exit 2 with both lines.
  const dup = await run({
    '.assistant/settings.json': '{\n  "permissions": {"deny": ["Bash"]},\n  "permissions": {"allow": ["Read"]}\n}\n',
  });
  assert.equal(dup.code, 2);
  assert.ok(dup.stderr.includes(`${dup.file}:3:3: "permissions" is written twice in the same object (lines 2 and 3)`), dup.stderr);
  assert.equal(model.requests.length, 0, 'nothing ran');
});

test('a leading byte-order mark is accepted; an empty file and nested unknown keys are warnings', async () => {
  const bom = await run({ '.assistant/settings.json': '\uFEFF{"permissions":{"allow":["Read"]}}' });
  assert.equal(bom.code, 0, bom.stderr);
  assert.equal(bom.stdout, 'Fine.\n');
  const empty = await run({ '.assistant/settings.json': '' });
  assert.equal(empty.code, 0, empty.stderr);
  assert.ok(empty.stderr.includes(`${empty.file}: the file is empty and is read as {}`), empty.stderr);
  const typo = await run({ '.assistant/settings.json': '{\n  "permissions": {\n    "denny": ["Bash"]\n  }\n}\n' });
  assert.equal(typo.code, 0, typo.stderr);
  assert.ok(typo.stderr.includes(`${typo.file}:3:5: unknown key "permissions.denny" is ignored (did you mean "deny"?)`), typo.stderr);
});

test('a malformed rule names file, line and column (exit 2); an unknown tool is a warning', async () => {
  const bad = await run({ '.assistant/settings.json': '{\n  "permissions": {\n    "allow": ["Bash(touch"]\n  }\n}\n' });
  assert.equal(bad.code, 2);
  assert.ok(bad.stderr.includes(`Bad permission rules:\n  ${bad.file}:3:15: "Bash(touch" is not a rule`), bad.stderr);
  const frob = await run({}, ['-p', 'hi', '--allowed-tools', 'Frob']);
  assert.equal(frob.code, 0, frob.stderr);
  assert.match(
    frob.stderr,
    /--allowed-tools: rule "Frob" names no tool, so it never matches; tools: Read, Write, Edit, Bash, Grep, Glob, LS/,
  );
});

test('a prompt swallowed by --allowed-tools is exit 2 with the way out', async () => {
  const r = await run({}, ['-p', '--allowed-tools', 'Read', 'fix the bug']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--allowed-tools "fix the bug": this looks like your prompt/);
  assert.match(r.stderr, /--allowed-tools Read -- "fix the bug"/);
  const ok = await run({}, ['-p', '--allowed-tools', 'Read', '--', 'fix the bug']);
  assert.equal(ok.code, 0, ok.stderr);
});

test('doctor: a bad rule is a problem (exit 1); unknown options exit 2; --settings after other options is read', async () => {
  const bad = await run({ '.assistant/settings.json': '{"permissions":{"allow":["Bash(touch"]}}' }, ['doctor']);
  assert.equal(bad.code, 1, bad.stdout);
  assert.match(bad.stdout, /✗ permission rule: .*settings\.json:1:26: "Bash\(touch" is not a rule/);
  assert.match(bad.stdout, /✓ provider: anthropic:/);
  const frob = await run({}, ['doctor', '--frob']);
  assert.equal(frob.code, 2);
  assert.match(frob.stderr, /unknown option '--frob'/);
  const late = await run({ 'bad.json': '{,}' }, ['doctor', '--model', 'anthropic:claude-sonnet-4-5', '--settings', 'bad.json']);
  assert.equal(late.code, 1);
  assert.match(late.stdout, /✗ .*bad\.json:1:2: not valid JSON/);
});
