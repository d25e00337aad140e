/**
 * What MCP costs a session (SPEC §12, issue 15): the built CLI (`dist/`) run headless against the
 * fake model with no MCP server configured, and with one stdio server configured (the real
 * @modelcontextprotocol/server-everything, in the user's settings). Per kind: `--version`, the
 * time from spawn to the first model request, and the whole `-p hello` run; beside them the
 * server's own start (spawn, initialize, tools/list) measured in-process with the same client.
 * Interleaved round by round so a slow spell of the machine hits every kind alike; medians.
 *
 *   npm run build && npm run bench:mcp              # 7 rounds
 *   npm run bench:mcp -- --runs 15
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startFakeModel, reply } from '../test/fakes/model-server.ts';
import { McpManager } from '../src/mcp/manager.ts';
import { NO_APPROVALS, EVERYTHING, entry } from '../test/mcp/helpers.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const RUNS = Number(values.runs);
const CLI = fileURLToPath(new URL('../dist/assistant.js', import.meta.url));
const SERVER = { command: process.execPath, args: [EVERYTHING] };

const model = await startFakeModel();
let firstRequestAt = 0;
model.onRequest(() => {
  if (!firstRequestAt) firstRequestAt = performance.now();
  return undefined;
});

function place(withServer: boolean) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-bench-mcp-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-bench-home-')));
  if (withServer) {
    mkdirSync(join(home, '.assistant'));
    writeFileSync(join(home, '.assistant/settings.json'), JSON.stringify({ mcpServers: { everything: SERVER } }));
  }
  return { dir, home };
}
const kinds = { 'no MCP server': place(false), 'one stdio server (server-everything)': place(true) };

function env(home: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(ANTHROPIC|OPENAI|GEMINI|GOOGLE|ASSISTANT|NODE_OPTIONS|npm_)/.test(k)) e[k] = v;
  return { ...e, HOME: home, ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: model.anthropicBaseUrl, NO_COLOR: '1' };
}

function run(args: string[], where: { dir: string; home: string }): Promise<{ ms: number; firstRequestMs?: number }> {
  return new Promise((resolve, reject) => {
    firstRequestAt = 0;
    const t = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { cwd: where.dir, env: env(where.home), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => {
      const ms = performance.now() - t;
      if (code !== 0) reject(new Error(`assistant ${args.join(' ')} exited ${code}:\n${out}`));
      else resolve({ ms, firstRequestMs: firstRequestAt ? firstRequestAt - t : undefined });
    });
  });
}

async function serverStart(): Promise<number> {
  const t = performance.now();
  const m = new McpManager({
    config: { servers: [entry('everything', SERVER)], warnings: [] },
    approvals: NO_APPROVALS,
    env: process.env,
    cwd: tmpdir(),
    clientInfo: { name: 'bench', version: '0' },
  });
  m.start();
  await m.whenSettled();
  const ms = performance.now() - t;
  if (m.statuses()[0].state !== 'connected') throw new Error(`the server did not start: ${m.statuses()[0].error}`);
  await m.close();
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const samples: Record<string, { version: number[]; first: number[]; hello: number[] }> = Object.fromEntries(
  Object.keys(kinds).map((k) => [k, { version: [], first: [], hello: [] }]),
);
const server: number[] = [];

const HELLO = ['-p', 'hello', '--model', 'anthropic:claude-sonnet-4-5', '--output-format', 'json'];
for (let round = 0; round <= RUNS; round++) {
  // round 0 warms up (V8's compile cache, the server's npm files)
  const s = await serverStart();
  if (round) server.push(s);
  const order = Object.entries(kinds);
  if (round % 2) order.reverse(); // neither kind always runs first
  for (const [name, where] of order) {
    const v = await run(['--version'], where);
    model.script(reply().text('Hi.'));
    const h = await run(HELLO, where);
    if (!round) continue;
    samples[name].version.push(v.ms);
    samples[name].hello.push(h.ms);
    samples[name].first.push(h.firstRequestMs!);
  }
}

console.log(
  `${RUNS} rounds; ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; node ${process.version}\n`,
);
console.log('| | `--version` | spawn → first model request | `-p hello`, whole run |');
console.log('|---|---:|---:|---:|');
for (const [name, s] of Object.entries(samples))
  console.log(`| ${name} | ${median(s.version).toFixed(0)} ms | ${median(s.first).toFixed(0)} ms | ${median(s.hello).toFixed(0)} ms |`);
console.log(`\nserver-everything's own start (spawn, initialize, tools/list), in-process: ${median(server).toFixed(0)} ms`);
await model.close();
for (const w of Object.values(kinds)) {
  rmSync(w.dir, { recursive: true, force: true });
  rmSync(w.home, { recursive: true, force: true });
}
