import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  startFakeModel,
  reply,
  hang,
  lastToolResults,
  receivedImages,
  systemPrompt,
  toolNames,
  userTexts,
  type FakeModel,
  type RecordedRequest,
} from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli, startCli } from './cli.ts';
import { EVERYTHING, FAULT, waitFor } from '../mcp/helpers.ts';

/**
 * MCP servers in a session (SPEC §12), end to end: the built CLI, the fake model, and real MCP
 * servers (@modelcontextprotocol/server-everything, and the project's fault server).
 */

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const MODEL = ['--model', 'anthropic:claude-sonnet-4-5'];

/** Processes (ours) whose environment holds MARK=`mark`: the servers a run started with that mark. */
function marked(mark: string): number[] {
  const pids: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(`MCP_E2E_MARK=${mark}`)) pids.push(Number(p));
    } catch {
      /* gone, or not ours */
    }
  }
  return pids;
}

function servers(mark: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING], env: { MCP_E2E_MARK: mark } }, ...extra },
  });
}

test('a scripted model calls mcp__everything__echo, the result reaches it; @everything:URI attaches a resource; no server survives', async () => {
  const { dir, home } = makeProject({});
  const mark = randomUUID();
  model.reset();
  model.script(
    reply().tool('mcp__everything__echo', { message: 'hello from the model' }).tool('mcp__everything__get-tiny-image', {}),
    reply().text('Echoed.'),
  );
  const r = await runCli(
    [
      '-p',
      'Echo it. Also see @everything:demo://resource/dynamic/text/1.',
      '--output-format',
      'json',
      '--mcp-config',
      servers(mark),
      '--allowed-tools',
      'mcp__everything',
      ...MODEL,
    ],
    { cwd: dir, home, env: model.env('anthropic'), timeoutMs: 60_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).result, 'Echoed.');
  const [first, second] = model.requests;
  const names = toolNames(first);
  assert.ok(
    names.includes('Read') && names.includes('mcp__everything__echo') && names.includes('mcp__everything__get-sum'),
    names.join(','),
  );
  const echo = first.body.tools.find((t: { name: string }) => t.name === 'mcp__everything__echo');
  assert.equal(echo.input_schema.properties.message.type, 'string', "the server's own JSON Schema");
  assert.match(
    userTexts(first).join('\n'),
    /Resource demo:\/\/resource\/dynamic\/text\/1 from the MCP server "everything"[^\n]*:\n.*Resource 1/s,
  );
  const results = lastToolResults(second);
  assert.deepEqual([results[0].content, results[0].isError], ['Echo: hello from the model', false]);
  assert.match(results[1].content, /\[image: image\/png, [\d.]+ (KB|B)\]/);
  assert.deepEqual(
    receivedImages(second).map((i) => [i.where, i.mediaType]),
    [['tool-result', 'image/png']],
    'the image itself reaches a model that takes images',
  );
  assert.deepEqual(marked(mark), [], 'no server process outlives the CLI');
});

