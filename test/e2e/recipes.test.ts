import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, userTexts, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { CLI, cleanEnv, runCli } from './cli.ts';
import { spawn } from 'node:child_process';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});
const env = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];
const PROJECT = { 'src/auth.ts': 'export function login(user: string) {\n  return user.length > 0;\n}\n' };

test('recipes lists the library by category; show and --json describe one', async () => {
  const { dir, home } = makeProject({});
  const list = await runCli(['recipes'], { cwd: dir, home });
  assert.equal(list.code, 0, list.stderr);
  for (const cat of [
    'Project setup',
    'Debugging',
    'Refactor and migration',
    'Review and release',
    'Documentation',
    'Testing',
    'Security',
    'Community',
  ])
    assert.match(list.stdout, new RegExp(`^${cat}$`, 'm'));
  assert.equal(list.stdout.match(/^ +\d+ {2}/gm)?.length, 40);
  assert.deepEqual(
    list.stdout.split('\n').filter((l) => l.length > 80),
    [],
    'fits 80 columns',
  );
  const show = await runCli(['recipes', 'show', '4'], { cwd: dir, home });
  assert.match(show.stdout, /^Recipe 4: /);
  assert.match(show.stdout, /Plan Mode/);
  assert.match(show.stdout, /Slots: \[module name\], \[symptom\] \(optional\), @<path> \(--file\)/);
  const json = JSON.parse((await runCli(['recipes', 'show', '4', '--json'], { cwd: dir, home })).stdout);
  assert.deepEqual([json.number, json.mode, json.slots, json.fileSlot], [4, 'plan', ['module name', 'symptom'], true]);
  const all = JSON.parse((await runCli(['recipes', '--json'], { cwd: dir, home })).stdout);
  assert.equal(all.length, 40);
  const bad = await runCli(['recipes', 'show', '41'], { cwd: dir, home });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /no recipe "41"/);
});

test('recipes use fills the slots; a missing slot is an error naming it', async () => {
  const { dir, home } = makeProject(PROJECT);
  const missing = await runCli(['recipes', 'use', '4', '--set', 'symptom=login fails'], { cwd: dir, home });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing slot \[module name\]/);
  assert.match(missing.stderr, /--file PATH/);
  assert.equal(missing.stdout, '');
  const typo = await runCli(
    ['recipes', 'use', '4', '--set', 'module name=a', '--set', 'symptom=b', '--set', 'sympton=c', '--file', 'x.ts'],
    { cwd: dir, home },
  );
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /has no slot \[sympton\]/);
  // SPEC §7's own example; the optional [symptom] gets its default.
  const spec = await runCli(['recipes', 'use', '4', '--set', 'module name=auth', '--file', 'src/auth.ts'], { cwd: dir, home });
  assert.equal(spec.code, 0, spec.stderr);
  assert.match(spec.stdout, /Module: auth \(@src\/auth\.ts\)\nSymptom: not given: reproduce the failure first/);
  const ok = await runCli(
    ['recipes', 'use', '4', '--set', 'module name=auth', '--set', 'Symptom=HTTP 500 on POST /login', '--file', 'src/auth.ts', '--json'],
    { cwd: dir, home },
  );
  assert.equal(ok.code, 0, ok.stderr);
  const j = JSON.parse(ok.stdout);
  assert.equal(j.mode, 'plan');
  assert.match(j.prompt, /Module: auth \(@src\/auth\.ts\)\nSymptom: HTTP 500 on POST \/login/);
  assert.doesNotMatch(j.prompt, /\[[a-z ]+\]|@<path>/);
});

test('templates list and fill', async () => {
  const { dir, home } = makeProject(PROJECT);
  const list = await runCli(['templates'], { cwd: dir, home });
  assert.equal(list.stdout.match(/^ +\d+ {2}\w/gm)?.length, 10);
  assert.deepEqual(
    list.stdout.split('\n').filter((l) => l.length > 80),
    [],
    'fits 80 columns',
  );
  const show = await runCli(['templates', 'show', 'translate'], { cwd: dir, home });
  assert.match(show.stdout, /^Template 7: translate/);
  assert.match(show.stdout, /Slots: \[target language\], @<path>/);
  const t = await runCli(['templates', 'use', 'explain', '--file', 'src/auth.ts'], { cwd: dir, home });
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /^Explain what @src\/auth\.ts does/);
  const nofile = await runCli(['templates', 'use', 'bugs'], { cwd: dir, home });
  assert.equal(nofile.code, 2);
  assert.match(nofile.stderr, /missing file for @<path>/);
});

