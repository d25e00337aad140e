import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveSlash, type SlashResolution } from '../../src/commands/resolve.ts';
import { load } from './helpers.ts';

const loaded = load(
  { 'review.md': 'Project review', 'frontend/component.md': 'Component', 'help.md': 'Custom help', 'test-all.md': 'Tests' },
  { 'review.md': 'User review', 'deploy.md': 'Deploy', 'frontend/page.md': 'Page' },
);

/** scope:name of a custom resolution, or the kind and name otherwise, with the args. */
function summary(r: SlashResolution): string {
  if (r.kind === 'custom') return `custom ${r.command.scope}:${r.command.name} [${r.args}]`;
  if (r.kind === 'builtin') return `builtin ${r.name} [${r.args}]`;
  if (r.kind === 'unknown') return `unknown ${r.name} → ${r.suggestions.join(',')}`;
  return 'none';
}
const resolve = (input: string) => summary(resolveSlash(input, loaded));

test('plain /NAME and the scoped forms resolve custom commands', () => {
  assert.equal(resolve('/deploy'), 'custom user:deploy []');
  assert.equal(resolve('/user:deploy now'), 'custom user:deploy [now]');
  assert.equal(resolve('/frontend:component Button'), 'custom project:frontend:component [Button]');
  assert.equal(resolve('/project:frontend:component Button'), 'custom project:frontend:component [Button]');
  assert.equal(resolve('/frontend:page'), 'custom user:frontend:page []');
  assert.equal(resolve('/user:frontend:page'), 'custom user:frontend:page []');
  assert.equal(resolve('/test-all'), 'custom project:test-all []');
});

test('a project command wins a name clash for plain /NAME; /user:NAME still reaches the user one', () => {
  assert.equal(resolve('/review 42'), 'custom project:review [42]');
  assert.equal(resolve('/project:review 42'), 'custom project:review [42]');
  assert.equal(resolve('/user:review 42'), 'custom user:review [42]');
});

test('arguments are the rest of the input, trimmed, newlines kept', () => {
  assert.equal(resolve('/review   a "b c"  '), 'custom project:review [a "b c"]');
  assert.equal(resolve('/review\nline one\nline two'), 'custom project:review [line one\nline two]');
});

test('built-ins resolve with their arguments and win over a custom command of the same name', () => {
  assert.equal(resolve('/compact keep the test plan'), 'builtin compact [keep the test plan]');
  assert.equal(resolve('/recipe 12'), 'builtin recipe [12]');
  assert.equal(resolve('/help'), 'builtin help []');
  assert.equal(resolve('/project:help'), 'custom project:help []');
  for (const name of [
    'help',
    'clear',
    'compact',
    'init',
    'memory',
    'mode',
    'permissions',
    'hooks',
    'recipes',
    'recipe',
    'cost',
    'status',
    'resume',
    'rewind',
    'exit',
  ]) {
    assert.equal(resolveSlash(`/${name}`, loaded).kind, 'builtin', name);
  }
});

test('an unknown command gets suggestions by edit distance and prefix', () => {
  assert.equal(resolve('/reveiw'), 'unknown reveiw → review');
  assert.equal(resolve('/comp'), 'unknown comp → compact');
  assert.equal(resolve('/re'), 'unknown re → recipe,recipes,resume,review,rewind');
  assert.equal(resolve('/Help'), 'unknown Help → help', 'names are case-sensitive; the suggestion shows the right case');
  assert.equal(resolve('/xyzzy'), 'unknown xyzzy → ');
  assert.equal(resolve('/user:deplo'), 'unknown user:deplo → user:deploy');
  assert.equal(resolve('/user:test-all'), 'unknown user:test-all → project:test-all', 'the same name in the other scope comes first');
  assert.equal(resolve('/frontend:compnent'), 'unknown frontend:compnent → frontend:component');
});

test('not commands: plain prompts, paths, a bare slash, a leading space', () => {
  assert.equal(resolve('fix the failing test'), 'none');
  assert.equal(resolve('please run /review'), 'none');
  assert.equal(resolve('/usr/bin/env python3 --version fails'), 'none');
  assert.equal(resolve('/etc/hosts has a bad line'), 'none');
  assert.equal(resolve('/'), 'none');
  assert.equal(resolve('/ review'), 'none');
  assert.equal(resolve('//review'), 'none');
  assert.equal(resolve(' /review'), 'none');
  assert.equal(resolve(''), 'none');
});
