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
  const { hooks, warnings } = collectHooks([
    { file: '/home/.assistant/settings.json', settings: user },
    { file: '/p/.assistant/settings.json', settings: project },
    { file: '/p/none.json', settings: {} },
  ]);
  assert.deepEqual(warnings, []);
  assert.deepEqual(hooks, [
    { event: 'PreToolUse', matcher: 'Bash', command: 'u1', timeoutMs: 60_000, failClosed: false, source: '/home/.assistant/settings.json' },
    { event: 'PreToolUse', matcher: 'Bash', command: 'u2', timeoutMs: 5000, failClosed: false, source: '/home/.assistant/settings.json' },
    {
      event: 'PreToolUse',
      matcher: 'Edit|Write',
      command: 'p1',
      timeoutMs: 60_000,
      failClosed: true,
      source: '/p/.assistant/settings.json',
    },
    { event: 'Stop', matcher: undefined, command: 'p2', timeoutMs: 500, failClosed: false, source: '/p/.assistant/settings.json' },
  ] satisfies HookSpec[]);
});

test('collectHooks warns about unknown events (and ignores their hooks) and bad matchers', () => {
  const settings: Settings = {
    hooks: {
      PreToolUSE: [{ hooks: [cmd('typo')] }],
      TeammateIdle: [{ hooks: [cmd('unsupported')] }],
      PostToolUse: [{ matcher: 'Ba(', hooks: [cmd('never')] }],
      SessionEnd: [{ hooks: [cmd('bye')] }],
    },
  };
  const { hooks, warnings } = collectHooks([{ file: '/p/.assistant/settings.local.json', settings }]);
  assert.deepEqual(
    hooks.map((h) => h.command),
    ['never', 'bye'],
  );
  assert.equal(warnings.length, 3);
  assert.match(warnings[0], /^\/p\/\.assistant\/settings\.local\.json: unknown hook event "PreToolUSE"/);
  assert.match(warnings[0], /PreToolUse/, 'lists the known events');
  assert.match(warnings[1], /unknown hook event "TeammateIdle"/);
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
  return commands.map((command) => ({
    event: 'PreToolUse',
    matcher: undefined,
    command,
    timeoutMs: 60_000,
    failClosed: false,
    source: '/p/settings.json',
  }));
}

test('missingPrograms reports a missing script, a file that is not executable, and a program not on PATH', () => {
  const dir = tempProject();
  const env = { PATH: process.env.PATH };
  const out = missingPrograms(
    hooksOf(['./hooks/missing.sh', './hooks/plain.sh --flag', 'definitely-not-a-program-xyz --check', './hooks/ok.sh', 'node -e 1']),
    dir,
    env,
  );
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
    '$CLAUDE_PROJECT_DIR/hooks/ok.sh',
    '${CLAUDE_PROJECT_DIR}/hooks/ok.sh',
    '"$CLAUDE_PROJECT_DIR/hooks/ok.sh" --x',
    '"$CLAUDE_PROJECT_DIR"/hooks/ok.sh',
    '$ASSISTANT_PROJECT_DIR/hooks/ok.sh',
    '"${ASSISTANT_PROJECT_DIR}"/hooks/ok.sh arg',
    `${dir}/hooks/ok.sh`,
    'hooks/ok.sh',
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
    'echo hi',
    'exit 2',
    'true',
    'false',
    '[ -f x ] && exit 2',
    'test -f x',
    'cd src && ./x',
    'printf "%s" a',
    'cat >/dev/null',
    'if true; then exit 0; fi',
    '{ echo a; }',
    '(exit 2)',
    'read -r x',
    'export A=1',
    ': noop',
    'source ./env.sh',
    '. ./env.sh',
    '$HOME/bin/x.sh',
    '"$MY_HOOK"',
    'FOO=1 BAR=2 ./hooks/ok.sh',
    'exec ./hooks/ok.sh',
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

test('collectHooks: "failClosed": true on a group makes every hook of that group failClosed; an entry cannot switch it off', () => {
  const settings = {
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', failClosed: true, hooks: [cmd('g1'), cmd('g2', { failClosed: false }), cmd('g3', { failClosed: true })] },
        { matcher: 'Read', hooks: [cmd('r1'), cmd('r2', { failClosed: true })] },
      ],
    },
  } as Settings;
  const { hooks, warnings } = collectHooks([{ file: '/p/s.json', settings }]);
  assert.deepEqual(warnings, [], 'failClosed is a known group key');
  assert.deepEqual(
    hooks.map((h) => [h.command, h.failClosed]),
    [
      ['g1', true],
      ['g2', true],
      ['g3', true],
      ['r1', false],
      ['r2', true],
    ],
  );
});

test('programOf: the first word after assignments, or undefined when it cannot be told reliably', () => {
  const dir = '/proj';
  const cases: Array<[string, string | undefined]> = [
    // audit: `c=$(jq -r …); …` was read as the program "-r"
    ['c=$(jq -r .tool_input.command); echo "$c" >> log', undefined],
    ['x=$(cat) ./hooks/ok.sh', undefined],
    ['X=`date` ./run.sh', undefined],
    ['FOO=1 ./hooks/ok.sh', './hooks/ok.sh'],
    ['VAR=value cmd --flag', 'cmd'],
    ['VAR="a b" cmd', 'cmd'],
    ['VAR=\'a b\' OTHER="c d" tool arg', 'tool'],
    ['A=1; B=2', undefined],
    ['A=1', undefined],
    ['cd dir && ./x', 'cd'],
    ['"$CLAUDE_PROJECT_DIR"/hooks/x.sh', '/proj/hooks/x.sh'],
    ['"${ASSISTANT_PROJECT_DIR}/hooks/x.sh" --a', '/proj/hooks/x.sh'],
    ["'$CLAUDE_PROJECT_DIR'/x.sh", '$CLAUDE_PROJECT_DIR/x.sh'],
    ['$CLAUDE_PROJECT_DIRX/x.sh', '$CLAUDE_PROJECT_DIRX/x.sh'],
    ["bash -c 'exit 2'", 'bash'],
    ['npx prettier --write "$ASSISTANT_FILE_PATH"', 'npx'],
    ['"$(git rev-parse --show-toplevel)"/hooks/x.sh', undefined],
    ['$(which guard)', undefined],
    ['(cd src; ./x)', undefined],
    ['>/dev/null ./x', undefined],
    ['2>&1 ./x', undefined],
    ['"unclosed', undefined],
    ['  ./padded.sh', './padded.sh'],
    ['my\\ tool arg', 'my tool'],
    ['./a.sh;./b.sh', './a.sh'],
    ['./a.sh|tee log', './a.sh'],
  ];
  for (const [command, expected] of cases) assert.equal(programOf(command, dir), expected, command);
  assert.equal(programOf('~/bin/x.sh', dir, '/home/me'), '/home/me/bin/x.sh');
  assert.equal(programOf('"~/bin/x.sh"', dir, '/home/me'), '~/bin/x.sh', 'a quoted ~ is not expanded by the shell either');
});

test('missingPrograms: no false warning for assignments with substitutions or quotes; real misses after them are still found', () => {
  const dir = tempProject();
  const env = { PATH: process.env.PATH };
  const fine = [
    'c=$(jq -r .tool_input.command); echo "$c" >> log',
    'f=$(node -e "x"); [ -n "$f" ] && exit 2',
    'VAR="a b" ./hooks/ok.sh',
    "VAR='x y' node -e 1",
    'x=`cat`; exit 0',
    'cd hooks && ./ok.sh',
    '"$CLAUDE_PROJECT_DIR"/hooks/ok.sh',
    "bash -c 'cat >/dev/null; exit 0'",
    'node -e 1 | cat',
    './hooks/*.sh',
  ];
  assert.deepEqual(missingPrograms(hooksOf(fine), dir, env), []);
  const out = missingPrograms(
    hooksOf(['VAR="a b" ./hooks/gone.sh', 'A=1 no-such-program-xyz', '"$CLAUDE_PROJECT_DIR"/hooks/gone2.sh']),
    dir,
    env,
  );
  assert.equal(out.length, 3, out.join('\n'));
  assert.ok(out[0].includes(`${join(dir, 'hooks/gone.sh')} does not exist`), out[0]);
  assert.match(out[1], /program "no-such-program-xyz" is not on PATH/);
  assert.ok(out[2].includes(`${join(dir, 'hooks/gone2.sh')} does not exist`), out[2]);
});
