import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/errors.ts';
import { parseSettings } from '../../src/config/load.ts';

const FILE = '/p/.assistant/settings.json';

function configError(text: string): ConfigError {
  try {
    parseSettings(FILE, text, []);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  assert.fail(`no ConfigError for ${text}`);
}

test('a matcher that is not a valid regular expression is a settings error naming file, line, column and the fix', () => {
  const text =
    '{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash",  "hooks": [] },\n      { "matcher": "Bash(", "hooks": [ { "type": "command", "command": "./guard.sh" } ] }\n    ]\n  }\n}\n';
  const e = configError(text);
  assert.equal(e.exitCode, 2);
  assert.deepEqual([e.file, e.line, e.column], [FILE, 5, 9]);
  assert.match(
    e.message,
    /^\/p\/\.assistant\/settings\.json:5:9: "hooks\.PreToolUse(?:\[1\]|\.1)\.matcher": "Bash\(" is not a valid regular expression \(Unterminated group\)/,
  );
  assert.match(e.message, /write a tool name \("Bash"\), names joined by \| \("Edit\|Write"\), or a valid regular expression/);
  for (const bad of ['[Bash', 'Bash)', '*Bash', 'Edit|(Write']) {
    assert.match(
      configError(JSON.stringify({ hooks: { PostToolUse: [{ matcher: bad, hooks: [] }] } })).message,
      /is not a valid regular expression/,
      bad,
    );
  }
});

test('valid matchers of every form load, also on events that ignore matchers', () => {
  for (const matcher of ['', '*', 'Bash', 'Edit|Write', 'Edit,Write', 'Ba.*', '^Edit$', 'mcp__memory__.*', '(Read|Write)']) {
    const warnings: string[] = [];
    parseSettings(FILE, JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [] }], Stop: [{ matcher, hooks: [] }] } }), warnings);
    assert.deepEqual(warnings, [], matcher);
  }
});

test('"failClosed" on a matcher group is a known key; a non-boolean is an error', () => {
  const warnings: string[] = [];
  const s = parseSettings(
    FILE,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', failClosed: true, hooks: [{ type: 'command', command: 'x' }] }] } }),
    warnings,
  );
  assert.deepEqual(warnings, [], 'not reported as an unknown key');
  assert.equal((s.hooks?.PreToolUse?.[0] as { failClosed?: boolean } | undefined)?.failClosed, true);
  const e = configError('{"hooks":{"Stop":[{"failClosed":"yes","hooks":[]}]}}');
  assert.match(e.message, /"hooks\.Stop(?:\[0\]|\.0)\.failClosed": .*expected boolean/);
});
