// What hooks add per tool call: the same 20-call headless session with a PreToolUse and a
// PostToolUse hook (`exit 0`) and without, interleaved, medians; and the bare cost of the hook
// process (spawning `bash -c 'exit 0'` with a JSON on stdin) measured in this process.
// Run: npm run build && node --import tsx bench/hooks.ts [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeModel, reply } from '../test/fakes/model-server.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
const BIN = fileURLToPath(new URL('../bin/assistant.js', import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function project(withHooks: boolean): { dir: string; home: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-hooks-'));
  const home = mkdtempSync(join(tmpdir(), 'bench-home-'));
  const log = join(dir, 'hooks.log');
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
  if (withHooks) {
    mkdirSync(join(dir, '.assistant'));
    const hook = (tag: string) => [{ hooks: [{ type: 'command', command: `echo ${tag} >> hooks.log` }] }];
    writeFileSync(
      join(dir, '.assistant', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: hook('pre'), PostToolUse: hook('post') } }),
    );
  }
  return { dir, home, log };
}

async function session(url: string, withHooks: boolean): Promise<number> {
  const { dir, home, log } = project(withHooks);
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [BIN, '-p', 'go', '--permission-mode', 'bypass', '--model', 'anthropic:claude-sonnet-4-5'], {
      cwd: dir,
      stdio: 'ignore',
      env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: url },
    });
    child.on('close', resolve);
  });
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`run failed with exit ${code}`);
  if (withHooks) {
    const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0;
    if (lines !== 40) throw new Error(`expected 40 hook runs, saw ${lines}`);
  }
  return ms;
}

function bareHookMs(): number {
  const samples: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    spawnSync('bash', ['-c', 'echo pre >> /dev/null'], { input: '{"hook_event_name":"PreToolUse"}\n' });
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

const model = await startFakeModel();
const script = () => {
  const steps = [];
  for (let i = 0; i < 20; i++)
    steps.push(i % 2 ? reply().tool('Read', { file_path: `f${i % 5}.txt` }) : reply().tool('Bash', { command: `echo ${i}` }));
  steps.push(reply().text('done'));
  return steps;
};
const plain: number[] = [];
const hooked: number[] = [];
for (let r = 0; r <= runs; r++) {
  for (const withHooks of [false, true]) {
    model.reset();
    model.script(...script());
    const ms = await session(model.anthropicBaseUrl, withHooks);
    if (r > 0) (withHooks ? hooked : plain).push(ms);
  }
}
await model.close();
const bare = bareHookMs();
const perCall = (median(hooked) - median(plain)) / 40;
console.log(`| 20 tool calls, no hooks | ${median(plain).toFixed(0)} ms |`);
console.log(`| 20 tool calls, PreToolUse + PostToolUse hooks (40 hook runs) | ${median(hooked).toFixed(0)} ms |`);
console.log(`| per hook call | ${perCall.toFixed(1)} ms |`);
console.log(`| bare hook process (spawn bash -c, JSON on stdin) | ${bare.toFixed(1)} ms |`);
console.log(`| added by our runner beyond the hook process | ${(perCall - bare).toFixed(1)} ms |`);
