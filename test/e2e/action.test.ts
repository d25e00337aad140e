import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { startFakeModel, reply, userTexts, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { cleanEnv } from './cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'action/run.mjs');
let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

// ── action.yml against GitHub's action metadata syntax (docs.github.com: "Metadata syntax for GitHub Actions") ──

const Input = z
  .object({
    description: z.string().min(1),
    required: z.boolean().optional(),
    default: z.string().optional(),
    deprecationMessage: z.string().optional(),
  })
  .strict();
const Output = z.object({ description: z.string().min(1), value: z.string().min(1) }).strict();
const Step = z
  .object({
    name: z.string().optional(),
    id: z
      .string()
      .regex(/^[A-Za-z_][\w-]*$/)
      .optional(),
    if: z.string().optional(),
    run: z.string().optional(),
    shell: z.string().optional(),
    uses: z.string().optional(),
    with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    env: z.record(z.string(), z.string()).optional(),
    'working-directory': z.string().optional(),
    'continue-on-error': z.boolean().optional(),
  })
  .strict()
  .refine((s) => (s.run !== undefined) !== (s.uses !== undefined), 'a step has run or uses')
  .refine((s) => s.run === undefined || s.shell !== undefined, 'a composite run step needs shell');
const ActionSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().min(1),
    author: z.string().optional(),
    branding: z
      .object({ icon: z.string(), color: z.enum(['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']) })
      .strict()
      .optional(),
    inputs: z.record(z.string().regex(/^[A-Za-z_][\w-]*$/), Input),
    outputs: z.record(z.string().regex(/^[A-Za-z_][\w-]*$/), Output),
    runs: z.discriminatedUnion('using', [
      z.object({ using: z.literal('composite'), steps: z.array(Step).min(1) }).strict(),
      z.object({ using: z.enum(['node20', 'node24']), main: z.string(), pre: z.string().optional(), post: z.string().optional() }).strict(),
    ]),
  })
  .strict();

