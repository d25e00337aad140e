import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { cleanEnv } from './cli.ts';

// A program that depends on the package: `import { query } from 'assistant-code'` resolves through
// the exports map to the build (dist/sdk.js, dist/sdk.d.ts), as after `npm i assistant-code`.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

function consumer(): string {
  const { dir } = makeProject();
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules/assistant-code'));
  symlinkSync(join(ROOT, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        types: ['node'],
        lib: ['ES2023'],
      },
    }),
  );
  return dir;
}

const tsc = (dir: string) => spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });

test('a TypeScript program type-checks against the published types (the runnable example included); a wrong option does not', () => {
  const dir = consumer();
  copyFileSync(join(ROOT, 'examples/sdk/review.ts'), join(dir, 'review.ts'));
  // docs/sdk.md's first example, whole, and its fragments as written there.
  const doc = readFileSync(join(ROOT, 'docs/sdk.md'), 'utf8');
  const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  writeFileSync(join(dir, 'doc-first.ts'), blocks.find((b) => b.startsWith('import { query }'))!);
  const fragment = (start: string) => blocks.find((b) => b.startsWith(start))!;
  writeFileSync(
    join(dir, 'doc-fragments.ts'),
    `import { query, type Options, type SDKUserMessage } from 'assistant-code';
declare function format(path: string): Promise<void>;
const options: Options = {
  ${fragment('canUseTool: async')}
  ${fragment('hooks: {')}
};
${fragment('async function* conversation()')}
export {};
`,
  );
  let r = tsc(dir);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  writeFileSync(
    join(dir, 'bad.ts'),
    "import { query } from 'assistant-code';\nquery({ prompt: 'x', options: { permissionMode: 'yolo' } });\n",
  );
  r = tsc(dir);
  assert.notEqual(r.status, 0);
  assert.match(r.stdout, /bad\.ts.*yolo/s);
});

test('a program imports the built package and drives a query; the SDK writes nothing itself', async () => {
  const dir = consumer();
  const project = makeProject({ 'hello.txt': 'hello' });
  model.reset();
  model.script(reply().tool('Read', { file_path: 'hello.txt' }), reply('It says hello.'));
  writeFileSync(
    join(dir, 'main.mjs'),
    `
import { query } from 'assistant-code';
const types = [];
for await (const m of query({ prompt: 'what does hello.txt say?', options: { cwd: ${JSON.stringify(project.dir)}, model: 'anthropic:claude-sonnet-4-5', env: { HOME: ${JSON.stringify(project.home)} } } })) {
  types.push(m.type);
  if (m.type === 'result') console.log(JSON.stringify({ types, result: m.result, is_error: m.is_error }));
}
`,
  );
  // Not spawnSync: the fake model answers from this process's event loop.
  const child = spawn(process.execPath, ['main.mjs'], {
    cwd: dir,
    env: cleanEnv(project.home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl }),
  });
  const r = { stdout: '', stderr: '', status: null as number | null };
  child.stdout.on('data', (d) => {
    r.stdout += d;
  });
  child.stderr.on('data', (d) => {
    r.stderr += d;
  });
  r.status = await new Promise((res) => child.on('close', res));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '', 'nothing on standard error');
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `only the program's own output: ${r.stdout}`);
  assert.deepEqual(JSON.parse(lines[0]), {
    types: ['system', 'assistant', 'user', 'assistant', 'result'],
    result: 'It says hello.',
    is_error: false,
  });
});

test('the runnable example (examples/sdk/review.ts) runs as written, Node stripping its types', async () => {
  const dir = consumer();
  copyFileSync(join(ROOT, 'examples/sdk/review.ts'), join(dir, 'review.ts'));
  const project = makeProject({ 'a.txt': 'a\n' });
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'git diff' }),
    reply().tool('Write', { file_path: 'fix.txt', content: 'x' }),
    reply('1. a.txt: fine.'),
  );
  const child = spawn(process.execPath, ['review.ts', project.dir], {
    cwd: dir,
    env: cleanEnv(project.home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl }),
  });
  const r = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    r.stdout += d;
  });
  child.stderr.on('data', (d) => {
    r.stderr += d;
  });
  const code = await new Promise((res) => child.on('close', res));
  assert.equal(code, 0, r.stderr);
  assert.equal(r.stdout, '1. a.txt: fine.\n');
  assert.match(r.stderr, /^\$ git diff$/m, 'the JavaScript hook saw the command');
  assert.match(r.stderr, /success: 3 turns/);
  assert.match(
    lastToolResults(model.requests[2])[0].content,
    /Write is not allowed in a review: read only\./,
    'canUseTool refused the write',
  );
});
