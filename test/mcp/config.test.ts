import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSettings } from '../../src/config/load.ts';
import { loadMcpConfig, parseMcpJson } from '../../src/mcp/config.ts';
import { expandServer, describeMissing } from '../../src/mcp/expand.ts';
import { mcpLimits } from '../../src/mcp/limits.ts';
import { makeProject } from '../fakes/project.ts';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.equal((e as { exitCode?: number }).exitCode, 2, 'a configuration error: exit 2');
    return (e as Error).message;
  }
  assert.fail('no error');
}

test('a bad server entry names the file, the line, the server and the field, with the fix', () => {
  const cases: Array<[string, RegExp]> = [
    [
      '{"mcpServers": {"github": {"args": ["x"]}}}',
      /^f\.json:1:17: "mcpServers\.github\.command": is missing: a stdio server needs the program to run/,
    ],
    [
      '{"mcpServers": {\n  "api": {"url": "https://x.test/mcp"}\n}}',
      /^f\.json:2:3: "mcpServers\.api\.type": is missing: an entry with "url" needs "type": "http" \(Streamable HTTP\) or "type": "sse"/,
    ],
    ['{"mcpServers": {"api": {"type": "http"}}}', /"mcpServers\.api\.url": is missing: a "http" server needs "url"/],
    ['{"mcpServers": {"api": {"type": "websocket", "url": "ws://x"}}}', /"mcpServers\.api\.type": .*\n  fix: use one of: stdio, http, sse/],
    [
      '{"mcpServers": {"api": {"type": "http", "url": "ftp://x"}}}',
      /"mcpServers\.api\.url": "ftp:\/\/x" is not an http:\/\/ or https:\/\/ URL/,
    ],
    ['{"mcpServers": {"a": {"command": "x", "headers": {"k": "v"}}}}', /"mcpServers\.a\.headers": belongs to "type": "http" or "sse"/],
    [
      '{"mcpServers": {"a": {"command": "x", "env": {"PORT": 3000}}}}',
      /"mcpServers\.a\.env\.PORT": .*\n  fix: make mcpServers\.a\.env\.PORT a string/,
    ],
    ['{"mcpServers": {"a": {"type": "sse", "url": "http://x", "command": "y"}}}', /"mcpServers\.a\.command": belongs to a stdio server/],
    ['{"mcpServers": [1]}', /"mcpServers": .*record/i],
    ['{"mcpServers": {"a": {"command": "x",}}}', /^f\.json:1:37: not valid JSON: a trailing comma/],
  ];
  for (const [text, want] of cases)
    assert.match(
      errorOf(() => parseMcpJson('f.json', text, [])),
      want,
      text,
    );
  assert.match(
    errorOf(() => parseMcpJson('f.json', '{"mcpServers": {"a": {}}}', [])),
    /fix: see docs\/mcp\.md/,
  );
  const warnings: string[] = [];
  assert.deepEqual(parseMcpJson('f.json', '{"mcpServers": {"a": {"command": "x", "disabled": true}}, "github": {}}', warnings), {
    a: { command: 'x' },
  });
  assert.equal(warnings.length, 2);
  assert.match(warnings.join('\n'), /f\.json:1:39: unknown key "mcpServers\.a\.disabled" is ignored/);
  assert.match(warnings.join('\n'), /unknown key "github" is ignored \(known keys here: mcpServers\)/);
});

test('settings files are checked the same way: mcpServers and the approval keys', () => {
  const { dir, home } = makeProject({ '.assistant/settings.json': '{\n  "mcpServers": {"x": {"type": "sse"}}\n}\n' });
  assert.match(
    errorOf(() => loadSettings(home, dir, undefined, dir)),
    /settings\.json:2:18: "mcpServers\.x\.url": is missing/,
  );
  writeFileSync(join(dir, '.assistant/settings.json'), '{"enabledMcpjsonServers": "github"}');
  assert.match(
    errorOf(() => loadSettings(home, dir, undefined, dir)),
    /"enabledMcpjsonServers": .*\n  fix: make enabledMcpjsonServers an array/,
  );
});

