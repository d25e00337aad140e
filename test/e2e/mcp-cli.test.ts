import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './cli.ts';
import { makeProject } from '../fakes/project.ts';
import { alive, FAULT, startNetworkServer, waitFor } from '../mcp/helpers.ts';

const NODE = process.execPath;

test('assistant mcp add, add-json, list, get and remove write the right files and show each server', async () => {
  const { dir, home } = makeProject({ '.gitignore': '' });
  const http = await startNetworkServer('--http');
  const sse = await startNetworkServer('--sse', { FAULT_TOKEN: 'tok' });
  try {
    const run = (...args: string[]) => runCli(['mcp', ...args], { cwd: dir, home, env: { SSE_TOKEN: 'tok' }, timeoutMs: 60_000 });
    const pidFile = join(dir, 'grandchild.pid');
    let r = await run('add', 'fault', '--', NODE, FAULT, '--banner', '--grandchild', pidFile);
    assert.deepEqual(
      [r.code, r.stdout],
      [0, 'Added stdio MCP server "fault" to .assistant/settings.local.json (this project, for you only).\n'],
    );
    r = await run('add', '--transport', 'http', '--scope', 'project', 'remote', http.url, '--header', 'X-Trace: 1');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /Added HTTP MCP server "remote" to \.mcp\.json \(shared with everyone who clones the project\)\.\nApproved it for you in \.assistant\/settings\.local\.json/,
    );
    r = await run(
      'add-json',
      '-s',
      'user',
      'old',
      JSON.stringify({ type: 'sse', url: sse.url, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(home, '.assistant/settings.json'), 'utf8')).mcpServers.old.headers, {
      Authorization: 'Bearer ${SSE_TOKEN}',
    });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')), {
      mcpServers: { remote: { type: 'http', url: http.url, headers: { 'X-Trace': '1' } } },
    });
    assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8'), '.assistant/settings.local.json\n');

    r = await run('add', 'fault', '--', 'x');
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /an MCP server named "fault" is already in .*settings\.local\.json: remove it first \(assistant mcp remove fault --scope local\)/,
    );
    r = await run('add', 'web', 'https://example.test/mcp');
    assert.deepEqual(
      [r.code, r.stderr],
      [2, '"https://example.test/mcp" looks like a URL: add --transport http (or --transport sse) before the name.\n'],
    );
    r = await run('add-json', 'j', '{"type": "http"}');
    assert.deepEqual([r.code, r.stderr], [2, 'the server JSON: "url": is missing: a "http" server needs "url"\n']);

    r = await run('list');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^old: http:\/\/127\.0\.0\.1:\d+\/sse \(SSE\) - ✓ connected, 11 tools\n  from ~\/\.assistant\/settings\.json \(user\)\n  mcp__old__echo\n/m,
    );
    assert.match(
      r.stdout,
      /^fault: .*mcp-fault-server\.mjs --banner --grandchild .* - ✓ connected, 11 tools\n  from \.assistant\/settings\.local\.json \(local\)\n/m,
    );
    assert.match(r.stdout, /^ {2}mcp__fault__do_thing_with_space {2}\(the server's "do\.thing\/with space"\)$/m);
    assert.match(
      r.stdout,
      /^remote: http:\/\/127\.0\.0\.1:\d+\/mcp \(HTTP\) - ✓ connected, 11 tools\n  from \.mcp\.json \(project, shared\)\n/m,
    );
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !alive(grandchild), 10_000, "the server's own child to end with the CLI");

    r = await run('get', 'remote');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^remote:\n {2}Defined in: \.mcp\.json \(project, shared\)\n {2}Status: ✓ connected, 11 tools\n {2}Type: http\n {2}URL: http:\/\/127\.0\.0\.1:\d+\/mcp\n {2}Header: X-Trace: 1\n {2}Server: fault 1\.0\.0\n {2}Tools:\n {4}mcp__remote__echo\n/,
    );
    assert.match(r.stdout, /\nTo remove it: assistant mcp remove remote --scope project\n$/);
    r = await run('get', 'nope');
    assert.deepEqual([r.code, r.stderr], [1, 'No MCP server named "nope". Configured: old, fault, remote.\n']);

    r = await run('remove', 'remote');
    assert.deepEqual([r.code, r.stdout], [0, 'Removed MCP server "remote" from .mcp.json.\n']);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')), { mcpServers: {} });
    r = await run('remove', 'remote');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^No MCP server named "remote"\./);
    r = await run('list', '--strict-mcp-config', '--mcp-config', '{"mcpServers": {}}');
    assert.equal(r.stdout, 'No MCP servers are configured. Add one with: assistant mcp add NAME -- COMMAND [ARGS…]\n');
  } finally {
    http.child.kill();
    sse.child.kill();
  }
});

test('doctor and mcp list: a broken .mcp.json is exit 2 naming file, server and field; an unapproved server is never started', async () => {
  const { dir, home } = makeProject({
    '.mcp.json': '{\n  "mcpServers": {\n    "github": {"command": "npx", "headers": {"a": "b"}}\n  }\n}\n',
  });
  let r = await runCli(['mcp', 'list'], { cwd: dir, home });
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `error: ${dir}/.mcp.json:3:34: "mcpServers.github.headers": belongs to "type": "http" or "sse"; a stdio server (command) does not take it\n  fix: see docs/mcp.md for the settings format\n`,
  );

  const marker = join(dir, 'started');
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        cloned: { command: 'sh', args: ['-c', `touch ${marker}`] },
        dead: { command: NODE, args: [FAULT, '--exit-at-start'] },
      },
    }),
  );
  const settings = JSON.stringify({ enabledMcpjsonServers: ['dead'], mcpServers: { good: { command: NODE, args: [FAULT] } } });
  r = await runCli(['doctor', '--model', 'replay:/dev/null', '--settings', settings], { cwd: dir, home, timeoutMs: 60_000 });
  assert.equal(r.code, 1, r.stdout);
  assert.match(
    r.stdout,
    /^! MCP server "cloned" \(\.mcp\.json\) is not started: the project defines it and it is not approved\. To approve it, add "enabledMcpjsonServers": \["cloned"\]/m,
  );
  assert.match(
    r.stdout,
    /^✗ MCP server "dead": the server exited with code 3 before it was ready\n {4}last output:\n {6}starting…\n {6}fatal: no token$/m,
  );
  assert.match(r.stdout, /^✓ MCP server "good": connected, 11 tools$/m);
  r = await runCli(['mcp', 'list'], { cwd: dir, home, timeoutMs: 60_000 });
  assert.match(
    r.stdout,
    /^cloned: sh -c "touch .*started" - ! not started: the project defines it and it is not approved\. To approve it, add "enabledMcpjsonServers": \["cloned"\]/m,
  );
  assert.ok(!existsSync(marker), 'an unapproved server never runs');
});
