import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hoistSubcommand } from '../../src/cli/subcommand.ts';

test('options written before a subcommand move after it; prompts and plain runs are left alone', () => {
  assert.deepEqual(hoistSubcommand(['--settings', 'f.json', 'hooks', 'list']), ['hooks', 'list', '--settings', 'f.json']);
  assert.deepEqual(hoistSubcommand(['--verbose', 'doctor']), ['doctor', '--verbose']);
  assert.deepEqual(hoistSubcommand(['--settings', 'f.json', 'hooks', 'test', 'PreToolUse', '--tool', 'Bash']), [
    'hooks',
    'test',
    'PreToolUse',
    '--tool',
    'Bash',
    '--settings',
    'f.json',
  ]);
  assert.deepEqual(hoistSubcommand(['hooks', 'list', '--settings', 'f.json']), ['hooks', 'list', '--settings', 'f.json']);
  assert.deepEqual(hoistSubcommand(['-p', 'doctor']), ['-p', 'doctor']);
  assert.deepEqual(hoistSubcommand(['--model', 'doctor', 'fix it']), ['--model', 'doctor', 'fix it']);
  assert.deepEqual(hoistSubcommand(['--verbose', 'fix the bug']), ['--verbose', 'fix the bug']);
  assert.deepEqual(
    hoistSubcommand(['--append-system-prompt', 'hooks', 'fix it']),
    ['--append-system-prompt', 'hooks', 'fix it'],
    'every option with a value is known',
  );
});