test('recipes save writes a command that /NAME then runs with its arguments', async () => {
  const { dir, home } = makeProject(PROJECT);
  const s = await runCli(['recipes', 'save', '4', '--as', 'rca'], { cwd: dir, home });
  assert.equal(s.code, 0, s.stderr);
  const file = join(dir, '.assistant/commands/rca.md');
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^---\ndescription: "Recipe 4: /);
  assert.match(text, /argument-hint: "\[module name\] \[path\]"/);
  assert.match(text, /Module: \$1 \(@\$2\)\nSymptom: not given/);
  assert.equal((await runCli(['recipes', 'save', '4', '--as', 'rca'], { cwd: dir, home })).code, 2, 'no silent overwrite');
  model.reset();
  model.script(reply('The cause is the empty-name check.'));
  const r = await runCli(['-p', '/rca auth src/auth.ts', '--permission-mode', 'plan', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'The cause is the empty-name check.\n');
  const sent = userTexts(model.requests[0]).join('\n');
  assert.match(sent, /Module: auth \(@src\/auth\.ts\)/);
  assert.match(sent, /return user\.length > 0/, 'the @path was attached');
});

test('recipes run: a Plan Mode recipe stops at plan.md and says how to execute it', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(
    reply().tool('Edit', { file_path: 'src/auth.ts', old_string: '> 0', new_string: '> 1' }),
    reply().tool('Write', { file_path: 'plan.md', content: '# Plan\n- Batch 1 | status: todo | files: src/auth.ts\n' }),
    reply('The plan is in plan.md.'),
  );
  const r = await runCli(['recipes', 'run', '4', '--set', 'module name=auth', '--set', 'symptom=500', '--file', 'src/auth.ts', ...MODEL], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'The plan is in plan.md.\n');
  assert.match(r.stderr, /recipe 4: .*\(Plan Mode\)/);
  assert.match(
    r.stderr,
    /assistant -c -p "Execute the plan in plan\.md" --permission-mode auto-accept/,
    'a -p run cannot ask: the hint names a mode that edits',
  );
  assert.equal(readFileSync(join(dir, 'src/auth.ts'), 'utf8'), PROJECT['src/auth.ts'], 'Plan Mode refused the edit');
  assert.ok(existsSync(join(dir, 'plan.md')));
  assert.equal(model.requests.length, 3);
});

test('recipes use --file with a file that does not exist: exit 2, no prompt printed', async () => {
  const { dir, home } = makeProject(PROJECT);
  const r = await runCli(['recipes', 'use', '4', '--set', 'module name=auth', '--file', 'src/nosuch.js'], { cwd: dir, home });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /--file src\/nosuch\.js: no such file or directory/);
  const ok = await runCli(['recipes', 'use', '4', '--set', 'module name=auth', '--file', 'src/auth.ts:1-2'], { cwd: dir, home });
  assert.equal(ok.code, 0, ok.stderr);
});

test('recipes run --yes executes the plan in the same session, in --execute-mode', async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(
    reply().tool('Write', { file_path: 'plan.md', content: '# Plan\nchange > 0 to > 1\n' }),
    reply('Plan ready.'),
    reply().tool('Read', { file_path: 'src/auth.ts' }),
    reply().tool('Edit', { file_path: 'src/auth.ts', old_string: '> 0', new_string: '> 1' }),
    reply('Done.'),
  );
  const r = await runCli(
    ['recipes', 'run', '4', '--set', 'module name=a', '--file', 'src/auth.ts', '--yes', '--execute-mode', 'auto-accept', ...MODEL],
    { cwd: dir, home, env: env() },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Plan ready.\nDone.\n');
  assert.match(readFileSync(join(dir, 'src/auth.ts'), 'utf8'), /> 1/);
  assert.match(userTexts(model.requests[2]).join('\n'), /plan in plan\.md is approved/);
  assert.ok(model.requests[2].body.messages.length > 2, 'the execution continues the planning conversation');
});

