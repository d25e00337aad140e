/**
 * Start-up, latency and memory benchmark of the built CLI (dist/assistant.js through bin/assistant.js).
 *
 *   npm run build && npm run bench                  # N = 7 measured runs per scenario
 *   npm run bench -- --runs 15                      # more runs
 *   npm run bench -- --only hello                   # some scenarios (the baseline always runs)
 *   npm run bench -- --bin /tmp/exp/bin/assistant.js
 *                     # A/B: this build and another one (its bin/ next to its dist/), interleaved;
 *                     # --no-this-build measures only the --bin builds
 *   npm run bench -- --only tools20 --runs 1 --node-arg=--cpu-prof --node-arg=--cpu-prof-dir=bench/results/prof
 *                     # profile (flags go to the CLI's node, not to the baseline), then:
 *                     # node --import tsx bench/profile-summary.ts bench/results/prof/*.cpuprofile
 *
 * Scenarios, each run as its own process under GNU time (`/usr/bin/time -f '%e %U %S %M'`):
 *   baseline  node -e 0                       (the same Node binary as the CLI)
 *   version   node bin/assistant.js --version
 *   hello     one prompt → one text answer, headless, fake model server with no latency
 *   tools20   20 tool calls (8 Read, 5 Grep, 5 Bash echo, 2 Edit), then a text answer: 21 turns
 *   tools20-hooks  the same session with a PreToolUse and a PostToolUse hook (matcher omitted) in the
 *             project's .assistant/settings.json, each appending one line to $HOME/hooks.log: 40 hook
 *             calls, checked line by line. `--only tools20-hooks` also runs tools20 (the figures are
 *             a difference), and each round also times the bare hook process in this process
 *             (spawn `bash -c HOOK` with the hook's JSON on stdin, HOOK_PROCESS_SAMPLES times), so:
 *               per hook call   = (wall(tools20-hooks) − wall(tools20)) / 40
 *               runner's share  = per hook call − bare hook process
 *             (the bare process is also timed in a session of its own, as the runner starts it)
 *
 * One warm-up run per scenario (it also fills V8's compile cache, as any earlier start would
 * for a user), then N rounds; each round runs every scenario once, so slow phases of a noisy
 * machine hit all scenarios alike. Every run gets a fresh HOME and a fresh project directory.
 * Every run is checked (exit 0, the JSON result, the model's requests, the tool results, the
 * edited files); a failing run aborts the benchmark with exit 1.
 *
 * Prints a Markdown table; writes bench/results/latest.json (not with --bin or --node-arg,
 * whose figures are experiments).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastToolResults, reply, startFakeModel, type FakeModel, type ReplyBuilder } from '../test/fakes/model-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** GNU time (`gtime` on macOS: BENCH_GNU_TIME=$(which gtime)). */
const TIME = process.env.BENCH_GNU_TIME || '/usr/bin/time';
const NODE = process.execPath;
const MODEL_ARGS = ['--model', 'anthropic:claude-sonnet-4-5'];
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

// ───────────────────────────── arguments ─────────────────────────────

function usage(msg: string): never {
  process.stderr.write(
    `${msg}\nusage: bench/run.ts [--runs N] [--only version,hello,tools20,tools20-hooks] [--bin OTHER/bin/assistant.js]… [--no-this-build] [--node-arg FLAG]… [--no-write]\n`,
  );
  process.exit(2);
}

interface Build {
  label: string;
  bin: string;
  dist: string;
}
const builds: Build[] = [{ label: 'this build', bin: join(ROOT, 'bin/assistant.js'), dist: join(ROOT, 'dist/assistant.js') }];
let runs = 7;
let only: string[] | undefined;
let write = true;
/** With --bin: measure only the other builds (e.g. to profile one of them). */
let skipThis = false;
/** Extra flags for the CLI's node (e.g. --cpu-prof). */
const nodeArgs: string[] = [];
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const arg = a[i];
    const val = (name: string) => (arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : a[++i]);
    if (arg === '--runs' || arg.startsWith('--runs=')) runs = Number(val('--runs'));
    else if (arg === '--only' || arg.startsWith('--only='))
      only = String(val('--only'))
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (arg === '--no-write') write = false;
    else if (arg === '--no-this-build') skipThis = true;
    else if (arg === '--bin' || arg.startsWith('--bin=')) {
      const bin = resolve(String(val('--bin')));
      builds.push({
        label: relative(ROOT, bin).startsWith('..') ? bin : relative(ROOT, bin),
        bin,
        dist: join(dirname(dirname(bin)), 'dist/assistant.js'),
      });
    } else if (arg === '--node-arg' || arg.startsWith('--node-arg=')) nodeArgs.push(String(val('--node-arg')));
    else if (arg === '-h' || arg === '--help') usage('Benchmarks the built CLI against `node -e 0`.');
    else usage(`unknown argument: ${arg}`);
  }
  if (!Number.isInteger(runs) || runs < 1) usage('--runs needs a whole number of at least 1');
  // Relative paths in flags (--cpu-prof-dir=bench/…) are meant from here, not from the temporary project.
  for (let i = 0; i < nodeArgs.length; i++) {
    nodeArgs[i] = nodeArgs[i].replace(/^(--[\w-]+(?:dir|path|file)=)(?!\/)(.+)$/, (_, f: string, p: string) => `${f}${resolve(p)}`);
  }
  if (skipThis) {
    if (builds.length === 1) usage('--no-this-build needs a --bin');
    builds.shift();
  }
  if (builds.length > 1 || skipThis || nodeArgs.length) write = false;
}

