/**
 * The `long` scenario (issue 19): one headless session of N tool turns (200 and 600 by default)
 * over a 30-file project in bypass mode, against the scripted fake model in this process.
 * Reports peak RSS (GNU time), wall and time per turn; with --heap, writes heap snapshots of the
 * CLI at turns 100 and 500 (SIGUSR2 → --heapsnapshot-signal) into bench/results/heap/.
 * Also the resident set at turns 20, 100, 200, 400 and 600 (read from /proc while it runs).
 *
 *   npm run build && npx node --import tsx bench/long.ts [--turns 200,600] [--heap] [--runs N]
 *     [--bin OTHER/bin/assistant.js]…   A/B: this build and others, interleaved (order alternates)
 *     [--alt "NODE FLAGS"]…              A/B: this build run with these node flags, interleaved too
 *     [--probe]                         log process.memoryUsage() every 250 ms (bench/mem-probe.mjs)
 *                                       into bench/results/probe-<build>-<turns>.jsonl
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startFakeModel, type ReplyBuilder } from '../test/fakes/model-server.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const turnsArg = argv.includes('--turns') ? argv[argv.indexOf('--turns') + 1] : '200,600';
const TURNS = turnsArg.split(',').map(Number);
const HEAP = argv.includes('--heap');
const PROBE = argv.includes('--probe');
const RUNS = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 1;
/** The builds compared: this one, `--bin` others, and `--alt FLAGS`: this build with those node flags. */
const BINS: Array<{ bin: string; flags: string[]; label: string }> = [
  { bin: join(root, 'bin/assistant.js'), flags: [], label: 'this build' },
  ...argv.flatMap((a, i) => (a === '--bin' ? [{ bin: resolve(argv[i + 1]), flags: [], label: relative(root, resolve(argv[i + 1])) }] : [])),
  ...argv.flatMap((a, i) =>
    a === '--alt'
      ? [{ bin: join(root, 'bin/assistant.js'), flags: argv[i + 1].split(' ').filter(Boolean), label: `this build ${argv[i + 1]}` }]
      : [],
  ),
];
const RSS_AT = [20, 100, 200, 400, 600];
const TIME = '/usr/bin/time';
const NODE = process.execPath;

function project(dir: string): void {
  for (let i = 0; i < 30; i++) {
    const p = join(dir, `src/mod${i}.js`);
    mkdirSync(dirname(p), { recursive: true });
    const body = Array.from({ length: 40 }, (_, l) => `export function f${i}_${l}(x) {\n  return x * ${l} + ${i}; // line ${l}\n}\n`).join(
      '',
    );
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
      case 0:
        out.push(reply().text(`Reading ${f}.`).tool('Read', { file_path: f, limit: 20 }));
        break;
      case 1:
        out.push(reply().tool('Grep', { pattern: `f${k % 30}_1\\b`, output_mode: 'content', '-n': true }));
        break;
      case 2:
        out.push(reply().tool('Bash', { command: `echo turn ${k}` }));
        break;
      default:
        out.push(
          reply().tool('Edit', {
            file_path: f,
            old_string: `// line ${Math.floor(k / 120)}\n`,
            new_string: `// line ${Math.floor(k / 120)} edited ${k}\n`,
          }),
        );
        break;
    }
  }
  return out;
}

interface Result {
  wall: number;
  perTurn: number;
  secondHalf: number;
  peak: number;
  cpu: number;
  rssAt: Record<number, number>;
}

