/**
 * Cost of the OS sandbox per Bash call (SPEC §13): the Bash tool itself (src/tools/bash.ts) runs
 * the same command without the sandbox, inside it with the network closed, and inside it with an
 * allowed domain (the session's proxy and bridge), interleaved round by round so a slow spell of
 * the machine hits all three alike. Medians, the ratio to no sandbox, and the milliseconds added.
 *
 *   npm run bench:sandbox                 # 30 rounds of `true`
 *   npm run bench:sandbox -- --runs 60 --command 'echo hi'
 *
 * The first call of a sandboxed session also makes its temp directory (and, with domains, starts
 * the proxy and its bridge): that one-off cost is printed apart and left out of the medians.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { emptyRules } from '../src/permissions/rules.ts';
import { openSandbox } from '../src/sandbox/open.ts';
import type { Sandbox } from '../src/sandbox/sandbox.ts';
import { bashTool } from '../src/tools/bash.ts';
import type { ToolContext } from '../src/tools/types.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '30' }, command: { type: 'string', default: 'true' } } });
const RUNS = Number(values.runs);
const COMMAND = values.command!;

const project = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-bench-sandbox-')));
const home = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-bench-home-')));

async function open(domains: string[]): Promise<Sandbox> {
  const r = await openSandbox({
    flag: true,
    settings: { network: { allowedDomains: domains } },
    projectRoot: project,
    home,
    additionalDirs: [],
    rules: emptyRules(),
  });
  if (r.kind !== 'on') throw new Error(r.kind === 'unavailable' ? r.message : 'the sandbox is off');
  return r.sandbox;
}

const ctx = (sandbox?: Sandbox): ToolContext => ({
  cwd: project,
  signal: new AbortController().signal,
  fileState: new Map(),
  shell: { cwd: project },
  env: {},
  sandbox,
});

async function call(c: ToolContext): Promise<number> {
  const t = performance.now();
  const r = await bashTool.execute({ command: COMMAND }, c);
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`"${COMMAND}" failed: ${r.output}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const kinds = {
  'no sandbox': ctx(),
  'sandbox, network closed': ctx(await open([])),
  'sandbox, one allowed domain': ctx(await open(['example.com'])),
};
const first: Record<string, number> = {};
for (const [name, c] of Object.entries(kinds)) first[name] = await call(c);
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
for (let i = 0; i < RUNS; i++) for (const [name, c] of Object.entries(kinds)) samples[name].push(await call(c));

const base = median(samples['no sandbox']);
console.log(
  `Bash tool, "${COMMAND}", ${RUNS} rounds; ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
console.log('| | first call (ms) | median per call (ms) | ratio | added (ms) |');
console.log('|---|---:|---:|---:|---:|');
for (const name of Object.keys(kinds)) {
  const m = median(samples[name]);
  console.log(
    `| ${name} | ${first[name].toFixed(1)} | ${m.toFixed(1)} | ${(m / base).toFixed(2)} | ${name === 'no sandbox' ? '—' : (m - base).toFixed(1)} |`,
  );
}
for (const c of Object.values(kinds)) await (c.sandbox as Sandbox | undefined)?.close();
rmSync(project, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
