import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

/** Audit 4's repros against the built CLI: F1 (!`cmd`), F2 (Grep), F3 (cd), F4 (symlinks). */

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const settings = (permissions: object) => JSON.stringify({ permissions });

test("a custom command's !`cmd` obeys settings deny rules: refused (exit 2), nothing runs, nothing is sent", async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': settings({ deny: ['Read(.env)', 'Bash(rm:*)'] }),
    '.assistant/commands/leak.md': '---\nallowed-tools: Bash(cat:*)\n---\nOut: !`cat .env`\n',
    '.assistant/commands/rmit.md': '---\nallowed-tools: Bash(rm:*)\n---\nOut: !`rm note.txt`\n',
    '.assistant/commands/argx.md': '---\nallowed-tools: Bash(cat:*)\n---\nOut: !`cat $1`\n',
    '.env': 'SECRET\n',
    'note.txt': 'hi\n',
  });
  model.reset();
  for (const prompt of ['/leak', '/rmit', '/argx .env']) {
    const r = await runCli(['-p', prompt, ...MODEL], { cwd: dir, home, env: env() });
    assert.equal(r.code, 2, `${prompt}: ${r.stderr}`);
    assert.match(r.stderr, /denied by the rule|which the rule .* denies/);
    assert.match(r.stderr, /settings\.json/);
  }
  assert.equal(model.requests.length, 0);
  assert.ok(existsSync(join(dir, 'note.txt')));
});

test("a custom command's !`cmd` obeys Plan Mode and --disallowed-tools", async () => {
  const { dir, home } = makeProject({
    '.assistant/commands/rmit.md': '---\nallowed-tools: Bash(rm:*), Bash(cat:*)\n---\nOut: !`rm note.txt`\n',
    '.assistant/commands/show.md': '---\nallowed-tools: Bash(cat:*)\n---\nOut: !`cat note.txt`\n',
    'note.txt': 'hi\n',
  });
  model.reset();
  const plan = await runCli(['-p', '/rmit', '--permission-mode', 'plan', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(plan.code, 2, plan.stderr);
  assert.match(plan.stderr, /Plan Mode/);
  const flag = await runCli(['-p', '/show', '--disallowed-tools', 'Bash(cat:*)', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(flag.code, 2, flag.stderr);
  assert.match(flag.stderr, /"Bash\(cat:\*\)" \(--disallowed-tools\)/);
  assert.ok(existsSync(join(dir, 'note.txt')));
  assert.equal(model.requests.length, 0);
});

test('Grep never returns lines of a Read-denied file; Glob does not list it', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': settings({ deny: ['Read(.env)'] }),
    '.env': 'KEY=SECRET\n',
    'a.txt': 'no\n',
  });
  model.reset();
  model.script(
    reply()
      .tool('Grep', { pattern: 'SECRET', path: '.', output_mode: 'content' })
      .tool('Grep', { pattern: 'SECRET', output_mode: 'content', glob: '*.env*' })
      .tool('Glob', { pattern: '**/.env' }),
    reply().text('Done.'),
  );
  const r = await runCli(['-p', 'go', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  const results = lastToolResults(model.requests[1]);
  assert.equal(results.length, 3);
  for (const x of results) assert.doesNotMatch(x.content, /SECRET|\.env/);
});

test("Bash path checks follow the shell's working directory, from an earlier call and within a command", async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': settings({
      deny: ['Edit(secret/**)', 'Read(/config/prod.json)'],
      allow: ['Bash(cd:*)', 'Bash(echo:*)', 'Bash(cat:*)'],
    }),
    'secret/a': 'orig\n',
    'config/prod.json': '{"pw":"SECRET"}\n',
  });
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'cd secret' }),
    reply().tool('Bash', { command: 'echo pwned > a' }),
    reply().tool('Bash', { command: 'cd ../config' }),
    reply().tool('Bash', { command: 'cat prod.json' }),
    reply().tool('Bash', { command: 'cd ..' }),
    reply().tool('Bash', { command: 'cd config && cat prod.json' }),
    reply().text('Done.'),
  );
  const r = await runCli(['-p', 'go', '--permission-mode', 'auto-accept', '--output-format', 'json', ...MODEL], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'secret/a'), 'utf8'), 'orig\n');
  const all = model.requests
    .slice(1)
    .flatMap((q) => lastToolResults(q))
    .map((x) => x.content)
    .join('\n');
  assert.doesNotMatch(all, /SECRET/);
  assert.match(all, /"Edit\(secret\/\*\*\)"/);
  assert.match(all, /"Read\(\/config\/prod\.json\)"/);
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 3);
});

test('symlinks do not get past Edit and Read deny rules, in bypass mode too', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': settings({ deny: ['Edit(secret/**)', 'Read(.env)'] }),
    'secret/f': 'orig\n',
    '.env': 'KEY=SECRET\n',
  });
  symlinkSync('secret', join(dir, 'link'));
  symlinkSync('secret/f', join(dir, 'linkfile2'));
  symlinkSync('.env', join(dir, 'envlink'));
  model.reset();
  model.script(
    reply()
      .tool('Write', { file_path: 'link/d', content: 'pwned' })
      .tool('Read', { file_path: 'envlink' })
      .tool('Bash', { command: 'cat envlink' })
      .tool('Bash', { command: 'echo x > linkfile2' })
      .tool('Bash', { command: 'cat .e*' }),
    reply().text('Done.'),
  );
  const r = await runCli(['-p', 'go', '--permission-mode', 'bypass', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(dir, 'secret/d')));
  assert.equal(readFileSync(join(dir, 'secret/f'), 'utf8'), 'orig\n');
  const results = lastToolResults(model.requests[1]);
  assert.equal(results.length, 5);
  for (const x of results) assert.doesNotMatch(x.content, /KEY=SECRET/);
  for (const x of results) assert.match(x.content, /denie[sd]/);
});

test('a Bash command that would change the settings file asks (headless: refused) even under an allow rule', async () => {
  const original = settings({ allow: ['Bash(rm:*)', 'Bash(sed:*)'] });
  const { dir, home } = makeProject({ '.assistant/settings.json': original });
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'rm .assistant/settings.json' }).tool('Bash', { command: 'sed -i s/rm/ls/ .assistant/settings.json' }),
    reply().text('Done.'),
  );
  const r = await runCli(['-p', 'go', '--output-format', 'json', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).permission_denials.length, 2);
  assert.equal(readFileSync(join(dir, '.assistant/settings.json'), 'utf8'), original);
  assert.match(JSON.stringify(lastToolResults(model.requests[1])), /always needs the user's approval/);
});
