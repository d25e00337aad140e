// `npm test`: builds the bundle (skipped when dist/ was built from the same sources), then
// type-checks and runs every test at the same time. Exits non-zero when any of the three fails.
//   npm test                          everything
//   npm test -- test/e2e/hooks-json.test.ts test/hooks/   some files (or folders) only; still builds and type-checks
//   npm run test:quick                every test outside test/e2e/ (they need no build), no build, no type-check
// Environment: TEST_CONCURRENCY (test files at once; default 4), TEST_REPORTER (node:test reporter).
// See test/README.md.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);
const STAMP = 'node_modules/.cache/test-build-inputs';
mkdirSync('node_modules/.cache', { recursive: true });

/** Every file under `dir`, recursively (sorted, so the hash is stable). */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** A hash of what the bundle is built from: sources, build script, installed packages. */
function buildInputs() {
  const h = createHash('sha1');
  const inputs = [...files('src'), 'scripts/build.mjs', 'scripts/devtools-stub.mjs', 'package.json', 'node_modules/.package-lock.json'];
  for (const f of inputs)
    h.update(f)
      .update('\0')
      .update(existsSync(f) ? readFileSync(f) : '')
      .update('\0');
  return h.digest('hex');
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: opts.env ?? process.env });
    let out = '';
    if (opts.capture) {
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const started = Date.now();
const secs = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

const quick = process.argv.includes('--quick');
const wanted = process.argv.slice(2).filter((a) => a !== '--quick');
const concurrency = process.env.TEST_CONCURRENCY ?? '4';
const reporter = process.env.TEST_REPORTER ? [`--test-reporter=${process.env.TEST_REPORTER}`] : [];
const testArgs = (targets) => ['--import', './test/loader.mjs', '--test', `--test-concurrency=${concurrency}`, ...reporter, ...targets];

if (quick) {
  const unit = files('test').filter((f) => f.endsWith('.test.ts') && !f.startsWith('test/e2e/'));
  const r = await run(process.execPath, testArgs(wanted.length ? wanted : unit));
  console.log(`test:quick: ${r.code === 0 ? 'passed' : 'FAILED'} in ${secs()}`);
  process.exit(r.code);
}

// 1. Build, unless dist/ already holds a build of these exact inputs: the hash npm test wrote when it
// built them, or a bundle newer than every input (as `npm ci`'s prepare script leaves it).
const inputs = buildInputs();
const built = existsSync('dist/assistant.js') ? statSync('dist/assistant.js').mtimeMs : 0;
const newest = Math.max(
  ...[...files('src'), 'scripts/build.mjs', 'scripts/devtools-stub.mjs', 'package.json', 'node_modules/.package-lock.json'].map((f) =>
    existsSync(f) ? statSync(f).mtimeMs : Infinity,
  ),
);
const fresh = built > 0 && ((existsSync(STAMP) && readFileSync(STAMP, 'utf8') === inputs) || built > newest);
if (fresh) {
  writeFileSync(STAMP, inputs);
  console.log('build: dist/ is up to date');
} else {
  const b = await run(process.execPath, ['scripts/build.mjs']);
  if (b.code !== 0) process.exit(b.code);
  writeFileSync(STAMP, inputs);
  console.log(`build: done (${secs()})`);
}

// 2. Type-check and test side by side: tsc is a few seconds of CPU; the tests wait on children a lot.
// Every test/**/*.test.ts, longest first so that no long file is left to run alone at the end: the
// end-to-end ones first (they wait on the CLIs they start), and within each group the larger files
// (more tests) first.
const size = (f) => statSync(f).size;
const all = files('test')
  .filter((f) => f.endsWith('.test.ts'))
  .sort((a, b) => size(b) - size(a));
const targets =
  wanted.length > 0
    ? wanted.flatMap((w) =>
        existsSync(w) && statSync(w).isDirectory()
          ? files(w)
              .filter((f) => f.endsWith('.test.ts'))
              .map((f) => relative(ROOT, f))
          : [w],
      )
    : [...all.filter((f) => f.startsWith('test/e2e/')), ...all.filter((f) => !f.startsWith('test/e2e/'))];
const tsc = run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], { capture: true });
// The formatter and linter (Biome, biome.json) check the whole tree on a full run; `npm run format`
// fixes what they can.
const lint =
  wanted.length > 0
    ? { code: 0, out: '' }
    : run(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'ci', '--reporter=summary', '--max-diagnostics=50', '.'], {
        capture: true,
      });
const tests = run(process.execPath, testArgs(targets));
const [t, l, r] = await Promise.all([tsc, lint, tests]);
if (t.code !== 0) process.stdout.write(`\ntypecheck failed (tsc --noEmit -p .):\n${t.out}`);
else console.log(`typecheck: no errors`);
if (l.code !== 0) process.stdout.write(`\nformat/lint failed (npm run lint; npm run format fixes formatting):\n${l.out}`);
else if (wanted.length === 0) console.log(`format and lint: no errors`);
console.log(`npm test: ${t.code === 0 && l.code === 0 && r.code === 0 ? 'passed' : 'FAILED'} in ${secs()}`);
process.exit(t.code || l.code || r.code);