test('a deny rule and a PreToolUse hook (a shell script) block MCP calls; both are permission_denials', async () => {
  const { dir, home } = makeProject({});
  const hook = join(dir, 'no-echo.sh');
  writeFileSync(
    hook,
    '#!/bin/sh\ninput=$(cat)\necho "$input" >> "$ASSISTANT_PROJECT_DIR/hook.log"\ncase "$input" in *\'"tool_name":"mcp__everything__echo"\'*) echo "no echo today" >&2; exit 2;; esac\nexit 0\n',
  );
  chmodSync(hook, 0o755);
  mkdirSync(join(dir, '.assistant'));
  writeFileSync(
    join(dir, '.assistant/settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'mcp__everything__.*', hooks: [{ type: 'command', command: hook }] }] } }),
  );
  const mark = randomUUID();
  model.reset();
  model.script(
    reply().tool('mcp__everything__get-sum', { a: 1, b: 2 }).tool('mcp__everything__echo', { message: 'x' }),
    reply().text('Both refused.'),
  );
  const r = await runCli(
    [
      '-p',
      'go',
      '--output-format',
      'json',
      '--mcp-config',
      servers(mark),
      '--allowed-tools',
      'mcp__everything',
      '--disallowed-tools',
      'mcp__everything__get-sum',
      ...MODEL,
    ],
    { cwd: dir, home, env: model.env('anthropic'), timeoutMs: 60_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.permission_denials.map((d: { tool_name: string }) => d.tool_name).sort(), [
    'mcp__everything__echo',
    'mcp__everything__get-sum',
  ]);
  const results = lastToolResults(model.requests[1]);
  assert.match(results[0].content, /mcp__everything__get-sum is denied by the rule "mcp__everything__get-sum" \(--disallowed-tools\)/);
  assert.match(results[1].content, /no echo today/);
  const seen = readFileSync(join(dir, 'hook.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  // Both tools are read-only (readOnlyHint), so they ran together: the hook log's order is either.
  assert.deepEqual(seen.map((e) => [e.tool_name, e.tool_input]).sort(), [
    ['mcp__everything__echo', { message: 'x' }],
    ['mcp__everything__get-sum', { a: 1, b: 2 }],
  ]);
  assert.deepEqual(marked(mark), []);
});

test('Plan Mode runs a read-only MCP tool a rule allows and refuses one that is not read-only; Normal mode asks (refused headless)', async () => {
  const { dir, home } = makeProject({});
  const cfg = JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT] } } });
  model.reset();
  model.script(reply().tool('mcp__fault__echo', { text: 'planned' }).tool('mcp__fault__pid', {}), reply().text('Planned.'));
  let r = await runCli(
    [
      '-p',
      'plan',
      '--output-format',
      'json',
      '--permission-mode',
      'plan',
      '--mcp-config',
      cfg,
      '--allowed-tools',
      'mcp__fault__*',
      ...MODEL,
    ],
    { cwd: dir, home, env: model.env('anthropic'), timeoutMs: 60_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  const results = lastToolResults(model.requests[1]);
  assert.deepEqual([results[0].content, results[0].isError], ['planned', false]);
  assert.match(results[1].content, /^Plan Mode: mcp__fault__pid is refused/);
  assert.deepEqual(
    JSON.parse(r.stdout).permission_denials.map((d: { tool_name: string }) => d.tool_name),
    ['mcp__fault__pid'],
  );

  model.reset();
  model.script(reply().tool('mcp__fault__echo', { text: 'unasked' }), reply().text('Refused.'));
  r = await runCli(['-p', 'go', '--mcp-config', cfg, ...MODEL], { cwd: dir, home, env: model.env('anthropic'), timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    lastToolResults(model.requests[1])[0].content,
    /mcp__fault__echo \(an MCP tool\) needs approval in normal mode.*--allowed-tools "mcp__fault__echo"/,
  );
  assert.match(r.stderr, /1 tool call was refused \(mcp__fault__echo\)/);
});

test('an unapproved .mcp.json server is not started headless, with one warning naming the setting; approved, it starts', async () => {
  const { dir, home } = makeProject({});
  const started = join(dir, 'started');
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { sneaky: { command: '/bin/sh', args: ['-c', 'echo yes > "$0"; exit 1', started] } } }),
  );
  model.reset();
  model.script(reply().text('Hi.'));
  let r = await runCli(['-p', 'hi', ...MODEL], { cwd: dir, home, env: model.env('anthropic'), timeoutMs: 30_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(started), false, "the server's command never ran");
  assert.equal(r.stderr.match(/MCP server "sneaky"/g)?.length, 1, r.stderr);
  assert.match(
    r.stderr,
    /warning: MCP server "sneaky" \(\.mcp\.json\) was not started: the project defines it and it is not approved\. To approve it, add "enabledMcpjsonServers": \["sneaky"\] \(or "enableAllProjectMcpServers": true\) to \.assistant\/settings\.local\.json/,
  );
  assert.ok(!toolNames(model.requests[0]).some((n) => n.startsWith('mcp__')));

  // --strict-mcp-config leaves .mcp.json out: no warning.
  model.reset();
  model.script(reply().text('Hi.'));
  r = await runCli(['-p', 'hi', '--strict-mcp-config', ...MODEL], { cwd: dir, home, env: model.env('anthropic'), timeoutMs: 30_000 });
  assert.doesNotMatch(r.stderr, /sneaky/);

  mkdirSync(join(dir, '.assistant'), { recursive: true });
  writeFileSync(join(dir, '.assistant/settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['sneaky'] }));
  model.reset();
  model.script(reply().text('Hi.'));
  r = await runCli(['-p', 'hi', ...MODEL], { cwd: dir, home, env: model.env('anthropic'), timeoutMs: 30_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(started, 'utf8'), 'yes\n', 'approved, it started');
  assert.match(r.stderr, /warning: MCP server "sneaky" failed: the server exited with code 1 before it was ready/);
});

test('a server that crashes during a call leaves the session usable: its tools leave the list, the run goes on', async () => {
  const { dir, home } = makeProject({});
  const cfg = JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT, '--crash-after', '1'] } } });
  model.reset();
  model.script(reply().tool('mcp__fault__echo', { text: 'boom' }), reply().tool('LS', { path: '.' }), reply().text('Carried on.'));
  const r = await runCli(['-p', 'go', '--output-format', 'json', '--mcp-config', cfg, '--allowed-tools', 'mcp__fault', ...MODEL], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).result, 'Carried on.');
  assert.ok(toolNames(model.requests[0]).includes('mcp__fault__echo'));
  assert.match(lastToolResults(model.requests[1])[0].content, /The MCP server "fault" failed during the call/);
  assert.ok(!toolNames(model.requests[1]).some((n) => n.startsWith('mcp__fault__')), 'its tools left the list');
  assert.equal(lastToolResults(model.requests[2])[0].isError, false);
  assert.match(
    r.stderr,
    /warning: MCP server "fault" failed: the server exited with code 3; its tools are not offered\. Its last output:\n[^]*^ {2}crashing on call 1 as asked/m,
  );
});