// ───────────────────────────── checks before measuring ─────────────────────────────

if (Number(process.versions.node.split('.')[0]) < 24) {
  usage(`bench: needs Node 24 (got ${process.version}); run with PATH=node_modules/.bin:$PATH (npm run bench does).`);
}
for (const b of builds) {
  if (!existsSync(b.bin)) usage(`bench: ${b.bin} does not exist.`);
  if (!existsSync(b.dist)) usage(`bench: ${b.dist} is missing; run \`npm run build\` first.`);
}
if (!skipThis) {
  // A bundle older than the sources measures old code: say so (but measure anyway).
  const distTime = statSync(builds[0].dist).mtimeMs;
  const newer: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (statSync(p).mtimeMs > distTime) newer.push(relative(ROOT, p));
    }
  };
  walk(join(ROOT, 'src'));
  if (newer.length)
    process.stderr.write(
      `bench: warning: ${newer.length} file(s) under src/ are newer than dist/assistant.js (e.g. ${newer[0]}); run \`npm run build\` first to measure them.\n`,
    );
}

const haveTime = existsSync(TIME);
if (!haveTime) process.stderr.write(`bench: ${TIME} not found: measuring wall time only (no CPU time, no peak memory).\n`);

// ───────────────────────────── running one process ─────────────────────────────

interface Sample {
  /** Wall time in ms, measured here from spawn to exit (GNU time's own fork/exec included: about 1 ms). */
  wallMs: number;
  /** user + sys CPU in ms of the process and the children it waited for (shells, rg); 10 ms resolution. */
  cpuMs?: number;
  userMs?: number;
  sysMs?: number;
  /** Peak resident memory in KiB of the largest process of the tree (the CLI itself). */
  maxRssKiB?: number;
}

interface Proc {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  sample: Sample;
}

const tmpRoot = realpathSync(mkdtempSync(join(os.tmpdir(), 'assistant-bench-')));
let tmpSeq = 0;
function freshDirs(files: Record<string, string>): { dir: string; home: string } {
  const n = tmpSeq++;
  const dir = join(tmpRoot, `proj-${n}`);
  const home = join(tmpRoot, `home-${n}`);
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return { dir, home };
}

/** The environment of a run: no keys, proxies or Node flags from the machine; a throwaway HOME. */
function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(ANTHROPIC|OPENAI|GEMINI|GOOGLE|OLLAMA|ASSISTANT|CLAUDE)_/.test(k)) continue;
    if (/^(NODE_OPTIONS|NODE_COMPILE_CACHE|NODE_DISABLE_COMPILE_CACHE|NODE_V8_COVERAGE|TSX_.*|npm_.*)$/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, HOME: home, NO_COLOR: '1', ...extra };
}

function runProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Proc> {
  const timeFile = join(tmpRoot, `time-${tmpSeq++}.txt`);
  const [cmd, argv] = haveTime ? [TIME, ['-f', '%e %U %S %M', '-o', timeFile, NODE, ...args]] : [NODE, args];
  return new Promise((resolvePromise, reject) => {
    const start = performance.now();
    let end: number | undefined;
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', () => {
      end = performance.now();
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const sample: Sample = { wallMs: (end ?? performance.now()) - start };
      if (haveTime) {
        // GNU time writes "Command exited with non-zero status N" before the figures when N ≠ 0.
        const text = existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '';
        const m = /^([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/.exec(text.trim().split('\n').pop() ?? '');
        if (!m) {
          reject(new Error(`could not read GNU time's output ${JSON.stringify(text)}\nstderr: ${stderr}`));
          return;
        }
        sample.userMs = Number(m[2]) * 1000;
        sample.sysMs = Number(m[3]) * 1000;
        sample.cpuMs = sample.userMs + sample.sysMs;
        sample.maxRssKiB = Number(m[4]);
      }
      resolvePromise({ code, signal, stdout, stderr, sample });
    });
  });
}