test('recipes chain passes plan.md from 8 to 9; missing slots are listed before anything runs', async () => {
  const { dir, home } = makeProject(PROJECT);
  const bad = await runCli(['recipes', 'chain', '8', '9', '--file', 'src/auth.ts', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Nothing was run/);
  assert.match(bad.stderr, /recipe 8: missing/);
  assert.match(bad.stderr, /recipe 9: missing/);
  const r8 = await runCli(['recipes', 'show', '8', '--json'], { cwd: dir, home });
  const r9 = await runCli(['recipes', 'show', '9', '--json'], { cwd: dir, home });
  const slots = [...new Set([...JSON.parse(r8.stdout).slots, ...JSON.parse(r9.stdout).slots])];
  const sets = slots.flatMap((s) => ['--set', `${s}=${s === 'batch number' ? '1' : s === 'test command' ? 'npm test' : `value of ${s}`}`]);
  model.reset();
  model.script(
    reply().tool('Write', {
      file_path: 'plan.md',
      content: '# Impact\n- Batch 1 | status: todo | files: src/auth.ts | change: rename login\n',
    }),
    reply('Assessment written.'),
    reply('Batch 1 done.'),
  );
  const r = await runCli(['recipes', 'chain', '8', '9', ...sets, '--file', 'src/auth.ts', '--yes', ...MODEL], {
    cwd: dir,
    home,
    env: env(),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /recipe 8: .*\(Plan Mode\)[\s\S]*recipe 9: .*\(Normal\)/);
  const step9 = userTexts(model.requests.at(-1)!).join('\n');
  assert.match(step9, /Batch 1 \| status: todo \| files: src\/auth\.ts/, 'recipe 9 got plan.md, written by recipe 8');
});

test('advise, rules and prompt lint from the command line', async () => {
  const { dir, home } = makeProject({});
  const a = await runCli(['advise', 'fix a typo in the README', '--json'], { cwd: dir, home });
  const j = JSON.parse(a.stdout);
  assert.deepEqual([j.shape, j.mode], ['template', 'auto-accept']);
  const b = await runCli(['advise', 'migrate the billing service to the new database', '--minutes', '120', '--risk', 'high'], {
    cwd: dir,
    home,
  });
  assert.match(b.stdout, /^Use Plan Mode first \(plan\.md\), then the recipe in steps/);
  assert.match(b.stdout, /human review/);
  const bad = await runCli(['prompt', 'lint', 'Fix the login bug'], { cwd: dir, home });
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /Rule 1: state the concrete problem/);
  const good = await runCli(['prompt', 'lint'], { cwd: dir, home, stdin: 'Explain what @src/a.ts does, step by step.' });
  assert.equal(good.code, 0, good.stdout);
  const js = JSON.parse((await runCli(['prompt', 'lint', '--json', "It's bad, try again."], { cwd: dir, home })).stdout);
  assert.deepEqual(
    js.findings.map((f: { id: string }) => f.id),
    ['vague-feedback'],
  );
  // The rules the recipe notes cite ("rule 16") are published, with what the lint checks.
  const rules = await runCli(['rules'], { cwd: dir, home });
  assert.equal(rules.code, 0, rules.stderr);
  assert.match(rules.stdout, /^16\. Step-by-step reasoning for complex diagnosis\.\n {4}checked by prompt lint: no-step-by-step/m);
  assert.match(rules.stdout, /No constraints +State conventions in the convention file or prompt +no-constraints/);
  const one = JSON.parse((await runCli(['rules', '18', '--json'], { cwd: dir, home })).stdout);
  assert.deepEqual([one.number, one.checks], [18, []]);
  assert.match(one.judgement, /catalogue/);
});

test("/recipes and /recipe N inside a session: list, show, fill and run in the recipe's mode", async () => {
  const { dir, home } = makeProject(PROJECT);
  const list = await runCli(['-p', '/recipes', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^Debugging$/m);
  const show = await runCli(['-p', '/recipe 4', ...MODEL], { cwd: dir, home, env: env() });
  assert.match(show.stdout, /Use: \/recipe 4 --set "module name=…" --file PATH/);
  const missing = await runCli(['-p', '/recipe 4 --set "symptom=x" src/a.ts', ...MODEL], { cwd: dir, home, env: env() });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing slot \[module name\]/);
  model.reset();
  model.script(reply('Analysed.'));
  const run = await runCli(
    ['-p', '/recipe 4 "module name=auth" symptom=500 src/auth.ts', '--output-format', 'stream-json', '--verbose', ...MODEL],
    { cwd: dir, home, env: env() },
  );
  assert.equal(run.code, 0, run.stderr);
  const init = JSON.parse(run.stdout.split('\n')[0]);
  assert.equal(init.permissionMode, 'plan');
  assert.match(userTexts(model.requests[0]).join('\n'), /Module: auth \(@src\/auth\.ts\)\nSymptom: 500/);
});

test('a chain run from a script goes on past its Plan Mode step: naming the chain was the decision', async () => {
  const { dir, home } = makeProject(PROJECT);
  const r8 = JSON.parse((await runCli(['recipes', 'show', '8', '--json'], { cwd: dir, home })).stdout);
  model.reset();
  model.script(
    reply().tool('Write', { file_path: 'plan.md', content: '# Impact\n- Batch 1 | status: todo\n' }),
    reply('Assessment written.'),
    reply('Batch 1 done.'),
  );
  const r = await runCli(
    [
      'recipes',
      'chain',
      '8',
      '9',
      ...r8.slots.flatMap((s: string) => ['--set', `${s}=x`]),
      '--set',
      'batch number=1',
      '--file',
      'src/auth.ts',
      ...MODEL,
    ],
    { cwd: dir, home, env: env() },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(model.requests.length, 3, 'recipe 9 ran after recipe 8');
  assert.equal(r.stdout, 'Assessment written.\nBatch 1 done.\n');
});

test('function references, high-risk advice, and usage errors', async () => {
  const { dir, home } = makeProject(PROJECT);
  const t = await runCli(['templates', 'use', 'explain', '--file', 'src/auth.ts:login'], { cwd: dir, home });
  assert.match(t.stdout, /^Explain what @src\/auth\.ts \(the function login\) does/);
  const lines = await runCli(['templates', 'use', 'explain', '--file', 'src/auth.ts:10-20'], { cwd: dir, home });
  assert.match(lines.stdout, /^Explain what @src\/auth\.ts:10-20 does/);
  const a = JSON.parse(
    (await runCli(['advise', 'fix a typo in the auth error message', '--minutes', '2', '--risk', 'high', '--json'], { cwd: dir, home }))
      .stdout,
  );
  assert.deepEqual([a.shape, a.mode, a.humanReview], ['recipe', 'plan', true]);
  assert.equal((await runCli(['prompt'], { cwd: dir, home })).code, 2);
  const help = await runCli(['--help'], { cwd: dir, home });
  assert.match(help.stdout, /advise "task"/);
  assert.match(help.stdout, /prompt lint/);
});

test('large output through a slow pipe arrives whole before the CLI exits', async () => {
  const { dir, home } = makeProject({});
  const direct = await runCli(['recipes', '--json'], { cwd: dir, home });
  assert.ok(direct.stdout.length > 65536, 'the output is larger than a pipe buffer');
  const piped = await new Promise<string>((res, rej) => {
    const child = spawn('bash', ['-c', `"${process.execPath}" "${CLI}" recipes --json | (sleep 0.5; wc -c)`], {
      cwd: dir,
      env: cleanEnv(home),
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', () => res(out.trim()));
    child.on('error', rej);
  });
  assert.equal(Number(piped), Buffer.byteLength(direct.stdout));
});

test("templates run fills the template and runs it in the template's mode", async () => {
  const { dir, home } = makeProject(PROJECT);
  model.reset();
  model.script(reply('It checks that the name is not empty.'));
  const r = await runCli(
    ['templates', 'run', 'explain', '--file', 'src/auth.ts:login', '--output-format', 'stream-json', '--verbose', ...MODEL],
    { cwd: dir, home, env: env() },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /── template explain: Explain code \(Plan Mode\)/);
  assert.equal(JSON.parse(r.stdout.split('\n')[0]).permissionMode, 'plan');
  assert.match(userTexts(model.requests[0]).join('\n'), /Explain what @src\/auth\.ts \(the function login\) does/);
  assert.match(userTexts(model.requests[0]).join('\n'), /return user\.length > 0/, 'the file is attached');
});
