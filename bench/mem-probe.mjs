// Preloaded into the CLI by `bench/long.ts --probe` (`--import`): every 250 ms appends one JSON
// line to $LONG_PROBE_FILE with process.memoryUsage() and V8's space sizes, to see which part of
// the resident set grows (JS heap, young generation, external/array buffers, or none of them).
import { appendFileSync, readFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.LONG_PROBE_FILE;
if (file) {
  const t0 = performance.now();
  // The resident set by kind of mapping: malloc's brk heap, anonymous mmaps (V8's pages, large
  // mallocs, WebAssembly memories), the node binary and other files.
  const maps = () => {
    const out = { brk: 0, anon: 0, node: 0, file: 0 };
    let kind = 'anon';
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (head) {
        const name = head[1];
        kind = name === '[heap]' ? 'brk' : !name || name.startsWith('[') ? 'anon' : /\/node$/.test(name) ? 'node' : 'file';
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) out[kind] += Number(rss[1]);
    }
    for (const k of Object.keys(out)) out[k] = Math.round(out[k] / 1024);
    return out;
  };
  let n = 0;
  const sample = () => {
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(
      v8.getHeapSpaceStatistics().map((s) => [s.space_name.replace('_space', ''), Math.round(s.space_size / 1048576)]),
    );
    appendFileSync(
      file,
      `${JSON.stringify({ t: Math.round(performance.now() - t0), rss: m.rss >> 20, heapTotal: m.heapTotal >> 20, heapUsed: m.heapUsed >> 20, external: m.external >> 20, arrayBuffers: m.arrayBuffers >> 20, undici: process.moduleLoadList.some((x) => x.includes('undici')), spaces, ...(n++ % 4 === 0 ? { maps: maps() } : {}) })}\n`,
    );
  };
  setInterval(sample, 250).unref();
  process.on('exit', sample);
}