test('action.yml follows the action metadata syntax, and every name it uses is declared', () => {
  const action = ActionSchema.parse(parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')));
  assert.equal(action.runs.using, 'composite');
  const steps = action.runs.using === 'composite' ? action.runs.steps : [];
  const ids = new Set(steps.map((s) => s.id).filter(Boolean));
  const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  for (const [, name] of text.matchAll(/\binputs\.([\w-]+)/g)) assert.ok(name in action.inputs, `inputs.${name} is declared`);
  for (const [name, o] of Object.entries(action.outputs)) {
    const m = /^\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}$/.exec(o.value);
    assert.ok(m && ids.has(m[1]) && m[2] === name, `output ${name} comes from a step's output of that name`);
  }
  const runEnv = steps.find((s) => s.id === 'run')!.env!;
  for (const name of Object.keys(action.inputs).filter((n) => n !== 'version')) {
    assert.equal(runEnv[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`], `\${{ inputs.${name} }}`, `${name} reaches the entry script`);
  }
  assert.ok(existsIn(steps, 'action/run.mjs'));
  for (const name of ['prompt', 'recipe', 'slots', 'model', 'allowed-tools', 'permission-mode', 'verify', 'settings'])
    assert.ok(name in action.inputs, name);
  // The example workflows use only the action's inputs.
  for (const file of ['examples/github/matrix.yml', 'examples/github/pr-review.yml']) {
    const wf = parse(readFileSync(join(ROOT, file), 'utf8'));
    assert.ok(wf.on && wf.jobs, file);
    const uses = Object.values(wf.jobs as Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown> }> }>)
      .flatMap((j) => j.steps)
      .filter((s) => s.uses?.includes('assistant-code/assistant'));
    assert.equal(uses.length, 1, file);
    for (const k of Object.keys(uses[0].with ?? {})) assert.ok(k in action.inputs, `${file}: ${k} is an input`);
  }
});

function existsIn(steps: Array<{ run?: string }>, what: string): boolean {
  return steps.some((s) => s.run?.includes(what));
}

/** Runs the entry script as the Run step does: GitHub's variables, inputs as INPUT_*. */
function runAction(inputs: Record<string, string>, extra: Record<string, string> = {}) {
  const { dir, home } = makeProject({ 'README.md': '# demo\n' });
  const summaryFile = join(home, 'summary.md');
  const outputFile = join(home, 'output.txt');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const env = cleanEnv(home, {
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: model.anthropicBaseUrl,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: dir,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    ASSISTANT_BIN: join(ROOT, 'bin/assistant.js'),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...extra,
  });
  const child = spawn(process.execPath, [ENTRY], { cwd: home, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
    summary: string;
    outputs: Record<string, string>;
    dir: string;
  }>((resolve) =>
    child.on('close', (code) => {
      const outputs: Record<string, string> = {};
      for (const m of readFileSync(outputFile, 'utf8').matchAll(/^([\w-]+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm))
        outputs[m[1]] = m[3];
      resolve({ code, stdout, stderr, summary: readFileSync(summaryFile, 'utf8'), outputs, dir });
    }),
  );
}

test('the action runs a prompt headless in the workspace: answer in the summary and outputs, exit 0', async () => {
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'pwd' }),
    reply().tool('Write', { file_path: 'x.txt', content: 'x' }),
    reply('## Findings\n\nAll good.\nSecond line.'),
  );
  const r = await runAction({
    prompt: 'check the repo',
    model: 'anthropic:claude-sonnet-4-5',
    'permission-mode': 'normal',
    'allowed-tools': 'Read,\nBash(pwd)',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(lastToolResults(model.requests[1])[0].content.trim(), r.dir, 'ran in GITHUB_WORKSPACE, allowed by the rule');
  assert.equal(r.outputs.result, '## Findings\n\nAll good.\nSecond line.');
  assert.equal(r.outputs['is-error'], 'false');
  assert.equal(r.outputs['exit-code'], '0');
  assert.equal(r.outputs['num-turns'], '3');
  assert.equal(r.outputs['permission-denials'], '1');
  assert.match(r.outputs['session-id'], /^[0-9a-f-]{36}$/);
  assert.match(r.summary, /^### assistant: prompt — ✅ done\n\n## Findings\n\nAll good\.\nSecond line\./);
  assert.match(r.summary, /3 model turns · \$\d+\.\d{4} · 1 tool call refused \(Write\) · session /);
  assert.match(r.stderr, /refused/, 'the refusal summary is in the job log');
});

test('inputs named with _ for - (as action.yml passes them) work too', async () => {
  model.reset();
  model.script(reply().tool('Write', { file_path: 'x.txt', content: 'x' }), reply('ok'));
  const r = await runAction({ prompt: 'write it', model: 'anthropic:claude-sonnet-4-5', PERMISSION_MODE: 'plan', MAX_TURNS: '5' });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.outputs['permission-denials'], '1', 'plan mode, from INPUT_PERMISSION_MODE, refused the write');
});

test('the action runs a recipe with its slots', async () => {
  model.reset();
  model.script(reply('No known vulnerabilities.'));
  const r = await runAction({ recipe: '37', slots: 'audit command=npm audit --json\n', model: 'anthropic:claude-sonnet-4-5' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(userTexts(model.requests[0]).join('\n'), /Run npm audit --json/);
  assert.equal(r.outputs.result, 'No known vulnerabilities.');
  assert.match(r.summary, /### assistant: recipe 37 — ✅ done/);
});

test('a failed run fails the step with its code, and says so in the summary', async () => {
  model.reset();
  model.script(reply().tool('Read', { file_path: 'README.md' }), reply('never'));
  const r = await runAction({ prompt: 'read it', model: 'anthropic:claude-sonnet-4-5', 'max-turns': '1' });
  assert.equal(r.code, 1);
  assert.equal(r.outputs['is-error'], 'true');
  assert.equal(r.outputs['exit-code'], '1');
  assert.match(r.summary, /❌ failed \(exit 1\)/);
  assert.match(r.outputs.result, /turn/i);
});

test('no prompt and no recipe: exit 2 with an error annotation', async () => {
  const r = await runAction({ model: 'anthropic:claude-sonnet-4-5' });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^::error title=assistant::Give the action a prompt or a recipe/m);
  assert.equal(r.outputs['exit-code'], '2');
  const bad = await runAction({ prompt: 'x', 'permission-mode': 'yolo', model: 'anthropic:claude-sonnet-4-5' });
  assert.equal(bad.code, 2, "bad configuration is the CLI's exit 2");
  assert.equal(bad.outputs['is-error'], 'true');
});
