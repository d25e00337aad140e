/**
 * The `long` scenario (issue 19): one headless session of N tool turns (200 and 600 by default)
 * over a 30-file project in bypass mode, against the scripted fake model in this process.
 * Reports peak RSS (GNU time), wall and time per turn; with --heap, writes heap snapshots of the
 * CLI at turns 100 and 500 (SIGUSR2 → --heapsnapshot-signal) into bench/results/heap/.
 *
 *   npm run build && npx node --import tsx bench/long.ts [--turns 200,600] [--heap]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startFakeModel, type ReplyBuilder } from '../test/fakes/model-server.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const turnsArg = argv.includes('--turns') ? argv[argv.indexOf('--turns') + 1] : '200,600';
const TURNS = turnsArg.split(',').map(Number);
const HEAP = argv.includes('--heap');
const TIME = '/usr/bin/time';
const NODE = process.execPath;

function project(dir: string): void {
  for (let i = 0; i < 30; i++) {
    const p = join(dir, `src/mod${i}.js`);
    mkdirSync(dirname(p), { recursive: true });
    const body = Array.from({ length: 40 }, (_, l) => `export function f${i}_${l}(x) {\n  return x * ${l} + ${i}; // line ${l}\n}\n`).join('');
    writeFileSync(p, body);
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "long", "type": "module" }\n');
}

/** Turn k: Read, Grep, Bash echo, Edit (after its Read), in turn, over the 30 files. */
function steps(n: number): ReplyBuilder[] {
  const out: ReplyBuilder[] = [];
  for (let k = 0; k < n; k++) {
    const f = `src/mod${k % 30}.js`;
    switch (k % 4) {
      case 0: out.push(reply().text(`Reading ${f}.`).tool('Read', { file_path: f, limit: 20 })); break;
      case 1: out.push(reply().tool('Grep', { pattern: `f${k % 30}_1\\b`, output_mode: 'content', '-n': true })); break;
      case 2: out.push(reply().tool('Bash', { command: `echo turn ${k}` })); break;
      default: out.push(reply().tool('Edit', { file_path: f, old_string: `// line ${Math.floor(k / 120)}\n`, new_string: `// line ${Math.floor(k / 120)} edited ${k}\n` })); break;
    }
  }
  return out;
}

async function run(n: number): Promise<void> {
  const tmp = realpathSync(mkdtempSync(join(os.tmpdir(), 'assistant-long-')));
  const dir = join(tmp, 'proj'); const home = join(tmp, 'home');
  mkdirSync(home, { recursive: true }); project(dir);
  const model = await startFakeModel();
  model.script(...steps(n), reply('done'));
  const heapDir = join(root, 'bench/results/heap');
  if (HEAP) mkdirSync(heapDir, { recursive: true });
  const timeFile = join(tmp, 'time.txt');
  const args = [...(HEAP ? ['--heapsnapshot-signal=SIGUSR2'] : []), ...(process.env.LONG_NODE_ARGS ? process.env.LONG_NODE_ARGS.split(' ') : []), join(root, 'bin/assistant.js'), '-p', 'work', '--permission-mode', 'bypass', '--output-format', 'json', '--max-turns', String(n + 5), '--model', 'anthropic:claude-sonnet-4-5'];
  const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', ...model.env('anthropic') };
  const start = performance.now();
  const child = spawn(TIME, ['-f', '%e %U %S %M', '-o', timeFile, NODE, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = ''; let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const marks: Array<{ turn: number; ms: number }> = [];
  const snapAt = HEAP ? [100, 500].filter((t) => t < n) : [];
  for (const t of [Math.floor(n / 2), ...snapAt].sort((a, b) => a - b)) {
    await model.waitForRequests(t, 600_000);
    marks.push({ turn: t, ms: performance.now() - start });
    if (snapAt.includes(t)) {
      // The node process is GNU time's child: signal it, and wait for its snapshot file.
      const before = new Set(readdirSync(dir));
      spawn('pkill', ['-USR2', '-f', 'bin/assistant.js -p work']);
      for (let i = 0; i < 600 && readdirSync(dir).every((f) => before.has(f) || !f.endsWith('.heapsnapshot')); i++) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 3000));
      const snap = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
      if (snap) renameSync(join(dir, snap), join(heapDir, `turn-${t}.heapsnapshot`));
    }
  }
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const wall = performance.now() - start;
  await model.close();
  if (code !== 0) { process.stderr.write(`long ${n}: exit ${code}\n${stderr.slice(-3000)}\n${stdout.slice(-2000)}\n`); process.exitCode = 1; return; }
  const result = JSON.parse(stdout) as { num_turns: number };
  const m = /([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/.exec(readFileSync(timeFile, 'utf8').trim())!;
  const half = marks.find((x) => x.turn === Math.floor(n / 2))!;
  const secondHalfPerTurn = (wall - half.ms) / (n - half.turn);
  process.stdout.write(`| ${n} | ${result.num_turns} | ${(wall / 1000).toFixed(1)} s | ${(wall / n).toFixed(1)} ms | ${secondHalfPerTurn.toFixed(1)} ms | ${(Number(m[4]) / 1024).toFixed(0)} MiB | ${((Number(m[2]) + Number(m[3]))).toFixed(1)} s |\n`);
}

process.stdout.write('| turns | num_turns | wall | per turn | per turn, 2nd half | peak RSS | CPU |\n|---|---|---|---|---|---|---|\n');
for (const n of TURNS) await run(n);
if (!existsSync(TIME)) process.stderr.write('GNU time not found\n');
