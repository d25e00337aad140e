import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { collectHooks, missingPrograms, programOf } from '../../src/hooks/config.ts';
import type { HookSpec } from '../../src/hooks/schema.ts';
import type { Settings } from '../../src/config/schema.ts';

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command' as const, command, ...extra });

test('collectHooks flattens every file in order and keeps where each hook came from', () => {
  const user: Settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('u1'), cmd('u2', { timeout: 5 })] }] } };
  const project: Settings = {
    hooks: {
      PreToolUse: [{ matcher: 'Edit|Write', hooks: [cmd('p1', { failClosed: true })] }],
      Stop: [{ hooks: [cmd('p2', { timeout: 0.5 })] }],
    },
  };
  const { hooks, warnings } = collectHooks([{ file: '/home/.assistant/settings.json', settings: user }, { file: '/p/.assistant/settings.json', settings: project }, { file: '/p/none.json', settings: {} }]);
  assert.deepEqual(warnings, []);
  assert.deepEqual(hooks, [
    { event: 'PreToolUse', matcher: 'Bash', command: 'u1', timeoutMs: 60_000, failClosed: false, source: '/home/.assistant/settings.json' },
    { event: 'PreToolUse', matcher: 'Bash', command: 'u2', timeoutMs: 5000, failClosed: false, source: '/home/.assistant/settings.json' },
    { event: 'PreToolUse', matcher: 'Edit|Write', command: 'p1', timeoutMs: 60_000, failClosed: true, source: '/p/.assistant/settings.json' },
    { event: 'Stop', matcher: undefined, command: 'p2', timeoutMs: 500, failClosed: false, source: '/p/.assistant/settings.json' },
  ] satisfies HookSpec[]);
});

test('collectHooks warns about unknown events (and ignores their hooks) and bad matchers', () => {
  const settings: Settings = {
    hooks: {
      PreToolUSE: [{ hooks: [cmd('typo')] }],
      SubagentStop: [{ hooks: [cmd('unsupported')] }],
      PostToolUse: [{ matcher: 'Ba(', hooks: [cmd('never')] }],
      SessionEnd: [{ hooks: [cmd('bye')] }],
    },
  };
  const { hooks, warnings } = collectHooks([{ file: '/p/.assistant/settings.local.json', settings }]);
  assert.deepEqual(hooks.map((h) => h.command), ['never', 'bye']);
  assert.equal(warnings.length, 3);
  assert.match(warnings[0], /^\/p\/\.assistant\/settings\.local\.json: unknown hook event "PreToolUSE"/);
  assert.match(warnings[0], /PreToolUse/, 'lists the known events');
  assert.match(warnings[1], /unknown hook event "SubagentStop"/);
  assert.match(warnings[2], /PostToolUse matcher "Ba\(" is not a valid regular expression.*never run/);
});

function tempProject() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-hook-config-')));
  mkdirSync(join(dir, 'hooks'));
  writeFileSync(join(dir, 'hooks', 'ok.sh'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'hooks', 'ok.sh'), 0o755);
  writeFileSync(join(dir, 'hooks', 'plain.sh'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'hooks', 'plain.sh'), 0o644);
  return dir;
}

function hooksOf(commands: string[]): HookSpec[] {
  return commands.map((command) => ({ event: 'PreToolUse', matcher: undefined, command, timeoutMs: 60_000, failClosed: false, source: '/p/settings.json' }));
}

