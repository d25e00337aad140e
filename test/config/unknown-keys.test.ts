import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings } from '../../src/config/load.ts';
import { ConfigError } from '../../src/config/errors.ts';

const warningsOf = (text: string) => {
  const w: string[] = [];
  parseSettings('s.json', text, w);
  return w;
};

test('a misspelt key below the top level is a warning with line, column and the likely key', () => {
  const text = '{\n  "permissions": {\n    "allow": ["Read"],\n    "denny": ["Bash"]\n  }\n}';
  const w: string[] = [];
  const s = parseSettings('s.json', text, w);
  assert.deepEqual(s.permissions, { allow: ['Read'] }, 'still a warning, not an error');
  assert.deepEqual(w, ['s.json:4:5: unknown key "permissions.denny" is ignored (did you mean "deny"?)']);
});

test('case slips, compaction, verify and hook entries are checked too', () => {
  assert.match(
    warningsOf('{"permissions":{"defaultmode":"plan"}}')[0],
    /"permissions\.defaultmode" is ignored \(did you mean "defaultMode"\?\)/,
  );
  assert.match(
    warningsOf('{"compaction":{"autoo":false}}')[0],
    /^s\.json:1:16: unknown key "compaction\.autoo" is ignored \(did you mean "auto"\?\)/,
  );
  assert.match(warningsOf('{"verify":{"command":"npm test","cmd":"x"}}')[0], /"verify\.cmd" is ignored \(known keys here: command\)/);
  const hooks = '{"hooks":{"PreToolUse":[{"matchr":"Bash","hooks":[{"type":"command","command":"x","timeot":5}]}]}}';
  const w = warningsOf(hooks);
  assert.equal(w.length, 2);
  assert.ok(
    w.some((x) => /unknown key "hooks\.PreToolUse\.0\.matchr" is ignored \(did you mean "matcher"\?\)/.test(x)),
    w.join('\n'),
  );
  assert.ok(
    w.some((x) => /^s\.json:1:\d+: unknown key "hooks\.PreToolUse\.0\.hooks\.0\.timeot" is ignored \(did you mean "timeout"\?\)/.test(x)),
    w.join('\n'),
  );
});

test('top-level unknown keys without a close match list the known ones; known shapes give no warning', () => {
  assert.match(warningsOf('{"colour":"blue"}')[0], /unknown key "colour" is ignored \(known keys here: \$schema, model, env, permissions/);
  assert.deepEqual(
    warningsOf(
      '{"$schema":"./x.json","model":"a:b","env":{"ANY_NAME":"1"},"verify":"npm test","mcpServers":{"x":{"command":"y","args":[]}},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","failClosed":true}]}]},"permissions":{"additionalDirectories":["../x"]},"compaction":{"threshold":0.5}}',
    ),
    [],
  );
});

test('a key written twice is a warning at the one that counts', () => {
  const w = warningsOf('{\n  "model": "a:b",\n  "env": {"A": "1", "A": "2"},\n  "model": "c:d"\n}');
  assert.deepEqual(w, [
    's.json:3:21: "env.A" is written twice in the same object; only this last one counts',
    's.json:4:3: "model" is written twice in the same object; only this last one counts',
  ]);
});

test('a key written twice under permissions or hooks is an error naming the file and both lines', () => {
  const error = (text: string) => {
    try {
      parseSettings('/p/s.json', text, []);
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      return e;
    }
    assert.fail('no error');
  };
  const e = error('{\n  "permissions": {"deny": ["Bash"]},\n  "model": "a:b",\n  "permissions": {"allow": ["Read"]}\n}');
  assert.equal(e.exitCode, 2);
  assert.deepEqual([e.file, e.line, e.column], ['/p/s.json', 4, 3]);
  assert.match(
    e.message,
    /^\/p\/s\.json:4:3: "permissions" is written twice in the same object \(lines 2 and 4\).*drop the first and its rules \(deny rules too\)/,
  );
  assert.match(e.fix, /merge the two into one "permissions"/);
  // Inside them too: a second "deny" or a second event name drops the first's entries.
  assert.match(
    error('{"permissions": {"deny": ["Bash"],\n "deny": ["Read"]}}').message,
    /s\.json:2:2: "permissions\.deny" is written twice .*lines 1 and 2/,
  );
  assert.match(
    error('{"hooks": {"Stop": [],\n\n "Stop": []}}').message,
    /s\.json:3:2: "hooks\.Stop" is written twice .*lines 1 and 3.*its hooks/,
  );
});