// ───────────────────────────── scenarios ─────────────────────────────

class RunFailed extends Error {}

function check(ok: unknown, what: string, p: Proc): asserts ok {
  if (!ok)
    throw new RunFailed(
      `${what}\n  exit: ${p.code ?? p.signal}\n  stdout: ${p.stdout.slice(0, 2000)}\n  stderr: ${p.stderr.slice(0, 2000)}`,
    );
}

function parseResult(p: Proc): any {
  check(p.code === 0, 'the CLI did not exit 0', p);
  let result: any;
  try {
    result = JSON.parse(p.stdout);
  } catch {
    check(false, 'stdout is not one JSON result', p);
  }
  check(result?.type === 'result' && result.subtype === 'success' && result.is_error === false, 'the JSON result is not a success', p);
  check(Array.isArray(result.permission_denials) && result.permission_denials.length === 0, 'a tool call was denied', p);
  return result;
}

const PROJECT: Record<string, string> = {
  'package.json': '{\n  "name": "demo",\n  "type": "module",\n  "scripts": { "test": "node check.js" }\n}\n',
  'README.md': '# demo\n\nGreets and says goodbye. Run `npm test`.\n',
  'src/greet.js': 'export function greet(name) {\n  return "Hello, " + name;\n}\n',
  'src/farewell.js': 'export function farewell(name) {\n  return "Bye, " + name;\n}\n',
  'src/math.js': 'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n',
  'src/index.js':
    'import { greet } from "./greet.js";\nimport { farewell } from "./farewell.js";\nimport { add } from "./math.js";\n\nconsole.log(greet("world"), farewell("world"), add(1, 2));\n',
  'check.js':
    'import { readFileSync } from "node:fs";\nconst a = readFileSync("src/greet.js", "utf8");\nconst b = readFileSync("src/farewell.js", "utf8");\nif (!a.includes("Hi, ") || !b.includes("Goodbye, ")) { console.log("FAIL"); process.exit(1); }\nconsole.log("ALL OK");\n',
};

/** The 20 tool calls of `tools20`: 8 Read, 5 Grep, 5 Bash echo, 2 Edit (each file read before its edit). */
function toolSteps(): ReplyBuilder[] {
  return [
    reply().text('Let me look around.').tool('Grep', { pattern: 'export function', output_mode: 'files_with_matches' }),
    reply().tool('Read', { file_path: 'src/greet.js' }),
    reply().tool('Read', { file_path: 'src/farewell.js' }),
    reply().tool('Read', { file_path: 'src/math.js' }),
    reply().tool('Read', { file_path: 'src/index.js' }),
    reply().tool('Bash', { command: 'echo step 6' }),
    reply().tool('Grep', { pattern: 'return', output_mode: 'content', '-n': true }),
    reply().text('Changing the greeting.').tool('Edit', { file_path: 'src/greet.js', old_string: '"Hello, "', new_string: '"Hi, "' }),
    reply().tool('Read', { file_path: 'package.json' }),
    reply().tool('Bash', { command: 'echo step 10' }),
    reply().tool('Grep', { pattern: 'name', output_mode: 'count' }),
    reply().tool('Read', { file_path: 'README.md' }),
    reply().tool('Edit', { file_path: 'src/farewell.js', old_string: '"Bye, "', new_string: '"Goodbye, "' }),
    reply().tool('Bash', { command: 'echo step 14' }),
    reply().tool('Grep', { pattern: 'Hi, ', output_mode: 'content' }),
    reply().tool('Read', { file_path: 'src/greet.js' }),
    reply().tool('Bash', { command: 'echo step 17' }),
    reply().tool('Grep', { pattern: 'Goodbye', output_mode: 'files_with_matches' }),
    reply().tool('Read', { file_path: 'src/farewell.js' }),
    reply().tool('Bash', { command: 'echo done' }),
  ];
}
const FINAL_ANSWER = 'Both greetings are changed; everything else looks fine.';

// ───────────────────────────── hooks ─────────────────────────────