test('missingPrograms reports a missing script, a file that is not executable, and a program not on PATH', () => {
  const dir = tempProject();
  const env = { PATH: process.env.PATH };
  const out = missingPrograms(hooksOf(['./hooks/missing.sh', './hooks/plain.sh --flag', 'definitely-not-a-program-xyz --check', './hooks/ok.sh', 'node -e 1']), dir, env);
  assert.equal(out.length, 3, out.join('\n'));
  assert.match(out[0], /PreToolUse hook "\.\/hooks\/missing\.sh" \(\/p\/settings\.json\)/);
  assert.ok(out[0].includes(join(dir, 'hooks/missing.sh')) && /does not exist/.test(out[0]), out[0]);
  assert.match(out[1], /plain\.sh is not executable \(chmod \+x/);
  assert.match(out[2], /program "definitely-not-a-program-xyz" is not on PATH/);
  // An empty PATH: even common programs are reported.
  assert.equal(missingPrograms(hooksOf(['node -e 1']), dir, { PATH: '' }).length, 1);
});

test('missingPrograms expands $CLAUDE_PROJECT_DIR and $ASSISTANT_PROJECT_DIR in every usual spelling', () => {
  const dir = tempProject();
  const env = { PATH: process.env.PATH };
  const present = [
    '$CLAUDE_PROJECT_DIR/hooks/ok.sh', '${CLAUDE_PROJECT_DIR}/hooks/ok.sh', '"$CLAUDE_PROJECT_DIR/hooks/ok.sh" --x',
    '"$CLAUDE_PROJECT_DIR"/hooks/ok.sh', '$ASSISTANT_PROJECT_DIR/hooks/ok.sh', '"${ASSISTANT_PROJECT_DIR}"/hooks/ok.sh arg',
    `${dir}/hooks/ok.sh`, 'hooks/ok.sh',
  ];
  assert.deepEqual(missingPrograms(hooksOf(present), dir, env), []);
  const absent = ['$CLAUDE_PROJECT_DIR/hooks/gone.sh', '"$CLAUDE_PROJECT_DIR"/hooks/gone.sh', '${ASSISTANT_PROJECT_DIR}/hooks/gone.sh'];
  const out = missingPrograms(hooksOf(absent), dir, env);
  assert.equal(out.length, 3, out.join('\n'));
  for (const line of out) assert.ok(line.includes(`${join(dir, 'hooks/gone.sh')} does not exist`), line);
  assert.equal(programOf('"$CLAUDE_PROJECT_DIR"/hooks/ok.sh --flag', dir), join(dir, 'hooks/ok.sh'));
});

test('missingPrograms expands ~/ to the home directory', () => {
  const dir = tempProject();
  const out = missingPrograms(hooksOf(['~/hooks/ok.sh', '~/hooks/gone.sh']), '/nonexistent-project', { PATH: process.env.PATH, HOME: dir });
  assert.equal(out.length, 1, out.join('\n'));
  assert.ok(out[0].includes(join(dir, 'hooks/gone.sh')), out[0]);
});

test('missingPrograms does not report shell builtins, keywords, variables or prefixes it cannot judge', () => {
  const dir = tempProject();
  const commands = [
    'echo hi', 'exit 2', 'true', 'false', '[ -f x ] && exit 2', 'test -f x', 'cd src && ./x', 'printf "%s" a', 'cat >/dev/null',
    'if true; then exit 0; fi', '{ echo a; }', '(exit 2)', 'read -r x', 'export A=1', ': noop', 'source ./env.sh', '. ./env.sh',
    '$HOME/bin/x.sh', '"$MY_HOOK"', 'FOO=1 BAR=2 ./hooks/ok.sh', 'exec ./hooks/ok.sh',
  ];
  assert.deepEqual(missingPrograms(hooksOf(commands), dir, { PATH: process.env.PATH }), []);
  // A variable prefix is skipped to the program it runs.
  assert.equal(missingPrograms(hooksOf(['FOO=1 ./hooks/missing.sh']), dir, { PATH: process.env.PATH }).length, 1);
});

test('missingPrograms reports one command once even when it is listed for several events', () => {
  const dir = tempProject();
  const hooks = [...hooksOf(['./hooks/missing.sh']), { ...hooksOf(['./hooks/missing.sh'])[0], event: 'Stop' as const }];
  assert.equal(missingPrograms(hooks, dir, { PATH: process.env.PATH }).length, 1);
});
