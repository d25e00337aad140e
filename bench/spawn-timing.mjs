// Preload for the CLI's node: times every child process it starts (hooks, the Bash tool, rg).
//
//   SPAWN_TIMING_DIR=/tmp/st npm run bench -- --only tools20,tools20-hooks --runs 3 \
//     --node-arg=--import=$PWD/bench/spawn-timing.mjs
//   node bench/spawn-timing.mjs /tmp/st        # summary
//
// Per child: `syncMs`, the time `spawn()` blocks the CLI (mostly fork, which grows with the
// CLI's resident memory, so `rssMiB` is kept too); `exitMs` and `closeMs`, from the call of
// spawn() to the child's 'exit' and to 'close' (its pipes drained). One JSON file per CLI process.
import { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

if (import.meta.url === `file://${process.argv[1]}`) {
  // Summary of a directory of results.
  const dir = process.argv[2];
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const groups = new Map();
  let files = 0;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.json')) continue;
    files++;
    for (const e of JSON.parse(readFileSync(join(dir, f), 'utf8'))) {
      const kind = /hooks\.log/.test(e.args)
        ? 'hook (bash -c)'
        : e.file === 'bash' || /\/bash$/.test(e.file)
          ? 'Bash tool'
          : e.file.split('/').pop();
      if (!groups.has(kind)) groups.set(kind, []);
      groups.get(kind).push(e);
    }
  }
  console.log(`${files} CLI processes`);
  console.log('| child | count | spawn() blocks (sync) | spawn → exit | spawn → close | CLI RSS at spawn |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [kind, es] of groups) {
    const f = (k) => `${median(es.map((e) => e[k])).toFixed(2)} ms`;
    console.log(
      `| ${kind} | ${es.length} | ${f('syncMs')} | ${f('exitMs')} | ${f('closeMs')} | ${median(es.map((e) => e.rssMiB)).toFixed(0)} MiB |`,
    );
  }
} else {
  const dir = process.env.SPAWN_TIMING_DIR;
  const rec = [];
  const orig = ChildProcess.prototype.spawn;
  ChildProcess.prototype.spawn = function spawn(opts) {
    const t0 = performance.now();
    const r = orig.call(this, opts);
    const e = {
      file: opts.file,
      args: (opts.args ?? []).slice(1).join(' ').slice(0, 80),
      syncMs: performance.now() - t0,
      rssMiB: process.memoryUsage.rss() / 1048576,
    };
    this.once('exit', () => {
      e.exitMs = performance.now() - t0;
    });
    this.once('close', () => {
      e.closeMs = performance.now() - t0;
    });
    rec.push(e);
    return r;
  };
  if (dir) process.on('exit', () => writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(rec)));
}
