import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpManager } from '../../src/mcp/manager.ts';
import { executeTool, getTool, validateInput } from '../../src/tools/registry.ts';
import { alive, entry, EVERYTHING, FAULT, FILESYSTEM, NO_APPROVALS, node, startNetworkServer, waitFor } from './helpers.ts';

// One manager with real servers for the whole file (started once: test time is a budget).
const tmp = mkdtempSync(join(tmpdir(), 'assistant-mcp-'));
const FAULT_LOG = join(tmp, 'fault.log');
const GRANDCHILD = join(tmp, 'grandchild.pid');
let mcp: McpManager;
const network: ChildProcess[] = [];
let changes = 0;

before(async () => {
  const http = await startNetworkServer('--http');
  const sse = await startNetworkServer('--sse', { FAULT_TOKEN: 'tok123' });
  network.push(http.child, sse.child);
  mcp = new McpManager({
    config: {
      servers: [
        entry('everything', node(EVERYTHING, 'stdio')),
        entry('files', node(FILESYSTEM, tmp)),
        entry('fault', { ...node(FAULT, '--banner', '--grandchild', GRANDCHILD), env: { FAULT_LOG, GREETING: '${WHO:-world}' } }),
        entry('crashy', node(FAULT, '--crash-after', '2')),
        entry('garbler', node(FAULT)),
        entry('garbage', node(FAULT, '--garbage')),
        entry('dead', node(FAULT, '--exit-at-start')),
        entry('nocmd', { command: 'assistant-no-such-program' }),
        entry('remote', { type: 'http', url: http.url }),
        entry('old', { type: 'sse', url: sse.url, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } }),
        entry('tokenless', { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${NO_SUCH_TOKEN}' } }),
        entry('refused', { type: 'sse', url: sse.url, headers: { Authorization: 'Bearer wrong' } }),
        entry('cloned', node(FAULT), { scope: 'mcpjson', file: join(tmp, '.mcp.json'), shared: true }),
        entry('turned-down', node(FAULT), { scope: 'mcpjson', file: join(tmp, '.mcp.json'), shared: true }),
      ],
      warnings: [],
    },
    approvals: { ...NO_APPROVALS, disabled: new Set(['turned-down']) },
    env: { ...process.env, SSE_TOKEN: 'tok123' },
    cwd: tmp,
    clientInfo: { name: 'assistant-test', version: '0.0.0' },
    limits: { startTimeoutMs: 60_000, toolTimeoutMs: 4000, maxOutputTokens: 1000 },
    onChange: () => {
      changes++;
    },
  });
  mcp.start();
  assert.equal(await mcp.whenSettled(120_000), true);
});

after(async () => {
  await mcp?.close();
  for (const c of network) c.kill();
});

const status = (name: string) => mcp.statuses().find((s) => s.name === name)!;
const call = (name: string, input: Record<string, unknown> = {}, signal?: AbortSignal) => mcp.callTool(name, input, { signal });

test('servers start in parallel and report their state: connected, or failed with the cause and the last stderr lines', () => {
  const states = Object.fromEntries(mcp.statuses().map((s) => [s.name, s.state]));
  assert.deepEqual(states, {
    everything: 'connected',
    files: 'connected',
    fault: 'connected',
    crashy: 'connected',
    garbler: 'connected',
    garbage: 'failed',
    dead: 'failed',
    nocmd: 'failed',
    remote: 'connected',
    old: 'connected',
    tokenless: 'failed',
    refused: 'failed',
    cloned: 'needs-approval',
    'turned-down': 'disabled',
  });
  assert.match(
    status('garbage').error!,
    /^the server wrote something on stdout that is not a JSON-RPC message: \{"jsonrpc": "2.0", "id": 0, "result": oops\}/,
  );
  assert.equal(status('dead').error, 'the server exited with code 3 before it was ready');
  assert.deepEqual(status('dead').log, ['starting…', 'fatal: no token']);
  assert.equal(status('nocmd').error, 'the command "assistant-no-such-program" was not found (check "command" and PATH)');
  assert.match(status('tokenless').error!, /^\$\{NO_SUCH_TOKEN\} \(in headers\.Authorization\) is not set/);
  assert.match(
    status('refused').error!,
    /^the server answered HTTP 401 \(check the token in "headers"; OAuth sign-in is not supported yet\): SSE error/,
  );
  assert.equal(status('turned-down').error, 'turned down in "disabledMcpjsonServers"');
  assert.deepEqual(mcp.skippedWarnings(), [
    `MCP server "cloned" (.mcp.json) was not started: the project defines it and it is not approved. To approve it, add "enabledMcpjsonServers": ["cloned"] (or "enableAllProjectMcpServers": true) to .assistant/settings.local.json, or answer the question in an interactive session.`,
  ]);
  assert.ok(
    status('fault').log.includes('(stdout) fault server 1.0 ready (a banner some servers print)'),
    'a banner on stdout is tolerated and kept',
  );
  assert.equal(status('everything').serverInfo?.name, 'mcp-servers/everything');
  assert.ok(changes > 0);
  const names = mcp.tools().map((t) => t.name);
  assert.ok(
    names.includes('mcp__everything__echo') && names.includes('mcp__remote__echo') && names.includes('mcp__old__echo'),
    names.join(' '),
  );
  assert.ok(
    !names.some((n) => /^mcp__(garbage|dead|cloned|turned-down)__/.test(n)),
    'failed, unapproved and disabled servers offer no tools',
  );
});

test('a call through the ToolDef: the echo round trip, over stdio, Streamable HTTP and SSE', async () => {
  const def = getTool('mcp__everything__echo', mcp.tools())!;
  assert.equal(def.inputJsonSchema?.type, 'object');
  assert.deepEqual(def.inputJsonSchema?.required, ['message']);
  const v = validateInput(def, { message: 'round trip' });
  assert.ok('input' in v);
  const r = await executeTool(def, v.input, { signal: new AbortController().signal } as never);
  assert.deepEqual([r.output, r.isError], ['Echo: round trip', undefined]);
  assert.equal((await call('mcp__remote__echo', { text: 'over http' })).output, 'over http');
  assert.equal((await call('mcp__old__echo', { text: 'over sse' })).output, 'over sse');
  assert.equal((await call('mcp__fault__env', { name: 'GREETING' })).output, 'world', '${VAR:-default} reached the server');
  assert.equal(getTool('mcp__fault__echo', mcp.tools())!.readOnly, true);
  assert.equal(getTool('mcp__fault__fail', mcp.tools())!.readOnly, false);
});

test('server-filesystem: a file read through it; its read tools are read-only, its write tools not', async () => {
  writeFileSync(join(tmp, 'note.txt'), 'written by the test\n');
  assert.equal((await call('mcp__files__read_text_file', { path: join(tmp, 'note.txt') })).output, 'written by the test\n');
  const outside = await call('mcp__files__read_text_file', { path: '/etc/hostname' });
  assert.equal(outside.isError, true, "the server's own refusal reaches the model as an error");
  assert.equal(getTool('mcp__files__read_text_file', mcp.tools())!.readOnly, true);
  assert.equal(getTool('mcp__files__write_file', mcp.tools())!.readOnly, false);
});

test('results: an error the model can act on, an image kept as data, output cut at the limit, a name made safe', async () => {
  assert.deepEqual(await call('mcp__fault__fail'), {
    output: 'the widget is jammed; try a smaller widget',
    isError: true,
    display: 'error',
    response: [{ type: 'text', text: 'the widget is jammed; try a smaller widget' }],
  });
  const img = await call('mcp__fault__image');
  assert.deepEqual(img.images, [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]);
  const huge = await call('mcp__fault__huge', { chars: 100_000 });
  assert.match(huge.output, /\[output cut: the tool returned about 25000 tokens, over the limit of 1000 \(MAX_MCP_OUTPUT_TOKENS\)/);
  assert.ok(huge.output.length < 4300);
  const safe = mcp.toolNames().find((m) => m.tool === 'do.thing/with space' && m.server === 'fault')!;
  assert.equal(safe.name, 'mcp__fault__do_thing_with_space');
  assert.equal((await call(safe.name)).output, 'done');
  const bad = await call('mcp__everything__get-sum', { a: 'one' });
  assert.equal(bad.isError, true);
  assert.match(bad.output, /a/);
  assert.deepEqual(await call('mcp__nope__x'), {
    output: 'There is no MCP tool named "mcp__nope__x" (its server may have stopped).',
    isError: true,
  });
});

test('progress reaches the caller; resources and prompts list, read and get', async () => {
  const seen: number[] = [];
  const r = await mcp.callTool('mcp__fault__slow', { ms: 200 }, { onProgress: (p) => seen.push(p.progress) });
  assert.equal(r.output, 'waited 200 ms');
  // The last one races the result in the SDK (a notification is handled a tick later): not asserted.
  assert.deepEqual(seen.slice(0, 4), [0, 1, 2, 3]);
  assert.deepEqual(
    (await mcp.listResources('fault')).map((x) => x.uri),
    ['fault://readme'],
  );
  assert.deepEqual((await mcp.readResource('fault', 'fault://readme')).contents, [
    { uri: 'fault://readme', text: 'the fault server reads like this' },
  ]);
  assert.ok((await mcp.listResources('everything')).length > 0);
  assert.deepEqual(
    (await mcp.listPrompts('fault')).map((p) => [p.name, p.arguments?.map((a) => a.name)]),
    [['greet', ['who']]],
  );
  const prompt = await mcp.getPrompt('fault', 'greet', { who: 'Ada' });
  assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
  assert.ok((await mcp.listPrompts('everything')).some((p) => p.name === 'args-prompt'));
});

test('an abort cancels the call: the server is sent notifications/cancelled', async () => {
  const ac = new AbortController();
  const pending = mcp.callTool('mcp__fault__slow', { ms: 60_000 }, { signal: ac.signal, onProgress: () => ac.abort() });
  const r = await pending;
  assert.deepEqual([r.output, r.isError], ['mcp__fault__slow was interrupted; the server was told to cancel the call.', true]);
  await waitFor(
    () => existsSync(FAULT_LOG) && readFileSync(FAULT_LOG, 'utf8').includes('cancelled slow'),
    30_000,
    'the server to see the cancellation',
  );
  assert.equal(status('fault').state, 'connected');
});

test('MCP_TOOL_TIMEOUT ends a call that never answers; a server that still answers pings stays', async () => {
  const r = await call('mcp__fault__hang');
  assert.deepEqual([r.output, r.isError], ['mcp__fault__hang did not answer within 4 s (MCP_TOOL_TIMEOUT); the call was cancelled.', true]);
  assert.equal(status('fault').state, 'connected');
  assert.equal((await call('mcp__fault__echo', { text: 'still here' })).output, 'still here');
});

test('notifications/tools/list_changed updates the tool list', async () => {
  assert.ok(!mcp.tools().some((t) => t.name === 'mcp__fault__added'));
  await call('mcp__fault__add_tool');
  await waitFor(() => mcp.tools().some((t) => t.name === 'mcp__fault__added'), 30_000, 'the new tool');
  assert.equal((await call('mcp__fault__added')).output, 'I was added');
});

test('a server that crashes, or writes garbage mid-call, is reported and its tools dropped; the others stay usable', async () => {
  assert.equal((await call('mcp__crashy__echo', { text: 'one' })).output, 'one');
  const crash = await call('mcp__crashy__echo', { text: 'two' });
  assert.equal(crash.isError, true);
  assert.match(
    crash.output,
    /The MCP server "crashy" failed during the call \(the server exited with code 3\); its tools cannot be used now\./,
  );
  await waitFor(() => status('crashy').log.includes('crashing on call 2 as asked'), 10_000, 'the last stderr line');
  assert.equal(status('crashy').error, 'the server exited with code 3');
  const garbled = await call('mcp__garbler__garbage_now');
  assert.equal(garbled.isError, true);
  assert.match(status('garbler').error!, /not a JSON-RPC message: \{this is not json\}/);
  const names = mcp.tools().map((t) => t.name);
  assert.ok(!names.some((n) => n.startsWith('mcp__crashy__') || n.startsWith('mcp__garbler__')));
  assert.match((await call('mcp__crashy__echo', { text: 'x' })).output, /no MCP tool named/);
  assert.equal((await call('mcp__everything__echo', { message: 'fine' })).output, 'Echo: fine');
});

test('close() ends every server process and what they started; start time-outs end theirs too', async () => {
  const hung = new McpManager({
    config: { servers: [entry('hang', node(FAULT, '--hang'))], warnings: [] },
    approvals: NO_APPROVALS,
    env: process.env,
    cwd: tmp,
    clientInfo: { name: 't', version: '0' },
    limits: { startTimeoutMs: 1500 },
  });
  hung.start();
  await hung.whenSettled(60_000);
  const h = hung.statuses()[0];
  assert.deepEqual([h.state, h.error], ['failed', 'it did not finish starting within 1.5 s (MCP_TIMEOUT)']);
  await waitFor(() => !alive(h.pid!), 10_000, 'the hung server to end');

  const pids = mcp
    .statuses()
    .filter((s) => s.transport === 'stdio' && s.pid !== undefined)
    .map((s) => s.pid!);
  const grandchild = Number(readFileSync(GRANDCHILD, 'utf8'));
  assert.ok(pids.length >= 6 && alive(grandchild));
  await mcp.close();
  await waitFor(() => ![...pids, grandchild].some(alive), 10_000, 'every server process to end');
});

test('no server outlives assistant, even when assistant is killed with SIGKILL', async () => {
  const { spawn } = await import('node:child_process');
  const holder = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./fixtures/hold-servers.ts', import.meta.url).pathname, join(tmp, 'held.pid')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    holder.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    holder.on('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  const held = JSON.parse(line) as { state: string; pid: number; grandchild: number };
  assert.equal(held.state, 'connected');
  assert.ok(alive(held.pid) && alive(held.grandchild));
  holder.kill('SIGKILL');
  await waitFor(() => !alive(held.pid) && !alive(held.grandchild), 20_000, 'the watchdog to end the server and its child');
});