/**
 * The hook of `tools20-hooks`, for PreToolUse and PostToolUse alike: bash builtins only (no other
 * process), one line per call in a log outside the project (so Grep and the tools see the same
 * project as in tools20), to check that every hook really ran. `$HOME` is the run's fresh HOME.
 */
const HOOK_COMMAND = 'echo "$ASSISTANT_HOOK_EVENT $ASSISTANT_TOOL_NAME" >> "$HOME/hooks.log"';
const HOOK_SETTINGS = JSON.stringify(
  {
    hooks: {
      PreToolUse: [{ hooks: [{ type: 'command', command: HOOK_COMMAND }] }],
      PostToolUse: [{ hooks: [{ type: 'command', command: HOOK_COMMAND }] }],
    },
  },
  null,
  2,
);
/** The tool of each of the 20 calls, in order. */
const TOOL_NAMES = toolSteps().map((r) => {
  const tool = r.parts.find((p) => p.kind === 'tool');
  if (tool?.kind !== 'tool') throw new Error('every tools20 step has one tool call');
  return tool.name;
});
/** PreToolUse + PostToolUse on each of the 20 tool calls. */
const HOOK_CALLS = 2 * TOOL_NAMES.length;
/** Bare hook processes timed per round (after 2 untimed ones). */
const HOOK_PROCESS_SAMPLES = 20;

async function runTools20(model: FakeModel, build: Build, withHooks: boolean): Promise<Sample> {
  const { dir, home } = freshDirs(withHooks ? { ...PROJECT, '.assistant/settings.json': HOOK_SETTINGS } : PROJECT);
  model.reset();
  model.script(...toolSteps(), reply(FINAL_ANSWER));
  const p = await runProcess(
    [
      ...nodeArgs,
      build.bin,
      '-p',
      'Change "Hello" to "Hi" and "Bye" to "Goodbye".',
      '--permission-mode',
      'bypass',
      '--output-format',
      'json',
      ...MODEL_ARGS,
    ],
    dir,
    cleanEnv(home, model.env('anthropic')),
  );
  const result = parseResult(p);
  check(result.num_turns === 21, `num_turns is ${result.num_turns}, not 21`, p);
  check(result.result === FINAL_ANSWER, 'the answer is not the scripted text', p);
  check(model.requests.length === 21, `the model got ${model.requests.length} requests, not 21`, p);
  for (let i = 1; i < 21; i++) {
    const results = lastToolResults(model.requests[i]);
    check(results.length === 1, `request ${i} carries ${results.length} tool results, not 1`, p);
    check(results[0].isError !== true, `tool call ${i} failed: ${results[0].content.slice(0, 500)}`, p);
  }
  check(/step 6/.test(lastToolResults(model.requests[6])[0].content), 'the first Bash echo did not come back', p);
  check(/src\/greet\.js/.test(lastToolResults(model.requests[1])[0].content), 'the first Grep found nothing', p);
  check(readFileSync(join(dir, 'src/greet.js'), 'utf8').includes('"Hi, "'), 'src/greet.js was not edited', p);
  check(readFileSync(join(dir, 'src/farewell.js'), 'utf8').includes('"Goodbye, "'), 'src/farewell.js was not edited', p);
  const log = join(home, 'hooks.log');
  if (withHooks) {
    // A benchmark of hooks that did not run is worthless: PreToolUse then PostToolUse, for every call, in order.
    const lines = existsSync(log) ? readFileSync(log, 'utf8').trimEnd().split('\n') : [];
    const want = TOOL_NAMES.flatMap((t) => [`PreToolUse ${t}`, `PostToolUse ${t}`]);
    check(lines.length === HOOK_CALLS, `the hooks ran ${lines.length} times, not ${HOOK_CALLS} (${log})`, p);
    const bad = want.findIndex((w, i) => lines[i] !== w);
    check(bad < 0, `hook call ${bad + 1} logged ${JSON.stringify(lines[bad])}, not ${JSON.stringify(want[bad])}`, p);
  } else {
    check(!existsSync(log), 'a hook ran in the session without hooks', p);
  }
  return p.sample;
}

/** The JSON a PreToolUse hook gets on stdin in tools20-hooks (a Read call), for the bare hook process. */
function hookInput(dir: string, home: string): string {
  return `${JSON.stringify({
    session_id: '0b7c6c1e-5a43-4f57-9d55-3f0f1b1e2a6d',
    transcript_path: join(home, '.assistant/projects/x/0b7c6c1e-5a43-4f57-9d55-3f0f1b1e2a6d.jsonl'),
    cwd: dir,
    prompt_id: '4c1b2f8e-0d6a-4e3b-9a57-2e6d1f0c9b84',
    permission_mode: 'bypassPermissions',
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_input: { file_path: join(dir, 'src/greet.js') },
    tool_use_id: 'toolu_01',
  })}\n`;
}

