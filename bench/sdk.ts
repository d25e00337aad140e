/**
 * The SDK's benchmark (issue 18, docs/sdk.md), on the build (npm run build first):
 *
 *   npm run bench:sdk                 # 7 rounds
 *   npm run bench:sdk -- --runs 15 --queries 100
 *   npm run bench:sdk -- --runs 0 --queries 300 --node-arg=--max-semi-space-size=8   # memory only
 *
 * 1. Start-up: a fresh process that imports dist/sdk.js and runs query() until its first message
 *    (system init) and its result, against `assistant -p hello --output-format stream-json`'s first
 *    line and exit (same Node, same fake model, fresh HOME and project each), interleaved per round.
 *    Both are timed from spawn, in this process, so Node's own start is in both.
 * 2. Memory: one process runs N sequential queries (each a Read tool call and an answer) and samples
 *    heap and RSS after a forced GC; growth past the first queries is what a long-lived program sees.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startFakeModel, type FakeModel } from '../test/fakes/model-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('--runs', 7);
const QUERIES = arg('--queries', 100);
const MODEL = 'anthropic:claude-sonnet-4-5';
/** `--node-arg FLAG` (repeatable): given to the memory run's Node, e.g. --max-semi-space-size=16. */
const NODE_ARGS = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--node-arg' ? [a] : []));

const tmp = (p: string) => realpathSync(mkdtempSync(join(os.tmpdir(), p)));
function cleanEnv(home: string, model: FakeModel): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(ANTHROPIC|OPENAI|ASSISTANT|CLAUDE|NODE_OPTIONS|npm_)/.test(k)) env[k] = v;
  return { ...env, HOME: home, ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: model.anthropicBaseUrl, NO_COLOR: '1' };
}

/** Spawns and resolves with the time of the first stdout line, and of the exit (ms from spawn). */
function timed(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ firstMs: number; exitMs: number; stdout: string; code: number | null; stderr: string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let firstMs = NaN;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    if (Number.isNaN(firstMs) && String(d).includes('\n')) firstMs = performance.now() - t0;
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ firstMs, exitMs: performance.now() - t0, stdout, code, stderr })));
}

const SDK_ONE = `
const { query } = await import(${JSON.stringify(join(ROOT, 'dist/sdk.js'))});
for await (const m of query({ prompt: 'hello', options: { model: '${MODEL}', permissionMode: 'bypass' } })) console.log(JSON.stringify({ type: m.type, result: m.result }));
`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

const model = await startFakeModel();
try {
  const cli = { first: [] as number[], exit: [] as number[] };
  const sdk = { first: [] as number[], exit: [] as number[] };
  for (let round = -1; round < RUNS; round++) {
    // round -1 warms V8's compile cache for both
    for (const which of ['cli', 'sdk'] as const) {
      const dir = tmp('bench-sdk-proj-');
      const home = tmp('bench-sdk-home-');
      model.reset();
      model.script(reply('Hello!'));
      const r =
        which === 'cli'
          ? await timed(
              [
                join(ROOT, 'bin/assistant.js'),
                '-p',
                'hello',
                '--permission-mode',
                'bypass',
                '--output-format',
                'stream-json',
                '--model',
                MODEL,
              ],
              dir,
              cleanEnv(home, model),
            )
          : await timed(['--input-type=module', '-e', SDK_ONE], dir, cleanEnv(home, model));
      const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      if (r.code !== 0 || last.type !== 'result' || last.result !== 'Hello!')
        throw new Error(`${which} run failed (${r.code}): ${r.stdout}\n${r.stderr}`);
      if (round < 0) continue;
      (which === 'cli' ? cli : sdk).first.push(r.firstMs);
      (which === 'cli' ? cli : sdk).exit.push(r.exitMs);
    }
  }
  if (RUNS > 0) {
    console.log(`## Start-up (median of ${RUNS}, from spawn)\n`);
    console.log('| | first message | result, process exit |\n|---|---|---|');
    console.log(`| \`assistant -p hello --output-format stream-json\` | ${fmt(median(cli.first))} | ${fmt(median(cli.exit))} |`);
    console.log(`| \`import('assistant-code')\` + \`query()\` | ${fmt(median(sdk.first))} | ${fmt(median(sdk.exit))} |`);
    console.log(
      `| ratio SDK / CLI | ${(median(sdk.first) / median(cli.first)).toFixed(2)}× | ${(median(sdk.exit) / median(cli.exit)).toFixed(2)}× |\n`,
    );
  }

  // Memory over sequential queries, in one process.
  const dir = tmp('bench-sdk-proj-');
  const home = tmp('bench-sdk-home-');
  writeFileSync(join(dir, 'a.txt'), 'some text\n'.repeat(200));
  model.reset();
  for (let i = 0; i < QUERIES; i++) model.script(reply().tool('Read', { file_path: 'a.txt' }), reply(`answer ${i}`));
  const samples = new Set([1, 5, 10, 25, 50, 75, 100, 150, 200, 300, QUERIES].filter((n) => n <= QUERIES));
  const MEM = `
const v8 = await import('node:v8');
const { query } = await import(${JSON.stringify(join(ROOT, 'dist/sdk.js'))});
for (let i = 1; i <= ${QUERIES}; i++) {
  let result;
  for await (const m of query({ prompt: 'read a.txt', options: { model: '${MODEL}', permissionMode: 'bypass' } })) if (m.type === 'result') result = m;
  if (result.is_error || result.result !== 'answer ' + (i - 1)) throw new Error('query ' + i + ': ' + JSON.stringify(result));
  if (${JSON.stringify([...samples])}.includes(i)) {
    globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); globalThis.gc();
    const m = process.memoryUsage();
    const space = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
    console.log(JSON.stringify({ i, heap: m.heapUsed, rss: m.rss, external: m.external, young: space.new_space, old: space.old_space, handles: process.getActiveResourcesInfo().length }));
  }
}
`;
  const t0 = performance.now();
  const r = await timed([...NODE_ARGS, '--expose-gc', '--input-type=module', '-e', MEM], dir, cleanEnv(home, model));
  if (r.code !== 0) throw new Error(`memory run failed: ${r.stderr}`);
  const rows = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { i: number; heap: number; rss: number; external: number; young: number; old: number; handles: number });
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  console.log(
    `## ${QUERIES} sequential queries in one process (${((performance.now() - t0) / 1000).toFixed(1)} s, ${((performance.now() - t0) / QUERIES).toFixed(0)} ms per query)\n`,
  );
  console.log(
    '| after query | heap used (after GC) | old space | young space (reserved) | external | RSS | active handles |\n|---|---|---|---|---|---|---|',
  );
  for (const x of rows)
    console.log(`| ${x.i} | ${mib(x.heap)} | ${mib(x.old)} | ${mib(x.young)} | ${mib(x.external)} | ${mib(x.rss)} | ${x.handles} |`);
  const at10 = rows.find((x) => x.i === 10)!;
  const end = rows.at(-1)!;
  console.log(
    `\nHeap growth from query 10 to ${QUERIES}: ${mib(end.heap - at10.heap)} (${((end.heap - at10.heap) / (QUERIES - 10) / 1024).toFixed(1)} KiB per query).`,
  );
} finally {
  await model.close();
}
