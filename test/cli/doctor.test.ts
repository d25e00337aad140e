import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { doctorCommand, type DoctorContext } from '../../src/cli/doctor.ts';
import { makeProject } from '../fakes/project.ts';

const REPLAY = fileURLToPath(new URL('../../examples/demo-replay.json', import.meta.url));

async function doctor(
  argv: string[],
  ctx: Partial<DoctorContext> & { cwd: string; home: string },
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await doctorCommand(
    argv,
    (s) => {
      out += s;
    },
    {
      env: { PATH: process.env.PATH },
      err: (s) => {
        err += s;
      },
      probeTimeoutMs: 2000,
      ...ctx,
    },
  );
  return { code, out, err };
}

/** A server answering every request with `status`, recording method and path. */
async function server(status: number): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const s: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => s.close(() => r())) };
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const s = await server(200);
  await s.close();
  return s.url;
}

test('doctor reports a malformed permission rule as a problem at its line and column (F5)', async () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': '{\n  "permissions": {"allow": ["Read", "Bash(touch"], "deny": ["Frob"]}\n}\n',
  });
  const r = await doctor(['--model', `replay:${REPLAY}`], { cwd: dir, home });
  assert.equal(r.code, 1, r.out);
  assert.ok(r.out.includes(`✗ permission rule: ${dir}/.assistant/settings.json:2:37: "Bash(touch" is not a rule`), r.out);
  assert.match(r.out, /^! .*settings\.json:2:61: rule "Frob" names no tool/m);
  assert.match(r.out, /1 problem found\./);
});

test('doctor takes --settings anywhere, --model, --help, and refuses unknown options with exit 2 (F8)', async () => {
  const { dir, home } = makeProject({ 'bad.json': '{"model": \'x\'}', 'good.json': '{"permissions":{"allow":["Read"]}}' });
  const bad = await doctor(['--model', `replay:${REPLAY}`, '--settings', 'bad.json'], { cwd: dir, home });
  assert.equal(bad.code, 1);
  assert.match(bad.out, /✗ .*bad\.json:1:11: not valid JSON: a string in single quotes/);
  const good = await doctor(['--model', `replay:${REPLAY}`, '--settings', 'good.json'], { cwd: dir, home });
  assert.equal(good.code, 0, good.out);
  assert.match(good.out, /✓ model: replay:/);
  assert.match(good.out, /✓ permission rules: 1 in settings/);
  assert.doesNotMatch(good.out, /provider:/, 'no network check for a replay');
  const unknown = await doctor(['--frob'], { cwd: dir, home });
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown option '--frob'/);
  assert.equal(unknown.out, '', 'nothing checked on bad usage');
  assert.equal((await doctor(['extra'], { cwd: dir, home })).code, 2);
  const help = await doctor(['--help'], { cwd: dir, home });
  assert.equal(help.code, 0);
  assert.match(help.out, /--settings <file-or-json>/);
  assert.match(help.out, /--model <provider:model>/);
});

test('doctor checks that the provider answers, with a GET of its model list and never a prompt (F8)', async () => {
  const { dir, home } = makeProject();
  const up = await server(200);
  try {
    const r = await doctor([], { cwd: dir, home, env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: up.url } });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /✓ provider: anthropic:.*reachable at http:\/\/127\.0\.0\.1:\d+ \(HTTP 200\)/);
    assert.deepEqual(up.seen, ['GET /v1/models']);
  } finally {
    await up.close();
  }

  const refused = await server(401);
  try {
    const r = await doctor(['--model', 'openai:gpt-5'], {
      cwd: dir,
      home,
      env: { PATH: process.env.PATH, OPENAI_API_KEY: 'bad', OPENAI_BASE_URL: `${refused.url}/v1` },
    });
    assert.equal(r.code, 1);
    assert.match(r.out, /✗ provider: openai:gpt-5: .* refused the key \(HTTP 401\)/);
    assert.deepEqual(refused.seen, ['GET /v1/models']);
  } finally {
    await refused.close();
  }

  const down = await closedPort();
  const r = await doctor([], { cwd: dir, home, env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: down } });
  assert.equal(r.code, 1);
  assert.match(r.out, /✗ provider: anthropic:.*cannot reach http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
});

test('a provider that never answers is a problem after the timeout', async () => {
  const { dir, home } = makeProject();
  const hang = createServer(() => {
    /* never answers */
  });
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    const started = Date.now();
    const r = await doctor([], {
      cwd: dir,
      home,
      probeTimeoutMs: 300,
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url },
    });
    assert.equal(r.code, 1);
    assert.match(r.out, /✗ provider: .*no answer within 0\.3 s/);
    assert.ok(Date.now() - started < 5000);
  } finally {
    hang.closeAllConnections();
    hang.close();
  }
});