/**
 * The hook process alone, as any runner must pay for it: spawn `bash -c HOOK_COMMAND` from Node
 * with the hook's JSON on stdin (then end-of-file) and stdout/stderr piped, until 'close'. Timed
 * here, in the benchmark's own process. Fork time grows with the parent's resident memory, so the
 * benchmark's RSS at the time is kept beside it. Each sample is followed by one of the same process
 * in a session of its own (`detached`, as the runner must start it for the process-group kill and
 * so that it has no terminal): `ownSessionMs`, what that costs the kernel (a scheduling autogroup
 * per session where those are on) is known apart.
 */
async function bareHookProcess(): Promise<{ ms: number[]; syncMs: number[]; ownSessionMs: number[]; rssMiB: number }> {
  const { dir, home } = freshDirs({});
  const env = { ...cleanEnv(home), ASSISTANT_PROJECT_DIR: dir, ASSISTANT_HOOK_EVENT: 'PreToolUse', ASSISTANT_TOOL_NAME: 'Read' };
  const input = hookInput(dir, home);
  const once = (detached = false) =>
    new Promise<[number, number]>((resolvePromise, reject) => {
      const start = performance.now();
      const child = spawn('bash', ['-c', HOOK_COMMAND], { cwd: dir, env, detached, stdio: ['pipe', 'pipe', 'pipe'] });
      const forked = performance.now() - start;
      child.stdin.on('error', () => {});
      child.stdin.end(input);
      child.stdout.resume();
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolvePromise([performance.now() - start, forked]) : reject(new Error(`bash -c ${HOOK_COMMAND} exited ${code}`)),
      );
    });
  const ms: number[] = [];
  const syncMs: number[] = [];
  const ownSessionMs: number[] = [];
  for (let i = 0; i < HOOK_PROCESS_SAMPLES + 2; i++) {
    const [t, sync] = await once();
    const [own] = await once(true);
    if (i >= 2) {
      ms.push(t);
      syncMs.push(sync);
      ownSessionMs.push(own);
    }
  }
  const lines = readFileSync(join(home, 'hooks.log'), 'utf8').trimEnd().split('\n');
  if (lines.length !== 2 * (HOOK_PROCESS_SAMPLES + 2) || lines.some((l) => l !== 'PreToolUse Read'))
    throw new Error(`the bare hook process did not log what it should: ${lines.slice(0, 3).join(' / ')}`);
  return { ms, syncMs, ownSessionMs, rssMiB: process.memoryUsage().rss / 1048576 };
}

interface Scenario {
  key: 'baseline' | 'version' | 'hello' | 'tools20' | 'tools20-hooks';
  label: string;
  run(model: FakeModel, build: Build): Promise<Sample>;
}

const scenarios: Scenario[] = [
  {
    key: 'baseline',
    label: '`node -e 0`',
    async run() {
      const { dir, home } = freshDirs({});
      const p = await runProcess(['-e', '0'], dir, cleanEnv(home));
      check(p.code === 0, 'node -e 0 failed', p);
      return p.sample;
    },
  },
  {
    key: 'version',
    label: '`--version`',
    async run(_model, build) {
      const { dir, home } = freshDirs({});
      const p = await runProcess([...nodeArgs, build.bin, '--version'], dir, cleanEnv(home));
      check(p.code === 0, '--version did not exit 0', p);
      check(p.stdout.trim() === VERSION, `--version printed something other than ${VERSION}`, p);
      return p.sample;
    },
  },
  {
    key: 'hello',
    label: 'hello (1 turn)',
    async run(model, build) {
      const { dir, home } = freshDirs(PROJECT);
      model.reset();
      model.script(reply('Hello! What shall we work on?'));
      const p = await runProcess(
        [...nodeArgs, build.bin, '-p', 'hello', '--permission-mode', 'bypass', '--output-format', 'json', ...MODEL_ARGS],
        dir,
        cleanEnv(home, model.env('anthropic')),
      );
      const result = parseResult(p);
      check(result.num_turns === 1, `num_turns is ${result.num_turns}, not 1`, p);
      check(result.result === 'Hello! What shall we work on?', 'the answer is not the scripted text', p);
      check(model.requests.length === 1, `the model got ${model.requests.length} requests, not 1`, p);
      return p.sample;
    },
  },
  {
    key: 'tools20',
    label: '20 tool calls (21 turns)',
    run: (model, build) => runTools20(model, build, false),
  },
  {
    key: 'tools20-hooks',
    label: '20 tool calls + PreToolUse/PostToolUse hooks (40 hook calls)',
    run: (model, build) => runTools20(model, build, true),
  },
];

