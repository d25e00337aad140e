import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

// The real kernel and the real bubblewrap (SPEC §13): `.ci/run` installs bubblewrap and socat.
let model: FakeModel;
let allowed: Server;
let other: Server;
const port = (s: Server) => (s.address() as { port: number }).port;

before(async () => {
  model = await startFakeModel();
  allowed = createServer((_q, r) => r.end('answer from the allowed server\n')).listen(0, '127.0.0.1');
  other = createServer((_q, r) => r.end('answer from the other server\n')).listen(0, '127.0.0.1');
  await Promise.all([allowed, other].map((s) => new Promise((r) => (s.listening ? r(undefined) : s.once('listening', r)))));
});
after(async () => {
  await model.close();
  allowed.close();
  other.close();
});

const env = (extra: Record<string, string> = {}) => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl, ...extra });
const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];

test('--sandbox: commands run without a question, inside; writes outside, secrets, settings and other hosts fail, and the model is told', async () => {
  // A path deny rule, not a Bash one: under a Bash deny rule, inline code (`python3 -c`) asks even in the sandbox.
  const settings = JSON.stringify({ permissions: { deny: ['Edit(keep.txt)'], ask: ['Bash(git push:*)'] } });
  const { dir, home } = makeProject({ '.assistant/settings.json': settings, 'keep.txt': 'keep\n' });
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  const out = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-outside-')));
  const a = `http://localhost:${port(allowed)}/`;
  const b = `http://127.0.0.1:${port(other)}/`;
  const fetchJs = (url: string) =>
    `node -e "fetch('${url}').then((r) => r.text()).then((t) => console.log('fetched:', t.trim()), (e) => console.log('fetch failed:', e.message))"`;
  const commands = [
    'echo inside > made.txt && cat made.txt && echo "tmp=$TMPDIR"',
    `python3 -c "open('${out}/py.txt', 'w')"; node -e "require('fs').writeFileSync('${out}/node.txt', 'x')"`,
    'cat ~/.ssh/id_rsa',
    // The name is built at run time, so no rule can see it: the sandbox stops the write.
    `python3 -c "open('.assist' + 'ant/settings.json', 'w').write('{}')"`,
    `curl -sS -f ${a}; curl -sS -f ${b}; ${fetchJs(b)}; ${fetchJs(a)}`,
    // A detached background process (its own session, outside the command's process group) is still inside.
    `setsid nohup sh -c '{ echo bg > ${out}/bg.txt; } 2> bg.log; echo done >> bg.log' > /dev/null 2>&1 & for i in $(seq 100); do grep -q done bg.log 2>/dev/null && break; sleep 0.05; done; cat bg.log`,
    'rm keep.txt',
    'git push origin main',
  ];
  model.reset();
  let first = reply();
  for (const command of commands) first = first.tool('Bash', { command });
  model.script(first, reply().text('done'));
  const r = await runCli(
    [
      '-p',
      'go',
      '--sandbox',
      '--output-format',
      'stream-json',
      '--verbose',
      '--settings',
      JSON.stringify({ sandbox: { network: { allowedDomains: ['localhost'] } } }),
      ...MODEL,
    ],
    { cwd: dir, home, env: env(), timeoutMs: 60_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const result = lines.at(-1);
  // Only the deny rule and the ask rule stopped calls: everything else ran without a question.
  assert.deepEqual(
    result.permission_denials.map((d: { tool_input: { command: string } }) => d.tool_input.command),
    ['rm keep.txt', 'git push origin main'],
  );
  const sandboxed = lines.filter((l) => l.type === 'system' && l.subtype === 'sandboxed');
  assert.equal(sandboxed.length, 6);
  assert.ok(sandboxed.every((l) => l.auto_allowed === true && /sandbox/.test(l.reason)));

  const results = lastToolResults(model.requests[1]).map((x) => x.content);
  assert.match(results[0], /^inside\ntmp=\/.*assistant-sandbox-.*\/tmp$/m);
  assert.equal(readFileSync(join(dir, 'made.txt'), 'utf8'), 'inside\n');
  assert.deepEqual(readdirSync(out), [], 'nothing was written outside the project');
  assert.match(results[1], /Read-only file system/);
  assert.match(results[1], new RegExp(`<sandbox_violations>[\\s\\S]*writing ${out}/py\\.txt: outside[\\s\\S]*writing ${out}/node\\.txt`));
  assert.doesNotMatch(results[2], /PRIVATE KEY/);
  assert.match(results[2], new RegExp(`reading ${home}/\\.ssh/id_rsa: ${home}/\\.ssh is hidden`));
  assert.equal(readFileSync(join(dir, '.assistant/settings.json'), 'utf8'), settings);
  assert.match(results[3], /writing .*\.assistant\/settings\.json: .* is protected/);
  assert.match(results[4], /answer from the allowed server/);
  assert.doesNotMatch(results[4], /answer from the other server/);
  assert.match(results[4], /fetched: answer from the allowed server/);
  assert.match(results[4], /fetch failed/);
  assert.match(results[4], new RegExp(`connecting to 127\\.0\\.0\\.1:${port(other)}: not in sandbox\\.network\\.allowedDomains`));
  assert.ok(!existsSync(join(out, 'bg.txt')));
  assert.match(results[5], /Read-only file system[\s\S]*done/);
  assert.match(results[6], /the rule "Edit\(keep\.txt\)" .* denies/);
  assert.ok(existsSync(join(dir, 'keep.txt')));
  assert.match(results[7], /ask rule "Bash\(git push:\*\)"/);
  // The model is told about the sandbox with the Bash tool; it may not ask to leave it (allowUnsandboxedCommands is off).
  const bash = (model.requests[0].body.tools as Array<{ name: string; description: string; input_schema: { properties: object } }>).find(
    (t) => t.name === 'Bash',
  )!;
  assert.match(bash.description, /# Sandbox/);
  assert.ok(!('dangerouslyDisableSandbox' in bash.input_schema.properties));
  // The session's temp directory is gone.
  const tmp = /tmp=(\S+)/.exec(results[0])![1];
  assert.ok(!existsSync(tmp), `${tmp} was removed`);
});

test('where bubblewrap is missing: --sandbox exits 2 with what to install; sandbox.enabled warns once and asks as before', async () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': JSON.stringify({ sandbox: { enabled: true } }) });
  const bare = mkdtempSync(join(tmpdir(), 'assistant-path-'));
  const r = await runCli(['-p', 'go', '--sandbox', ...MODEL], { cwd: dir, home, env: env({ PATH: bare }) });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--sandbox: the sandbox cannot run here: bubblewrap \(bwrap\)/);
  assert.match(r.stderr, /apt-get install bubblewrap socat/);

  model.reset();
  model.script(reply().tool('Bash', { command: 'touch made.txt' }), reply().text('done'));
  const s = await runCli(['-p', 'go', '--output-format', 'json', ...MODEL], { cwd: dir, home, env: env({ PATH: bare }) });
  assert.equal(s.code, 0, s.stderr);
  assert.equal(s.stderr.match(/sandbox\.enabled is set, but the sandbox cannot run here/g)?.length, 1, s.stderr);
  assert.equal(JSON.parse(s.stdout).permission_denials.length, 1);
  assert.ok(!existsSync(join(dir, 'made.txt')));
});