test('servers come from every file; a name takes the entry of the highest precedence; strict keeps only --mcp-config', () => {
  const server = (tag: string) => JSON.stringify({ command: 'echo', args: [tag] });
  const { dir, home } = makeProject({
    '.mcp.json': `{"mcpServers": {"shared": ${server('mcpjson')}, "both": ${server('mcpjson')}}}`,
    '.assistant/settings.json': `{"mcpServers": {"team": ${server('project')}}}`,
    '.assistant/settings.local.json': `{"mcpServers": {"both": ${server('local')}}}`,
    'extra.json': `{"mcpServers": {"cli": ${server('file')}}}`,
  });
  writeFileSync(join(home, 'x'), '');
  const settings = loadSettings(home, dir, undefined, dir);
  const c = loadMcpConfig({
    projectRoot: dir,
    cwd: dir,
    settings,
    mcpConfig: ['extra.json', `{"mcpServers": {"inline": ${server('inline')}}}`],
  });
  assert.deepEqual(
    c.servers.map((s) => [s.name, s.scope, s.config.args?.[0], s.shared]),
    [
      ['team', 'project', 'project', true],
      ['both', 'local', 'local', false],
      ['shared', 'mcpjson', 'mcpjson', true],
      ['cli', 'cli', 'file', false],
      ['inline', 'cli', 'inline', false],
    ],
  );
  assert.deepEqual(c.servers.find((s) => s.name === 'both')!.hides, [join(dir, '.mcp.json')]);
  const strict = loadMcpConfig({ projectRoot: dir, cwd: dir, settings, mcpConfig: ['extra.json'], strict: true });
  assert.deepEqual(
    strict.servers.map((s) => s.name),
    ['cli'],
  );
  assert.match(
    errorOf(() => loadMcpConfig({ projectRoot: dir, cwd: dir, settings, mcpConfig: ['nope.json'] })),
    /nope\.json:1:1: the --mcp-config file does not exist/,
  );
  assert.match(
    errorOf(() => loadMcpConfig({ projectRoot: dir, cwd: dir, settings, mcpConfig: ['{"mcpServers": {"z": {}}}'] })),
    /^--mcp-config \(inline JSON\):1:17: "mcpServers\.z\.command": is missing/,
  );
  assert.deepEqual(loadMcpConfig({ projectRoot: home, cwd: home, settings: loadSettings(home, home, undefined, home) }).servers, []);
});

test('${VAR} and ${VAR:-default} are expanded in every string; an unset variable is named with its field', () => {
  const env = { HOME: '/home/me', TOKEN: 'sekrit', EMPTY: '' };
  const { server, missing } = expandServer(
    {
      command: '${HOME}/bin/srv',
      args: ['--token=${TOKEN}', '$TOKEN', '${EMPTY}', '${EMPTY:-fallback}', '${NOPE:-a:b}', '${NOPE}'],
      env: { T: '${TOKEN}' },
      cwd: '${HOME}/work',
    },
    env,
  );
  assert.deepEqual(server, {
    command: '/home/me/bin/srv',
    args: ['--token=sekrit', '$TOKEN', '', 'fallback', 'a:b', '${NOPE}'],
    env: { T: 'sekrit' },
    cwd: '/home/me/work',
  });
  assert.deepEqual(missing, [{ variable: 'NOPE', field: 'args[5]' }]);
  const remote = expandServer({ type: 'http', url: '${BASE:-https://x.test}/mcp', headers: { Authorization: 'Bearer ${GH}' } }, {});
  assert.equal(remote.server.url, 'https://x.test/mcp');
  assert.equal(
    describeMissing(remote.missing),
    '${GH} (in headers.Authorization) is not set: set it in the environment or in settings "env", or write ${NAME:-default}',
  );
});

test('the limits come from MCP_TIMEOUT, MCP_TOOL_TIMEOUT and MAX_MCP_OUTPUT_TOKENS; a bad value keeps the default', () => {
  assert.deepEqual(mcpLimits({}).limits, { startTimeoutMs: 30_000, toolTimeoutMs: 600_000, maxOutputTokens: 25_000 });
  assert.deepEqual(mcpLimits({ MCP_TIMEOUT: '5000', MCP_TOOL_TIMEOUT: '1000', MAX_MCP_OUTPUT_TOKENS: '100' }).limits, {
    startTimeoutMs: 5000,
    toolTimeoutMs: 1000,
    maxOutputTokens: 100,
  });
  const bad = mcpLimits({ MCP_TIMEOUT: '30s' });
  assert.equal(bad.limits.startTimeoutMs, 30_000);
  assert.deepEqual(bad.warnings, ['MCP_TIMEOUT="30s" is not a positive number; using 30000']);
});