// ───────────────────────────── statistics ─────────────────────────────

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
const stats = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });

interface Summary {
  scenario: Scenario['key'];
  label: string;
  build: string;
  runs: number;
  wallMs: { median: number; min: number; max: number };
  cpuMs?: { median: number; min: number; max: number };
  maxRssMiB?: { median: number; min: number; max: number };
  warmup: Sample;
  samples: Sample[];
}

const fmtMs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const fmtMiB = (mib: number) => `${mib.toFixed(1)} MiB`;
const fmtX = (r: number) => `${r.toFixed(2)}×`;

interface Target {
  build: string;
  name: string;
  value: string;
  met: boolean;
}

function targetsOf(build: string, of: (k: Scenario['key']) => Summary | undefined): Target[] {
  const base = of('baseline')!;
  const t: Target[] = [];
  const v = of('version');
  const hello = of('hello');
  const tools = of('tools20');
  if (v)
    t.push({
      build,
      name: 'start-up (`--version`) within 2× of `node -e 0`',
      value: fmtX(v.wallMs.median / base.wallMs.median),
      met: v.wallMs.median <= 2 * base.wallMs.median,
    });
  if (hello) t.push({ build, name: 'hello under 0.15 s', value: fmtMs(hello.wallMs.median), met: hello.wallMs.median < 150 });
  if (tools) t.push({ build, name: '20 tool calls under 0.4 s', value: fmtMs(tools.wallMs.median), met: tools.wallMs.median < 400 });
  const cli = [v, hello, tools].filter((s): s is Summary => !!s?.maxRssMiB);
  if (cli.length) {
    const peak = Math.max(...cli.map((s) => s.maxRssMiB!.median));
    t.push({ build, name: 'peak memory under 100 MiB (largest median RSS of the CLI scenarios)', value: fmtMiB(peak), met: peak < 100 });
  }
  return t;
}

interface HookFigures {
  build: string;
  /** (median wall of tools20-hooks − median wall of tools20) / HOOK_CALLS. */
  perCallMs: number;
  /** The median over rounds of (tools20-hooks − tools20) / HOOK_CALLS within the round. */
  perCallPairedMs: number;
  /** Median of the bare hook processes (spawn bash -c + stdin, here). */
  bareMs: number;
  /** Of which spawn() itself blocks (fork and exec of bash): median. */
  bareSyncMs: number;
  bareSamples: number;
  /** The benchmark's own RSS while timing them (fork time grows with it). */
  benchRssMiB: number;
  /** perCallMs − bareMs: what our runner adds beyond the hook process. */
  runnerMs: number;
  /** Median of the same bare process in a session of its own (detached). */
  ownSessionMs: number;
}

function hookFigures(
  build: string,
  plain: Summary,
  hooked: Summary,
  bare: number[],
  bareSync: number[],
  rss: number[],
  ownSession: number[],
): HookFigures {
  const perCallMs = (hooked.wallMs.median - plain.wallMs.median) / HOOK_CALLS;
  const perCallPairedMs = median(hooked.samples.map((h, i) => (h.wallMs - plain.samples[i].wallMs) / HOOK_CALLS));
  const bareMs = median(bare);
  return {
    build,
    perCallMs,
    perCallPairedMs,
    bareMs,
    bareSyncMs: median(bareSync),
    bareSamples: bare.length,
    benchRssMiB: median(rss),
    runnerMs: perCallMs - bareMs,
    ownSessionMs: median(ownSession),
  };
}

// ───────────────────────────── main ─────────────────────────────

