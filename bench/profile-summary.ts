/**
 * Summarises V8 CPU profiles (.cpuprofile) of the bundled CLI: self time by source (package or
 * src/ folder, found from the `// node_modules/…` section comments esbuild writes into the bundle)
 * and the top functions by self time.
 *
 *   node --import tsx bench/run.ts --only tools20 --runs 1 --node-arg=--cpu-prof --node-arg=--cpu-prof-dir=bench/results/prof
 *   node --import tsx bench/profile-summary.ts bench/results/prof/*.cpuprofile [--top 30]
 *
 * With several profiles the figures are per-profile averages.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
let top = 30;
const files: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--top') top = Number(args[++i]);
  else files.push(args[i]);
}
if (!files.length) {
  process.stderr.write('usage: bench/profile-summary.ts FILE.cpuprofile… [--top N]\n');
  process.exit(2);
}

// Section starts of the bundle: [line (0-based), source] sorted by line.
const bundleSections = new Map<string, Array<[number, string]>>();
function sectionsOf(url: string): Array<[number, string]> {
  let s = bundleSections.get(url);
  if (s) return s;
  s = [];
  try {
    const lines = readFileSync(fileURLToPath(url), 'utf8').split('\n');
    lines.forEach((l, i) => {
      // esbuild names each module's section `// path/from/the/build/dir`; node_modules may sit above it (`../../node_modules/…`).
      const m = /^\/\/ (?:[^\s]*\/)?(node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\/\S*|src\/[^/\s]+|package\.json)$/.exec(l);
      if (m) s!.push([i, m[2] ?? m[1]]);
    });
  } catch {
    /* not a file */
  }
  bundleSections.set(url, s);
  return s;
}

function sourceOf(cf: CallFrame): string {
  if (!cf.url) return cf.functionName.startsWith('(') ? cf.functionName : '(native / V8 builtins)';
  if (cf.url.startsWith('node:')) {
    const m = /^node:(?:internal\/)?([^/]+(?:\/[^/]+)?)/.exec(cf.url);
    return `node:${m ? m[1] : cf.url}`;
  }
  if (cf.url.endsWith('/dist/assistant.js')) {
    const s = sectionsOf(cf.url);
    let found = '(bundle prelude)';
    for (const [line, src] of s) {
      if (line > cf.lineNumber) break;
      found = src;
    }
    return found;
  }
  return cf.url.replace(/^file:\/\/.*\/node_modules\//, '');
}

const bySource = new Map<string, number>();
const byFunction = new Map<string, number>();
let totalMs = 0;
let spanMs = 0;
for (const f of files) {
  const p = JSON.parse(readFileSync(f, 'utf8')) as Profile;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  spanMs += (p.endTime - p.startTime) / 1000;
  for (let i = 0; i < p.samples.length; i++) {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    const n = nodes.get(p.samples[i]);
    if (!n) continue;
    const cf = n.callFrame;
    totalMs += ms;
    const src = sourceOf(cf);
    bySource.set(src, (bySource.get(src) ?? 0) + ms);
    const fn = `${cf.functionName || '(anonymous)'}  ${src}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
}
const n = files.length;
const row = (k: string, v: number) => `| ${k} | ${(v / n).toFixed(1)} | ${((100 * v) / totalMs).toFixed(1)}% |`;
const out = [
  `${n} profile(s); profiled span ${(spanMs / n).toFixed(1)} ms per profile (from V8 start-up of the profiler to exit)`,
  '',
  '| source (self time) | ms | share |',
  '|---|---:|---:|',
  ...[...bySource]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => row(k, v)),
  '',
  '| function (self time) | ms | share |',
  '|---|---:|---:|',
  ...[...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => row(k.replace(/\|/g, '\\|'), v)),
];
process.stdout.write(`${out.join('\n')}\n`);