/** The resident set (MiB) of the CLI: the node process under GNU time. */
function rssOf(timePid: number | undefined): number | undefined {
  try {
    const kids = readFileSync(`/proc/${timePid}/task/${timePid}/children`, 'utf8').trim().split(/\s+/);
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${kids[0]}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function run(n: number, bin: string, flags: string[], tag: string): Promise<Result | undefined> {
  const tmp = realpathSync(mkdtempSync(join(os.tmpdir(), 'assistant-long-')));
  const dir = join(tmp, 'proj');
  const home = join(tmp, 'home');
  mkdirSync(home, { recursive: true });
  project(dir);
  const model = await startFakeModel();
  model.script(...steps(n), reply('done'));
  const heapDir = join(root, 'bench/results/heap');
  if (HEAP) mkdirSync(heapDir, { recursive: true });
  const timeFile = join(tmp, 'time.txt');
  const probeFile = join(root, `bench/results/probe-${tag}-${n}.jsonl`);
  if (PROBE) {
    mkdirSync(dirname(probeFile), { recursive: true });
    writeFileSync(probeFile, '');
  }
  const args = [
    ...(HEAP ? ['--heapsnapshot-signal=SIGUSR2'] : []),
    ...(PROBE ? [`--import=${join(root, 'bench/mem-probe.mjs')}`] : []),
    ...(process.env.LONG_NODE_ARGS ? process.env.LONG_NODE_ARGS.split(' ') : []),
    ...flags,
    bin,
    '-p',
    'work',
    '--permission-mode',
    'bypass',
    '--output-format',
    'json',
    '--max-turns',
    String(n + 5),
    '--model',
    'anthropic:claude-sonnet-4-5',
  ];
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    NO_COLOR: '1',
    ...(PROBE ? { LONG_PROBE_FILE: probeFile } : {}),
    ...model.env('anthropic'),
  };
  const start = performance.now();
  const child = spawn(TIME, ['-f', '%e %U %S %M', '-o', timeFile, NODE, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const marks: Array<{ turn: number; ms: number }> = [];
  const rssAt: Record<number, number> = {};
  const snapAt = HEAP ? [100, 500].filter((t) => t < n) : [];
  for (const t of [...new Set([Math.floor(n / 2), ...snapAt, ...RSS_AT.filter((x) => x <= n)])].sort((a, b) => a - b)) {
    await model.waitForRequests(t, 600_000);
    marks.push({ turn: t, ms: performance.now() - start });
    const rss = rssOf(child.pid);
    if (rss !== undefined) rssAt[t] = rss;
    if (snapAt.includes(t)) {
      // The node process is GNU time's child: signal it (by its pid), and wait for its snapshot file.
      const before = new Set(readdirSync(dir));
      const pid = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
      if (pid) process.kill(pid, 'SIGUSR2');
      for (let i = 0; i < 600 && readdirSync(dir).every((f) => before.has(f) || !f.endsWith('.heapsnapshot')); i++)
        await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 3000));
      const snap = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
      if (snap) renameSync(join(dir, snap), join(heapDir, `turn-${t}.heapsnapshot`));
    }
  }
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const wall = performance.now() - start;
  const bodies = model.requests.map((r) => r.rawBody.length);
  await model.close();
  process.stderr.write(
    `request body: turn 1 ${(bodies[0] / 1024).toFixed(0)} KiB, turn ${bodies.length} ${(bodies[bodies.length - 1] / 1024).toFixed(0)} KiB, all ${(bodies.reduce((a, b) => a + b, 0) / 1048576).toFixed(0)} MiB\n`,
  );
  if (code !== 0) {
    process.stderr.write(`long ${n}: exit ${code}\n${stderr.slice(-3000)}\n${stdout.slice(-2000)}\n`);
    process.exitCode = 1;
    return undefined;
  }
  const result = JSON.parse(stdout) as { num_turns: number };
  if (result.num_turns !== n + 1) {
    process.stderr.write(`long ${n}: num_turns ${result.num_turns}, expected ${n + 1}\n`);
    process.exitCode = 1;
    return undefined;
  }
  const m = /([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/.exec(readFileSync(timeFile, 'utf8').trim())!;
  const half = marks.find((x) => x.turn === Math.floor(n / 2))!;
  return {
    wall,
    perTurn: wall / n,
    secondHalf: (wall - half.ms) / (n - half.turn),
    peak: Number(m[4]) / 1024,
    cpu: Number(m[2]) + Number(m[3]),
    rssAt,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const results = new Map<string, Result[]>();
for (let r = 0; r < RUNS; r++) {
  for (const n of TURNS) {
    const order = BINS.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const res = await run(n, BINS[i].bin, BINS[i].flags, `b${i}`);
      if (res) {
        const k = `${i} ${n}`;
        results.set(k, [...(results.get(k) ?? []), res]);
      }
      process.stderr.write(
        `run ${r + 1}/${RUNS}, ${n} turns, ${BINS[i].label}: ${res ? `peak ${res.peak.toFixed(0)} MiB, ${res.perTurn.toFixed(1)} ms/turn, rss ${JSON.stringify(res.rssAt)}` : 'failed'}\n`,
      );
    }
  }
}
process.stdout.write(
  `medians of ${RUNS}\n| build | turns | wall | per turn | per turn, 2nd half | peak RSS | RSS at turn ${RSS_AT.join(' / ')} | CPU |\n|---|---|---|---|---|---|---|---|\n`,
);
for (const n of TURNS) {
  BINS.forEach(({ label }, i) => {
    const rs = results.get(`${i} ${n}`) ?? [];
    if (!rs.length) return;
    const at = RSS_AT.filter((t) => t <= n)
      .map((t) => median(rs.map((x) => x.rssAt[t] ?? NaN)).toFixed(0))
      .join(' / ');
    process.stdout.write(
      `| ${label} | ${n} | ${(median(rs.map((x) => x.wall)) / 1000).toFixed(1)} s | ${median(rs.map((x) => x.perTurn)).toFixed(1)} ms | ${median(rs.map((x) => x.secondHalf)).toFixed(1)} ms | ${median(rs.map((x) => x.peak)).toFixed(0)} MiB | ${at} | ${median(rs.map((x) => x.cpu)).toFixed(1)} s |\n`,
    );
  });
}
if (!existsSync(TIME)) process.stderr.write('GNU time not found\n');
