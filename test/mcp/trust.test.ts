import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingsSource } from '../../src/config/load.ts';
import { admission, mcpApprovals, recordMcpApproval, skippedWarning } from '../../src/mcp/trust.ts';
import { makeProject } from '../fakes/project.ts';

const src = (scope: SettingsSource['scope'], settings: SettingsSource['settings']): SettingsSource => ({
  file: `/p/${scope}.json`,
  scope,
  settings,
});

test('which servers may start: a table of sources, names and approvals', () => {
  const approvals = mcpApprovals([
    src('user', { enabledMcpjsonServers: ['github'] }),
    src('local', { enabledMcpjsonServers: ['db', 'both'], disabledMcpjsonServers: ['both'] }),
    src('project', { enabledMcpjsonServers: ['evil'], enableAllProjectMcpServers: true, disabledMcpjsonServers: ['noisy'] }),
  ]);
  assert.equal(approvals.all, false, 'the project cannot approve all of its own servers');
  assert.match(
    approvals.warnings[0],
    /\/p\/project\.json: "enabledMcpjsonServers" and "enableAllProjectMcpServers" are ignored in the project's shared settings/,
  );
  const cases: Array<[string, boolean, string]> = [
    ['github', true, 'allowed'],
    ['db', true, 'allowed'],
    ['both', true, 'disabled'], // a "no" beats a "yes"
    ['evil', true, 'needs-approval'],
    ['noisy', true, 'disabled'],
    ['other', true, 'needs-approval'],
    ['other', false, 'allowed'], // the user's own files and --mcp-config need no approval
    ['noisy', false, 'allowed'],
  ];
  for (const [name, shared, want] of cases) assert.equal(admission({ name, shared }, approvals).state, want, `${name} shared=${shared}`);
  const all = mcpApprovals([src('local', { enableAllProjectMcpServers: true }), src('user', { disabledMcpjsonServers: ['x'] })]);
  assert.equal(admission({ name: 'anything', shared: true }, all).state, 'allowed');
  assert.equal(admission({ name: 'x', shared: true }, all).state, 'disabled');
  assert.equal(
    admission(
      { name: 'y', shared: true },
      mcpApprovals([src('flag', { enableAllProjectMcpServers: true }), src('flag', { enableAllProjectMcpServers: false })]),
    ).state,
    'needs-approval',
    'later files win',
  );
});

test('the headless warning names the server, its file and the setting that would approve it', () => {
  assert.equal(
    skippedWarning({ name: 'github', file: '/p/.mcp.json' }, '/p'),
    'MCP server "github" (.mcp.json) was not started: the project defines it and it is not approved. ' +
      'To approve it, add "enabledMcpjsonServers": ["github"] (or "enableAllProjectMcpServers": true) to .assistant/settings.local.json, ' +
      'or answer the question in an interactive session.',
  );
});

test('an answer is recorded in settings.local.json, which is gitignored when created; a broken file is not overwritten', () => {
  const { dir } = makeProject({ '.gitignore': 'node_modules' });
  const file = recordMcpApproval(dir, { approve: 'github' });
  assert.equal(file, join(dir, '.assistant/settings.local.json'));
  recordMcpApproval(dir, { reject: 'db' });
  recordMcpApproval(dir, { approve: 'db' });
  recordMcpApproval(dir, { reject: 'github' });
  recordMcpApproval(dir, { approveAll: true });
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
    enabledMcpjsonServers: ['db'],
    disabledMcpjsonServers: ['github'],
    enableAllProjectMcpServers: true,
  });
  assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8'), 'node_modules\n.assistant/settings.local.json\n');
  writeFileSync(file, '{"permissions": {"allow": ["Read"]}, "enabledMcpjsonServers": ["a"]}');
  recordMcpApproval(dir, { approve: 'b' });
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { permissions: { allow: ['Read'] }, enabledMcpjsonServers: ['a', 'b'] });
  writeFileSync(file, '{"enabledMcpjsonServers": [}');
  assert.throws(() => recordMcpApproval(dir, { approve: 'c' }), /settings\.local\.json:1:28: not valid JSON/);
  assert.equal(readFileSync(file, 'utf8'), '{"enabledMcpjsonServers": [}');
});
