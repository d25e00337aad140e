import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/config/errors.ts';
import { parseSettings } from '../../src/config/load.ts';
import { scanJson } from '../../src/config/json-scan.ts';

/** The error parseSettings throws for `text`, as [line, column, problem, fix]. */
function failure(text: string): [number, number, string, string] {
  try {
    parseSettings('s.json', text, []);
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return [e.line, e.column, e.problem, e.fix];
  }
  assert.fail(`no error for ${JSON.stringify(text)}`);
}

test('a comment is reported where it starts, with the fix for comments', () => {
  const [line, column, problem, fix] = failure('// my settings\n{}');
  assert.deepEqual([line, column], [1, 1]);
  assert.match(problem, /a comment/);
  assert.match(fix, /JSON allows no comments/);
  assert.deepEqual(failure('{\n  "model": "x", /* the model */\n  "env": {}\n}').slice(0, 2), [2, 17]);
});

test('single quotes are reported at the quote, with "use double quotes"', () => {
  const [line, column, problem, fix] = failure('{\n  "model": \'x\'\n}\n');
  assert.deepEqual([line, column], [2, 12]);
  assert.match(problem, /single quotes/);
  assert.match(fix, /double quotes/);
  assert.deepEqual(failure('{\'model\': "x"}').slice(0, 3), [1, 2, 'not valid JSON: a key in single quotes']);
});

test('a leading byte-order mark is skipped; one elsewhere is named', () => {
  const warnings: string[] = [];
  assert.deepEqual(parseSettings('s.json', '\uFEFF{"model":"a:b"}', warnings), { model: 'a:b' });
  assert.deepEqual(warnings, []);
  const [line, column, problem] = failure('{"model":\uFEFF"a:b"}');
  assert.deepEqual([line, column], [1, 10]);
  assert.match(problem, /byte-order mark/);
  // Columns after a leading BOM are counted as an editor shows them (the BOM is invisible).
  assert.deepEqual(failure('\uFEFF{"model": \'x\'}').slice(0, 2), [1, 11]);
});

test('bad words, unquoted keys, escapes, numbers and unclosed things are located', () => {
  assert.deepEqual(failure('{"a": tru}').slice(0, 2), [1, 7]);
  assert.match(failure('{"a": undefined}')[3], /no undefined/);
  assert.match(failure('{"a": True}')[3], /lower case: true/);
  assert.deepEqual(failure('{\n  model: "x"\n}').slice(0, 3), [2, 3, 'not valid JSON: the key model is not in double quotes']);
  const [l, c, p, f] = failure('{"env": {"P": "C:\\Users"}}');
  assert.deepEqual([l, c], [1, 18]);
  assert.match(p, /single backslash/);
  assert.match(f, /\\\\/);
  assert.deepEqual(failure('{"a": 01}').slice(0, 2), [1, 7]);
  assert.match(failure('{\n"a": [1,\n2')[2], /ends inside the list opened at 2:6/);
  assert.match(failure('{"a": "x\n"}')[2], /not closed on its line/);
  assert.deepEqual(failure('{"a": 1}\n{"b": 2}').slice(0, 2), [2, 1]);
});

test('the trailing-comma message fires only when the trailing comma is the first error', () => {
  // The first error is the comment on line 2; the trailing comma on line 3 comes later.
  const [line, , problem] = failure('{\n  // note\n  "permissions": {"allow": ["Read",]}\n}');
  assert.equal(line, 2);
  assert.match(problem, /a comment/);
  // A missing comma before a later trailing comma is reported as the missing comma.
  const [l2, c2, p2] = failure('{\n "model": "x"\n "env": {"A": "1",}\n}');
  assert.deepEqual([l2, c2], [3, 2]);
  assert.doesNotMatch(p2, /trailing comma/);
  // And a trailing comma that is the first error is reported at the comma.
  const [l3, c3, p3] = failure('{"a": [1, 2,], "b": x}');
  assert.deepEqual([l3, c3], [1, 12]);
  assert.match(p3, /trailing comma/);
});

test('the scanner agrees with JSON.parse on what is valid', () => {
  const valid = ['{}', '[]', '{"a":[1,-2.5e+3,true,false,null,{"b":"\\u00e9\\n\\"x"}]}', ' \n{ "a" : { } }\r\n', '"x"', '0'];
  for (const t of valid) {
    JSON.parse(t);
    assert.equal(scanJson(t).error, undefined, t);
  }
  const invalid = [
    '{',
    '{"a":}',
    '{"a" 1}',
    '[1 2]',
    '{"a":1,}',
    '{"a":-}',
    '{"a":1.}',
    '{"a":"\\x"}',
    '{"a":"\t"}',
    '{,}',
    '[,1]',
    '{"a":1}}',
    '{"a":+1}',
    '{"a":.5}',
    '{"a":0x1}',
    '{"a":NaN}',
  ];
  for (const t of invalid) {
    assert.throws(() => JSON.parse(t), SyntaxError, t);
    assert.notEqual(scanJson(t).error, undefined, t);
  }
});

test('an empty or whitespace-only file is read as {} with a warning naming it', () => {
  for (const text of ['', '  \n\t\n']) {
    const warnings: string[] = [];
    assert.deepEqual(parseSettings('/p/.assistant/settings.json', text, warnings), {});
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^\/p\/\.assistant\/settings\.json: the file is empty/);
  }
});
