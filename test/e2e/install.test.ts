import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeProject } from '../fakes/project.ts';
import { cleanEnv } from './cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The package as a user gets it: packed (from a copy, with the manifest `npm pack` ships, so the
 * suite's own dist/ is not rebuilt under the other tests), installed into a fresh prefix with npm,
 * and run from an unrelated directory with a fresh HOME on the installed bin.
 */
test('the packed tarball installs into a fresh prefix and runs from another directory: --version, a replay with Bash and Grep', () => {
  const stage = mkdtempSync(join(tmpdir(), 'assistant-pack-'));
  for (const f of ['package.json', 'README.md', 'bin', 'dist', 'schema', 'examples', 'scripts'])
    cpSync(join(ROOT, f), join(stage, f), { recursive: true });
  const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  execFileSync(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], { cwd: stage });
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent'], { cwd: stage, env: npmEnv });
  const tgz = readdirSync(stage).find((f) => f.endsWith('.tgz'));
  assert.ok(tgz, 'npm pack made a tarball');
  const listing = execFileSync('tar', ['-tzf', join(stage, tgz!)], { encoding: 'utf8' });
  assert.match(listing, /package\/dist\/assistant\.js/, 'the bundle is in the tarball');
  assert.match(listing, /package\/dist\/tree-sitter-bash\.wasm/);
  assert.doesNotMatch(listing, /package\/src\//, 'sources stay out');
  const manifest = JSON.parse(execFileSync('tar', ['-xOzf', join(stage, tgz!), 'package/package.json'], { encoding: 'utf8' }));
  assert.equal(manifest.scripts.prepare, undefined, 'no build script for the installer to run');
  assert.equal(manifest.name, 'assistant-code');
  assert.deepEqual(Object.keys(manifest.bin), ['assistant']);

  const prefix = mkdtempSync(join(tmpdir(), 'assistant-prefix-'));
  const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', join(stage, tgz!)], {
    encoding: 'utf8',
    env: npmEnv,
  });
  assert.equal(install.status, 0, install.stderr);
  assert.doesNotMatch(install.stderr, /install-scripts|ERR!/, 'the install has nothing to build');

  const { dir, home } = makeProject({ 'notes.md': '# notes\nassistant was here\n' });
  const replay = join(dir, 'replay.json');
  writeFileSync(
    replay,
    JSON.stringify({
      turns: [
        {
          tool_calls: [
            { name: 'Bash', input: { command: 'ls -la | wc -l' } },
            { name: 'Grep', input: { pattern: 'was here', output_mode: 'content' } },
          ],
        },
        { text: 'Looked around.' },
      ],
    }),
  );
  mkdirSync(home, { recursive: true });
  // Node 24 (this test's own) first on PATH, as for a user with a supported Node.
  const env = cleanEnv(home, { PATH: `${dirname(process.execPath)}:${process.env.PATH}` });
  const bin = join(prefix, 'bin', 'assistant');
  const version = spawnSync(bin, ['--version'], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  assert.equal(version.stderr, '', 'a supported Node gets no warning');
  const run = spawnSync(bin, ['-p', 'look around', '--model', `replay:${replay}`, '--output-format', 'stream-json', '--verbose'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const results = run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'user')
    .flatMap((e) => e.message.content);
  assert.equal(results.length, 2);
  assert.ok(
    results.every((r: { is_error?: boolean }) => !r.is_error),
    JSON.stringify(results),
  );
  assert.match(JSON.stringify(results[1]), /notes\.md.*was here/, 'Grep ran with the installed ripgrep');
  assert.match(JSON.parse(run.stdout.trim().split('\n').at(-1)!).result, /Looked around\./);

  // The SDK from the same install: `import { query } from 'assistant-code'` (docs/sdk.md).
  for (const f of ['dist/sdk.js', 'dist/sdk.d.ts', 'schema/stream-json.schema.json'])
    assert.match(listing, new RegExp(`package/${f.replace('.', '\\.')}`), f);
  const program = join(prefix, 'lib', 'sdk-program.mjs'); // beside lib/node_modules, where the package name resolves
  writeFileSync(
    program,
    `import { query } from 'assistant-code';
for await (const m of query({ prompt: 'look around', options: { cwd: ${JSON.stringify(dir)}, model: 'replay:${replay}' } })) if (m.type === 'result') console.log(m.result);\n`,
  );
  const sdk = spawnSync(process.execPath, [program], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(sdk.status, 0, sdk.stderr);
  assert.equal(sdk.stdout, 'Looked around.\n');
});