test('SIGINT during a headless run ends every server it started', async () => {
  const { dir, home } = makeProject({});
  const mark = randomUUID();
  model.reset();
  model.script(hang());
  const child = startCli(['-p', 'wait', '--output-format', 'stream-json', '--verbose', '--mcp-config', servers(mark), ...MODEL], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await model.waitForRequests(1, 30_000); // the servers were up (or settled) before the first request
  assert.equal(marked(mark).length > 0, true, 'the server runs');
  child.kill('SIGINT');
  assert.equal(await exited, 130, stderr);
  const init = JSON.parse(stdout.split('\n')[0]);
  assert.deepEqual([init.subtype, init.mcp_servers], ['init', [{ name: 'everything', status: 'connected' }]]);
  await waitFor(() => marked(mark).length === 0, 5000, 'the server to end');
});

test("/mcp__everything__args-prompt runs the server's prompt with its arguments; a wrong one sends nothing (exit 2)", async () => {
  const { dir, home } = makeProject({});
  const mark = randomUUID();
  model.reset();
  model.script(reply().text('Sunny.'));
  let r = await runCli(['-p', '/mcp__everything__args-prompt Paris', '--mcp-config', servers(mark), ...MODEL], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Sunny.\n');
  assert.match(userTexts(model.requests[0]).join('\n'), /What's weather in Paris\?/);
  model.reset();
  r = await runCli(['-p', '/mcp__everything__args-prompt', '--mcp-config', servers(mark), ...MODEL], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Nothing was sent: \/mcp__everything__args-prompt: missing city \(usage: <city> \[state\]\)/);
  assert.equal(model.requests.length, 0);
  assert.deepEqual(marked(mark), []);
});

test('Ctrl-C (SIGINT) during a long MCP call cancels it: the server is sent notifications/cancelled', async () => {
  const { dir, home } = makeProject({});
  const log = join(dir, 'fault.log');
  const cfg = JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT], env: { FAULT_LOG: log } } } });
  model.reset();
  model.script(reply().tool('mcp__fault__slow', { ms: 60_000 }), reply().text('never'));
  const child = startCli(['-p', 'wait', '--mcp-config', cfg, '--allowed-tools', 'mcp__fault__slow', ...MODEL], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('call slow'), 30_000, 'the call to reach the server');
  child.kill('SIGINT');
  assert.equal(await exited, 130, stderr);
  await waitFor(() => readFileSync(log, 'utf8').includes('cancelled slow'), 5000, 'the server to be told');
  assert.equal(model.requests.length, 1, 'no request after the interrupt');
});