async function main(): Promise<number> {
  if (only) for (const k of only) if (!scenarios.some((s) => s.key === k)) usage(`--only: unknown scenario "${k}"`);
  if (only?.includes('tools20-hooks') && !only.includes('tools20')) {
    process.stderr.write('bench: tools20-hooks is measured against tools20: running both\n');
    only.push('tools20');
  }
  const chosen = scenarios.filter((s) => s.key === 'baseline' || !only || only.includes(s.key));
  // Every (scenario, build) pair; the baseline once.
  const jobs = chosen.flatMap((s) => (s.key === 'baseline' ? [{ s, b: builds[0] }] : builds.map((b) => ({ s, b }))));
  const id = (j: { s: Scenario; b: Build }) => `${j.s.key}\u0000${j.b.label}`;
  const samples = new Map<string, Sample[]>(jobs.map((j) => [id(j), []]));
  const warmups = new Map<string, Sample>();
  const withHooks = chosen.some((s) => s.key === 'tools20-hooks');
  const hookProcessMs: number[] = [];
  const hookProcessSyncMs: number[] = [];
  const hookProcessRssMiB: number[] = [];
  const hookProcessOwnSessionMs: number[] = [];

  const model = await startFakeModel();
  try {
    process.stderr.write(
      `bench: ${os.availableParallelism()} CPUs, Node ${process.version}, ${runs} runs after 1 warm-up${nodeArgs.length ? `, CLI flags ${nodeArgs.join(' ')}` : ''}\n`,
    );
    for (const j of jobs) warmups.set(id(j), await j.s.run(model, j.b));
    if (withHooks) await bareHookProcess(); // warm-up
    for (let i = 0; i < runs; i++) {
      for (const j of jobs) samples.get(id(j))!.push(await j.s.run(model, j.b));
      if (withHooks) {
        const h = await bareHookProcess();
        hookProcessMs.push(...h.ms);
        hookProcessSyncMs.push(...h.syncMs);
        hookProcessRssMiB.push(h.rssMiB);
        hookProcessOwnSessionMs.push(...h.ownSessionMs);
      }
      process.stderr.write(`bench: round ${i + 1}/${runs} done\n`);
    }
  } catch (e) {
    if (e instanceof RunFailed) {
      process.stderr.write(`bench: FAILED — a benchmark of a failing run is worthless:\n${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    await model.close();
    rmSync(tmpRoot, { recursive: true, force: true });
  }

  const summaries: Summary[] = jobs.map((j) => {
    const xs = samples.get(id(j))!;
    return {
      scenario: j.s.key,
      label: j.s.label,
      build: j.b.label,
      runs: xs.length,
      wallMs: stats(xs.map((x) => x.wallMs)),
      cpuMs: haveTime ? stats(xs.map((x) => x.cpuMs!)) : undefined,
      maxRssMiB: haveTime ? stats(xs.map((x) => x.maxRssKiB! / 1024)) : undefined,
      warmup: warmups.get(id(j))!,
      samples: xs,
    };
  });
  const base = summaries.find((s) => s.scenario === 'baseline')!;

  const multi = builds.length > 1;
  const lines = [
    `Node ${process.version}, ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), medians of ${runs} runs after 1 warm-up` +
      `${nodeArgs.length ? `, CLI flags: ${nodeArgs.join(' ')}` : ''}${haveTime ? '' : ` — NO GNU time (${TIME}): wall time only`}`,
    '',
    `| scenario |${multi ? ' build |' : ''} wall | × \`node -e 0\` |${haveTime ? ' CPU (user+sys) | × `node -e 0` | peak RSS | × `node -e 0` |' : ''}`,
    `|---|${multi ? '---|' : ''}---:|---:|${haveTime ? '---:|---:|---:|---:|' : ''}`,
  ];
  for (const s of summaries) {
    const cells = [
      s.label,
      ...(multi ? [s.scenario === 'baseline' ? '' : s.build] : []),
      fmtMs(s.wallMs.median),
      fmtX(s.wallMs.median / base.wallMs.median),
    ];
    if (haveTime) {
      cells.push(fmtMs(s.cpuMs!.median), fmtX(s.cpuMs!.median / base.cpuMs!.median));
      cells.push(fmtMiB(s.maxRssMiB!.median), fmtX(s.maxRssMiB!.median / base.maxRssMiB!.median));
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }

  if (multi) {
    // The machine wanders between rounds: each round's difference (other build − this build) is
    // steadier than the difference of the medians.
    lines.push(
      '',
      `| paired, per round: other build − ${builds[0].label} | build | wall (median of ${runs}) | rounds other faster | CPU | peak RSS |`,
      '|---|---|---:|---:|---:|---:|',
    );
    for (const s of summaries) {
      if (s.scenario === 'baseline' || s.build === builds[0].label) continue;
      const mine = summaries.find((m) => m.scenario === s.scenario && m.build === builds[0].label)!;
      const d = (f: (x: Sample) => number) => median(s.samples.map((x, i) => f(x) - f(mine.samples[i])));
      const faster = s.samples.filter((x, i) => x.wallMs < mine.samples[i].wallMs).length;
      lines.push(
        `| ${s.label} | ${s.build} | ${d((x) => x.wallMs).toFixed(1)} ms | ${faster}/${runs} | ${haveTime ? `${d((x) => x.cpuMs!).toFixed(0)} ms` : '–'} | ${haveTime ? `${(d((x) => x.maxRssKiB!) / 1024).toFixed(1)} MiB` : '–'} |`,
      );
    }
  }
  const of = (b: Build) => (k: Scenario['key']) => summaries.find((s) => s.scenario === k && (k === 'baseline' || s.build === b.label));
  const targets = builds.flatMap((b) => targetsOf(b.label, of(b)));
  const hooks = withHooks
    ? builds.map((b) =>
        hookFigures(
          b.label,
          of(b)('tools20')!,
          of(b)('tools20-hooks')!,
          hookProcessMs,
          hookProcessSyncMs,
          hookProcessRssMiB,
          hookProcessOwnSessionMs,
        ),
      )
    : [];
  for (const h of hooks)
    targets.push({
      build: h.build,
      name: 'hooks add under 2 ms per hook call beyond the hook process itself',
      value: `${h.runnerMs.toFixed(1)} ms`,
      met: h.runnerMs < 2,
    });
  if (hooks.length) {
    lines.push(
      '',
      `| hooks: ${HOOK_CALLS} hook calls (PreToolUse + PostToolUse on ${TOOL_NAMES.length} tool calls) |${multi ? ' build |' : ''} median |`,
      `|---|${multi ? '---|' : ''}---:|`,
    );
    const row = (name: string, h: HookFigures, v: string) => lines.push(`| ${name} |${multi ? ` ${h.build} |` : ''} ${v} |`);
    for (const h of hooks) {
      row(`per hook call: (wall(tools20-hooks) − wall(tools20)) / ${HOOK_CALLS}`, h, `${h.perCallMs.toFixed(2)} ms`);
      row(`  the same from each round's difference (median of ${runs})`, h, `${h.perCallPairedMs.toFixed(2)} ms`);
      row(
        `bare hook process: spawn \`bash -c\` + JSON on stdin, from Node (${h.bareSamples} in this process, RSS ${h.benchRssMiB.toFixed(0)} MiB; spawn() blocks ${h.bareSyncMs.toFixed(2)} ms of it)`,
        h,
        `${h.bareMs.toFixed(2)} ms`,
      );
      row('**added by our runner** beyond the hook process', h, `**${h.runnerMs.toFixed(2)} ms**`);
      row(
        'bare hook process in a session of its own (`detached`, as the process-group kill needs), interleaved with the above',
        h,
        `${h.ownSessionMs.toFixed(2)} ms`,
      );
      row('added by our runner beyond the hook process in its own session', h, `${(h.perCallMs - h.ownSessionMs).toFixed(2)} ms`);
    }
  }
  lines.push('', `| target |${multi ? ' build |' : ''} measured | |`, `|---|${multi ? '---|' : ''}---:|---|`);
  for (const t of targets) lines.push(`| ${t.name} |${multi ? ` ${t.build} |` : ''} ${t.value} | ${t.met ? 'met' : '**not met**'} |`);
  process.stdout.write(`${lines.join('\n')}\n`);

  if (write) {
    const out = join(ROOT, 'bench/results/latest.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cpus: os.availableParallelism(),
          cpuModel: os.cpus()[0]?.model,
          platform: `${os.platform()} ${os.release()}`,
          runs,
          gnuTime: haveTime,
          commands: {
            baseline: 'node -e 0',
            version: 'node bin/assistant.js --version',
            hello: `node bin/assistant.js -p hello --permission-mode bypass --output-format json ${MODEL_ARGS.join(' ')}`,
            tools20: `node bin/assistant.js -p 'Change "Hello" to "Hi" and "Bye" to "Goodbye".' --permission-mode bypass --output-format json ${MODEL_ARGS.join(' ')}`,
            'tools20-hooks': `tools20 with .assistant/settings.json ${JSON.stringify(JSON.parse(HOOK_SETTINGS))}`,
          },
          targets,
          ...(hooks.length
            ? { hooks: { hookCommand: HOOK_COMMAND, hookCalls: HOOK_CALLS, figures: hooks, hookProcessSamplesMs: hookProcessMs } }
            : {}),
          scenarios: Object.fromEntries(summaries.map((s) => [s.scenario, s])),
        },
        null,
        2,
      )}\n`,
    );
    process.stderr.write(`bench: wrote ${relative(ROOT, out)}\n`);
  }
  return 0;
}

process.exitCode = await main();
