import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { decideByMode, type PermissionMode } from '../../src/permissions/modes.ts';
import { parseMode } from '../../src/permissions/gate.ts';
import { knownKinds } from '../../src/tools/kinds.ts';

const ctx = (mode: PermissionMode, tool: string) => ({
  mode,
  projectRoot: '/p',
  additionalDirs: ['/extra'],
  home: homedir(),
  kind: knownKinds.get(tool),
});

test('the mode table of SPEC §5, with no rules', () => {
  const cases: Array<[PermissionMode, string, Record<string, unknown>, string]> = [
    ['normal', 'Read', { file_path: 'src/a.ts' }, 'allow'],
    ['normal', 'Read', { file_path: '/etc/passwd' }, 'ask'],
    ['normal', 'Read', { file_path: '/extra/x' }, 'allow'],
    ['normal', 'Grep', { pattern: 'x' }, 'allow'],
    ['normal', 'Edit', { file_path: 'a.ts' }, 'ask'],
    ['normal', 'Write', { file_path: 'a.ts' }, 'ask'],
    ['normal', 'Bash', { command: 'ls' }, 'ask'],
    ['auto-accept', 'Edit', { file_path: 'a.ts' }, 'allow'],
    ['auto-accept', 'Write', { file_path: '/p/sub/b.ts' }, 'allow'],
    ['auto-accept', 'Write', { file_path: '/elsewhere/b.ts' }, 'ask'],
    ['auto-accept', 'Edit', { file_path: '../outside.ts' }, 'ask'],
    ['auto-accept', 'Bash', { command: 'ls' }, 'ask'],
    ['plan', 'Read', { file_path: 'a.ts' }, 'allow'],
    ['plan', 'Write', { file_path: 'plan.md' }, 'allow'],
    ['plan', 'Write', { file_path: '/p/plan.md' }, 'allow'],
    ['plan', 'Write', { file_path: 'src/plan.md' }, 'deny'],
    ['plan', 'Edit', { file_path: 'a.ts' }, 'deny'],
    ['bypass', 'Bash', { command: 'rm -rf /' }, 'allow'],
    ['bypass', 'Write', { file_path: '/etc/x' }, 'allow'],
  ];
  for (const [mode, tool, input, want] of cases) {
    assert.equal(decideByMode(tool, input, ctx(mode, tool)).behavior, want, `${mode} ${tool} ${JSON.stringify(input)}`);
  }
});

test('refusals say why and what would allow it', () => {
  const d = decideByMode('Edit', { file_path: 'a.ts' }, ctx('normal', 'Edit'));
  assert.equal(d.remedy, '--permission-mode auto-accept');
  const p = decideByMode('Bash', { command: 'make' }, ctx('plan', 'Bash'));
  assert.match(p.reason, /Plan Mode/);
});

test("mode names: ours and Claude Code's", () => {
  assert.equal(parseMode('acceptEdits'), 'auto-accept');
  assert.equal(parseMode('bypassPermissions'), 'bypass');
  assert.equal(parseMode('default'), 'normal');
  assert.equal(parseMode('yolo'), undefined);
});

test('settings files, .git/ and shell start-up files always ask, in every mode but bypass', () => {
  for (const file of ['.assistant/settings.json', '.assistant/settings.local.json', '.git/config']) {
    assert.equal(decideByMode('Edit', { file_path: file }, ctx('auto-accept', 'Edit')).behavior, 'ask', file);
    assert.equal(decideByMode('Write', { file_path: file }, ctx('normal', 'Write')).behavior, 'ask', file);
    assert.equal(decideByMode('Write', { file_path: file }, ctx('plan', 'Write')).behavior, 'deny', file);
    assert.equal(decideByMode('Write', { file_path: file }, ctx('bypass', 'Write')).behavior, 'allow', file);
  }
  assert.match(
    decideByMode('Edit', { file_path: '.assistant/settings.json' }, ctx('auto-accept', 'Edit')).reason,
    /always needs the user's approval/,
  );
  assert.equal(decideByMode('Edit', { file_path: '.assistant/commands/x.md' }, ctx('auto-accept', 'Edit')).behavior, 'allow');
});
