import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTrusted, projectRunnables, trustFolder } from '../../src/config/trust.ts';
import { firstTimeNotices, statePath } from '../../src/config/user-state.ts';

const fresh = () => mkdtempSync(join(tmpdir(), 'trust-'));

test('a trusted folder covers the folders below it, not its siblings or a prefix-named neighbour', () => {
  const home = fresh();
  assert.equal(isTrusted(home, '/work/app'), false);
  assert.equal(trustFolder(home, '/work/app'), true);
  assert.equal(isTrusted(home, '/work/app'), true);
  assert.equal(isTrusted(home, '/work/app/packages/a'), true);
  assert.equal(isTrusted(home, '/work/app2'), false);
  assert.equal(isTrusted(home, '/work'), false);
});

test('the home directory and the root are trusted for the session only: nothing is remembered', () => {
  const home = fresh();
  assert.equal(trustFolder(home, home), false);
  assert.equal(trustFolder(home, '/'), false);
  assert.equal(isTrusted(home, join(home, 'project')), false);
});

test('a malformed state file trusts nothing, and trusting keeps the rest of the state', () => {
  const home = fresh();
  mkdirSync(join(home, '.assistant'));
  writeFileSync(statePath(home), '{"trustedFolders": "/"}');
  assert.equal(isTrusted(home, '/anything'), false);
  writeFileSync(statePath(home), '{"other": 1}');
  trustFolder(home, '/work/app');
  assert.deepEqual(JSON.parse(readFileSync(statePath(home), 'utf8')), { other: 1, trustedFolders: ['/work/app'] });
});

test("what a folder can run: project and local hooks, commands with !`cmd`, .mcp.json; not the user's own hooks", () => {
  const root = fresh();
  writeFileSync(join(root, '.mcp.json'), '{}');
  const hook = (command: string) => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' as const, command }] }] });
  const runs = projectRunnables(
    root,
    [
      { file: '/home/u/.assistant/settings.json', scope: 'user', settings: { hooks: hook('mine.sh') } },
      { file: join(root, '.assistant/settings.json'), scope: 'project', settings: { hooks: hook('./guard.sh') } },
    ],
    [
      { file: join(root, '.assistant/commands/a.md'), body: 'x !`make` y' },
      { file: join(root, '.assistant/commands/b.md'), body: 'plain' },
    ],
  );
  assert.deepEqual(runs, [
    'PreToolUse hook: ./guard.sh  (.assistant/settings.json)',
    'a command that runs shell code: .assistant/commands/a.md',
    'MCP servers defined in .mcp.json (each still needs its own approval)',
  ]);
});

test('a notice is shown the first time only, per text', () => {
  const home = fresh();
  assert.deepEqual(firstTimeNotices(home, ['a', 'b']), ['a', 'b']);
  assert.deepEqual(firstTimeNotices(home, ['a', 'c']), ['c']);
  assert.deepEqual(firstTimeNotices(home, ['a', 'b', 'c']), []);
});