test("a server that hangs at start holds the first request only up to MCP_TIMEOUT, says so, and the others' tools are offered", async () => {
  const { dir, home } = makeProject({});
  const cfg = JSON.stringify({
    mcpServers: { ok: { command: process.execPath, args: [FAULT] }, stuck: { command: process.execPath, args: [FAULT, '--hang'] } },
  });
  model.reset();
  model.script(reply().text('Went on.'));
  const started = performance.now();
  const r = await runCli(['-p', 'hi', '--mcp-config', cfg, ...MODEL], {
    cwd: dir,
    home,
    env: { ...model.env('anthropic'), MCP_TIMEOUT: '6000' },
    timeoutMs: 60_000,
  });
  const ms = performance.now() - started;
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Went on.\n');
  assert.ok(ms < 15_000, `took ${ms} ms`);
  assert.match(r.stderr, /warning: waiting for the MCP server "stuck" to start \(at most MCP_TIMEOUT\)…/);
  assert.match(r.stderr, /warning: MCP server "stuck" failed: it did not finish starting within 6 s \(MCP_TIMEOUT\)/);
  const names = toolNames(model.requests[0]);
  assert.ok(names.includes('mcp__ok__echo') && !names.some((n) => n.startsWith('mcp__stuck__')), names.join(','));
});

test('a subagent (Task) is offered the MCP tools and its call goes through the same rules', async () => {
  const { dir, home } = makeProject({});
  const cfg = JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT] } } });
  const isSub = (r: RecordedRequest) => /carry out one task on its behalf/.test(systemPrompt(r) ?? '');
  model.reset();
  model.onRequest((req) => {
    if (!isSub(req)) return undefined;
    return (req.body.messages as unknown[]).length === 1
      ? reply().tool('mcp__fault__echo', { text: 'from the subagent' }).tool('mcp__fault__pid', {})
      : reply('SUB-REPORT');
  });
  model.script(reply().tool('Task', { description: 'echo', prompt: 'Echo it.', subagent_type: 'general-purpose' }), reply('Done.'));
  const r = await runCli(['-p', 'go', '--output-format', 'json', '--mcp-config', cfg, '--allowed-tools', 'mcp__fault__echo', ...MODEL], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 0, r.stderr);
  const sub = model.requests.filter(isSub);
  assert.ok(toolNames(sub[0]).includes('mcp__fault__echo'));
  const res = lastToolResults(sub[1]);
  assert.deepEqual([res[0].content, res[0].isError], ['from the subagent', false]);
  assert.match(res[1].content, /mcp__fault__pid \(an MCP tool\) needs approval/);
  assert.ok(JSON.parse(r.stdout).permission_denials.some((d: { tool_name: string }) => d.tool_name === 'mcp__fault__pid'));
});

test('stream-json system/init waits for the servers: status connected or failed, MCP tools listed (as in Claude Code)', async () => {
  const { dir, home } = makeProject({});
  model.reset();
  model.script(reply().text('ok'));
  const config = JSON.stringify({
    mcpServers: {
      fault: { command: process.execPath, args: [FAULT] },
      broken: { command: process.execPath, args: [FAULT, '--exit-at-start'] },
    },
  });
  const r = await runCli(['-p', 'hi', '--output-format', 'stream-json', '--verbose', '--mcp-config', config, ...MODEL], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 0, r.stderr);
  const init = JSON.parse(r.stdout.split('\n')[0]);
  assert.deepEqual(init.mcp_servers, [
    { name: 'fault', status: 'connected' },
    { name: 'broken', status: 'failed' },
  ]);
  assert.ok(init.tools.includes('mcp__fault__echo'), init.tools.join(','));
});
