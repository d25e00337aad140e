import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/errors.ts';
import { loadSettings, mergeSettings, parseSettings } from '../../src/config/load.ts';
import { makeProject } from '../fakes/project.ts';

test('invalid JSON names the file, line and column, and the fix', () => {
  const text = '{\n  "model": "anthropic:x",\n  "env": { "A": "1", }\n}\n';
  assert.throws(
    () => parseSettings('/p/.assistant/settings.json', text, []),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.file, '/p/.assistant/settings.json');
      assert.equal(e.line, 3);
      assert.match(e.message, /settings\.json:3:\d+: not valid JSON/);
      assert.match(e.message, /fix: /);
      return true;
    },
  );
});

test('a trailing comma is found where it is, even when V8 gives no position', () => {
  const text = '{\n  "permissions": {\n    "allow": ["Read",]\n  }\n}\n\n';
  assert.throws(
    () => parseSettings('/p/s.json', text, []),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.deepEqual([e.line, e.column], [3, 21]);
      assert.match(e.message, /a trailing comma/);
      assert.doesNotMatch(e.message, /\n {4}"allow"/, 'the file is not dumped into the message');
      return true;
    },
  );
  assert.throws(
    () => parseSettings('/p/s.json', '{\n "model": "x"\n "env": {}\n}\n', []),
    /s\.json:3:2: not valid JSON: Expected ',' or '\}' after property value\n  fix: add a comma/,
  );
});

test('a schema violation points at the key that is wrong', () => {
  const text = '{\n  "permissions": {\n    "defaultMode": "yolo"\n  }\n}';
  assert.throws(
    () => parseSettings('s.json', text, []),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.line, 3);
      assert.match(e.message, /permissions\.defaultMode/);
      assert.match(e.fix, /plan, normal, auto-accept, bypass/);
      return true;
    },
  );
});

test('unknown keys are warnings, not errors', () => {
  const warnings: string[] = [];
  const s = parseSettings('s.json', '{"model":"openai:gpt-5","colour":"blue"}', warnings);
  assert.equal(s.model, 'openai:gpt-5');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /unknown key "colour"/);
});

test('later files win for single values; lists and env merge', () => {
  const m = mergeSettings([
    { model: 'a:1', env: { A: '1', B: '1' }, permissions: { allow: ['Read'], defaultMode: 'plan' } },
    { model: 'b:2', env: { B: '2' }, permissions: { allow: ['Grep'], deny: ['Bash'] } },
  ]);
  assert.equal(m.model, 'b:2');
  assert.deepEqual(m.env, { A: '1', B: '2' });
  assert.deepEqual(m.permissions?.allow, ['Read', 'Grep']);
  assert.deepEqual(m.permissions?.deny, ['Bash']);
  assert.equal(m.permissions?.defaultMode, 'plan');
});

test('loads user, project, local and --settings in order', () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json': '{"model":"project:m"}',
    '.assistant/settings.local.json': '{"model":"local:m"}',
    'extra.json': '{"env":{"X":"1"}}',
  });
  mkdirSync(join(home, '.assistant'), { recursive: true });
  writeFileSync(join(home, '.assistant', 'settings.json'), '{"model":"user:m","env":{"U":"1"}}');
  const loaded = loadSettings(home, dir, 'extra.json', dir);
  assert.deepEqual(
    loaded.sources.map((s) => s.scope),
    ['user', 'project', 'local', 'flag'],
  );
  assert.equal(loaded.merged.model, 'local:m');
  assert.deepEqual(loaded.merged.env, { U: '1', X: '1' });
  const inline = loadSettings(home, dir, '{"model":"inline:m"}', dir);
  assert.equal(inline.merged.model, 'inline:m');
  assert.throws(() => loadSettings(home, dir, 'missing.json', dir), /--settings file does not exist/);
});
