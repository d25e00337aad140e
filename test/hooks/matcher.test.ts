import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matcherProblem, matches } from '../../src/hooks/matcher.ts';

const TOOLS = ['Bash', 'Read', 'Write', 'Edit', 'Grep', 'Glob', 'LS', 'NotebookEdit', 'mcp__memory__create'];
const selected = (matcher: string | undefined) => TOOLS.filter((t) => matches(matcher, t));

test('omitted, "" and "*" select every tool', () => {
  assert.deepEqual(selected(undefined), TOOLS);
  assert.deepEqual(selected(''), TOOLS);
  assert.deepEqual(selected('*'), TOOLS);
  assert.deepEqual(selected('  *  '), TOOLS);
});

test('an exact name selects that tool only, case-sensitively', () => {
  assert.deepEqual(selected('Bash'), ['Bash']);
  assert.deepEqual(selected('Edit'), ['Edit'], 'Edit is not a prefix match: NotebookEdit is not selected');
  assert.deepEqual(selected('bash'), []);
  assert.deepEqual(selected('Bas'), []);
  // SPEC §12 (issue 15): `mcp__memory` names every tool of that server, as in rules (Claude Code's matches nothing; docs/decisions.md).
  assert.deepEqual(selected('mcp__memory'), ['mcp__memory__create'], "a bare server name selects that server's tools");
  assert.deepEqual(selected('mcp__mem'), [], 'not a prefix of a server name');
});

test('A|B and A,B select either name (spaces around names are ignored)', () => {
  assert.deepEqual(selected('Edit|Write'), ['Write', 'Edit']);
  assert.deepEqual(selected('Edit,Write'), ['Write', 'Edit']);
  assert.deepEqual(selected('Edit | Write'), ['Write', 'Edit']);
  assert.deepEqual(selected('Read,Grep|Glob'), ['Read', 'Grep', 'Glob']);
});

test('a regular expression must match the whole tool name (SPEC §11.12)', () => {
  assert.equal(matches('.as', 'Bash'), false, '".as" only matches part of "Bash"');
  assert.equal(matches('.ash', 'Bash'), true);
  assert.equal(matches('Ba.*', 'Bash'), true);
  assert.equal(matches('Ba.*', 'Read'), false);
  assert.deepEqual(selected('.*Edit'), ['Edit', 'NotebookEdit']);
  assert.deepEqual(selected('Edit.*'), ['Edit'], 'anchored: Edit.* does not select NotebookEdit');
  assert.deepEqual(selected('^Edit$'), ['Edit']);
  assert.deepEqual(selected('mcp__memory__.*'), ['mcp__memory__create']);
  assert.deepEqual(selected('(Read|Write)'), ['Read', 'Write']);
  assert.deepEqual(selected('Edit|Write.*'), ['Write', 'Edit'], 'alternation is grouped before anchoring');
  assert.deepEqual(selected('G.ob|LS'), ['Glob', 'LS']);
});

test('an invalid regular expression selects nothing and is reported', () => {
  for (const bad of ['Ba(', '[Bash', 'Bash)', '*Bash']) {
    assert.deepEqual(selected(bad), [], bad);
    assert.match(matcherProblem(bad) ?? '', /not a valid regular expression/, bad);
  }
  for (const good of [undefined, '', '*', 'Bash', 'Edit|Write', 'Edit,Write', 'Ba.*', '^Edit$']) {
    assert.equal(matcherProblem(good), undefined, String(good));
  }
});

test('mcp__SERVER__* selects every tool of that server, as in rules (SPEC §12)', () => {
  assert.deepEqual(selected('mcp__memory__*'), ['mcp__memory__create']);
  assert.deepEqual(selected('mcp__other__*'), []);
  assert.deepEqual(selected('Bash|mcp__memory__*'), ['Bash', 'mcp__memory__create']);
});
