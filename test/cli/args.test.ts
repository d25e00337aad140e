import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitRules } from '../../src/cli/args.ts';

test('rules split on commas and spaces outside parentheses (SPEC §11.11)', () => {
  assert.deepEqual(splitRules(['Read,Bash(git log:*)', 'Edit']), ['Read', 'Bash(git log:*)', 'Edit']);
  assert.deepEqual(splitRules(['Bash(a,b) Grep']), ['Bash(a,b)', 'Grep']);
});

test('a rules value that looks like a swallowed prompt is exit 2 with the way out (F14)', async () => {
  const { parseArgs } = await import('../../src/cli/args.ts');
  const errors: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((s: string) => {
    errors.push(String(s));
    return true;
  }) as typeof process.stderr.write;
  try {
    assert.deepEqual(parseArgs(['-p', '--allowed-tools', 'Read', 'fix the bug'], '0'), { kind: 'exit', code: 2 });
    assert.match(errors.join(''), /--allowed-tools "fix the bug": this looks like your prompt/);
    assert.match(errors.join(''), /assistant -p "fix the bug" --allowed-tools Read\)/);
    assert.match(errors.join(''), /assistant -p --allowed-tools Read -- "fix the bug"/);
    errors.length = 0;
    // The ways out work, and space-separated tool names are rules, not a prompt.
    const dashed = parseArgs(['-p', '--allowed-tools', 'Read', '--', 'fix the bug'], '0');
    assert.equal(dashed.kind === 'run' && dashed.prompt, 'fix the bug');
    const spaced = parseArgs(['-p', '--disallowed-tools', 'Bash Write', '--allowed-tools', 'Bash(git log:*) Read'], '0');
    assert.deepEqual(spaced.kind === 'run' && [spaced.opts.allowedTools, spaced.opts.disallowedTools], [
      ['Bash(git log:*)', 'Read'],
      ['Bash', 'Write'],
    ]);
    assert.deepEqual(errors, []);
  } finally {
    process.stderr.write = write;
  }
});

test('--mcp-config takes several files or JSON strings, space-separated, as in Claude Code; the prompt stays the prompt', async () => {
  const { parseArgs } = await import('../../src/cli/args.ts');
  const got = (argv: string[]) => {
    const p = parseArgs(argv, '0');
    return p.kind === 'run' ? [p.opts.mcpConfig, p.prompt] : p;
  };
  assert.deepEqual(got(['-p', 'hi', '--mcp-config', 'a.json', 'b.json']), [['a.json', 'b.json'], 'hi']);
  assert.deepEqual(got(['--mcp-config', 'a.json', '{"mcpServers":{}}', '-p', 'hi']), [['a.json', '{"mcpServers":{}}'], 'hi']);
  assert.deepEqual(got(['--mcp-config', 'a.json', 'update package.json', '-p']), [['a.json'], 'update package.json']);
  assert.deepEqual(got(['--mcp-config=a.json', 'fix it']), [['a.json'], 'fix it']);
});
