// What a Task round trip costs (SPEC §14): two `explore` subagents of 10 tool calls each, started
// by two Task calls in one message, against the same 20 calls made one per turn by the main loop.
// Interleaved runs, medians; model replies `--delay` ms apart (default 0: the fake server's speed,
// so the figure is the CLI's own overhead; try 200 for a real model's latency).
// Run: npm run build && PATH=node_modules/.bin:$PATH node --import tsx --import ./test/md-loader.mjs bench/subagents.ts [--runs N] [--delay MS]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeModel, reply, systemPrompt, type ReplyBuilder } from '../test/fakes/model-server.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : undefined;
};
const runs = arg('--runs') ?? 7;
const delay = arg('--delay') ?? 0;
const BIN = fileURLToPath(new URL('../bin/assistant.js', import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Call `i` of 10: reads and searches over a 5-file project. */
const call = (i: number, r: ReplyBuilder) =>
  i % 2 ? r.tool('Read', { file_path: `f${i % 5}.txt` }) : r.tool('Grep', { pattern: `file ${i % 5}` });

async function session(url: string): Promise<{ ms: number; json: any }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-agents-'));
  const home = mkdtempSync(join(tmpdir(), 'bench-home-'));
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
  const t0 = performance.now();
  let out = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [BIN, '-p', 'go', '--output-format', 'json', '--model', 'anthropic:claude-sonnet-4-5'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: url },
    });
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', resolve);
  });
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`run failed with exit ${code}: ${out}`);
  return { ms, json: JSON.parse(out) };
}

const model = await startFakeModel();
const main: number[] = [];
const agents: number[] = [];
const requests = { main: 0, agents: 0 };
for (let r = 0; r <= runs; r++) {
  // The main loop: 20 calls, one a turn, then the answer.
  model.reset();
  for (let i = 0; i < 20; i++) model.script(call(i, reply()).delay(delay));
  model.script(reply('done').delay(delay));
  const a = await session(model.anthropicBaseUrl);
  if (a.json.num_turns !== 21) throw new Error(`main loop: ${a.json.num_turns} turns`);
  requests.main = model.requests.length;
  // Two explore subagents of 10 calls each, started together.
  model.reset();
  const turns = new Map<string, number>();
  model.onRequest((req) => {
    const sys = systemPrompt(req) ?? '';
    if (!/read-only search agent/.test(sys)) return undefined;
    const who = String(req.body.messages[0].content[0].text);
    const n = turns.get(who) ?? 0;
    turns.set(who, n + 1);
    return n < 10 ? call(n, reply()).delay(delay) : reply(`report ${who.length}`).delay(delay);
  });
  model.script(
    reply()
      .tool('Task', { description: 'half a', prompt: 'Look at the first half.', subagent_type: 'explore' })
      .tool('Task', { description: 'half b', prompt: 'Look at the second half.', subagent_type: 'explore' })
      .delay(delay),
    reply('done').delay(delay),
  );
  const b = await session(model.anthropicBaseUrl);
  if (b.json.num_turns !== 24) throw new Error(`subagents: ${b.json.num_turns} turns`);
  requests.agents = model.requests.length;
  if (r > 0) {
    main.push(a.ms);
    agents.push(b.ms);
  }
}
await model.close();
console.log(`model replies ${delay} ms apart, ${runs} runs, medians`);
console.log('| scenario | model requests | wall |');
console.log('|---|---|---|');
console.log(`| 20 calls in the main loop (one a turn) | ${requests.main} | ${median(main).toFixed(0)} ms |`);
console.log(`| 2 parallel explore subagents × 10 calls | ${requests.agents} | ${median(agents).toFixed(0)} ms |`);
