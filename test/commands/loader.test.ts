import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { loadCommands } from '../../src/commands/loader.ts';
import { load } from './helpers.ts';

test('project, user and subfolder commands are loaded with their names and scopes', () => {
  const l = load(
    { 'review.md': 'Review the diff.', 'frontend/component.md': 'Make a component.', 'a/b/deep.md': 'Deep.', 'notes.txt': 'not a command' },
    { 'deploy.md': 'Deploy it.' },
  );
  assert.deepEqual(
    l.commands.map((c) => [c.scope, c.name]),
    [
      ['project', 'a:b:deep'],
      ['project', 'frontend:component'],
      ['project', 'review'],
      ['user', 'deploy'],
    ],
  );
  assert.deepEqual(l.problems, []);
  assert.deepEqual(l.shadowed, []);
  const component = l.commands.find((c) => c.name === 'frontend:component')!;
  assert.equal(component.file, join(l.dir, '.assistant/commands/frontend/component.md'));
  assert.equal(component.body, 'Make a component.');
  assert.equal(component.description, 'Make a component.', 'the description defaults to the first line');
  assert.deepEqual(component.allowedTools, []);
});

test('no command folders: nothing loaded, no problems', () => {
  const l = load({});
  assert.deepEqual(l, { commands: [], problems: [], shadowed: [], dir: l.dir, home: l.home });
});

test('a user command with a project command of the same name is shadowed, and still loaded', () => {
  const l = load({ 'review.md': 'Project review.' }, { 'review.md': 'User review.', 'other.md': 'Other.' });
  assert.deepEqual(l.shadowed, ['review']);
  assert.deepEqual(
    l.commands.map((c) => `${c.scope}:${c.name}`),
    ['project:review', 'user:other', 'user:review'],
  );
});

test('front matter fields are read', () => {
  const l = load({
    'commit.md': [
      '---',
      'description: "Create a git commit: staged only"',
      "argument-hint: '[message]'",
      'allowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)',
      'model: anthropic:claude-haiku-4-5',
      '---',
      '',
      '## Context',
      'Commit with message $ARGUMENTS',
    ].join('\n'),
  });
  assert.deepEqual(l.problems, []);
  const [c] = l.commands;
  assert.equal(c.description, 'Create a git commit: staged only');
  assert.equal(c.argumentHint, '[message]');
  assert.deepEqual(c.allowedTools, ['Bash(git add:*)', 'Bash(git status:*)', 'Bash(git commit:*)']);
  assert.equal(c.model, 'anthropic:claude-haiku-4-5');
  assert.equal(c.body, '## Context\nCommit with message $ARGUMENTS');
});

test('allowed-tools: commas inside parentheses do not split; YAML lists and flow lists work', () => {
  const l = load({
    'a.md': '---\nallowed-tools: Bash(git log --format=%h,%s:*), Read\n---\nA',
    'b.md': '---\nallowed-tools:\n  - Bash(git add:*)\n  - "Edit(src/**)"\n  - Read, Grep\n---\nB',
    'c.md': '---\nallowed-tools: [Bash(npm run test, lint:*), Write]\n---\nC',
    'd.md': '---\nallowed-tools: Read\n---\nD',
  });
  assert.deepEqual(l.problems, []);
  const tools = Object.fromEntries(l.commands.map((c) => [c.name, c.allowedTools]));
  assert.deepEqual(tools.a, ['Bash(git log --format=%h,%s:*)', 'Read']);
  assert.deepEqual(tools.b, ['Bash(git add:*)', 'Edit(src/**)', 'Read', 'Grep']);
  assert.deepEqual(tools.c, ['Bash(npm run test, lint:*)', 'Write']);
  assert.deepEqual(tools.d, ['Read']);
});

test('block scalars, comments and a # inside a value', () => {
  const l = load({ 'x.md': '---\n# a comment\ndescription: >\n  Fix issue #12\n  quickly\nargument-hint: |\n  one\n  two\n---\nBody' });
  assert.deepEqual(l.problems, []);
  assert.equal(l.commands[0].description, 'Fix issue #12 quickly');
  assert.equal(l.commands[0].argumentHint, 'one\ntwo');
});

test('bad front matter is reported with file and line, and the command is still loaded', () => {
  const l = load({
    'bad.md': [
      '---', //                                 1
      'description: fine', //                   2
      'this line is not a pair', //             3
      'colour: blue', //                        4
      'allowed-tools: Bash(git:*), not a rule', // 5
      'model:', //                              6
      '  - a', //                               7
      'title: Fix issue #12', //                8
      'argument-hint: "unterminated', //        9
      '---',
      'Body',
    ].join('\n'),
  });
  const file = join(l.dir, '.assistant/commands/bad.md');
  assert.equal(l.commands.length, 1);
  const c = l.commands[0];
  assert.equal(c.description, 'fine');
  assert.equal(c.model, undefined, 'a list where text is expected: the default is used');
  assert.deepEqual(c.allowedTools, ['Bash(git:*)'], 'the malformed rule is left out, the good one kept');
  assert.equal(c.argumentHint, undefined);
  assert.deepEqual(
    l.problems.map((p) => p.replace(`${file}:`, '')),
    [
      // YAML reads "this line is not a pair" and the next line as one key: both are left out.
      '3: "this line is not a pair" is not "key: value"',
      '5: allowed-tools: "not a rule" is not a rule: write Tool or Tool(specifier), e.g. Bash(git:*) or Edit(src/**); this rule is left out',
      '6: model must be text, not a list',
      '8: title: " #12" is a YAML comment and is left out; put the value in quotes to keep it',
      '8: unknown key "title" is ignored (known: description, argument-hint, allowed-tools, model)',
      '9: argument-hint: the quoted value has no closing "',
    ],
  );
});

test('unterminated front matter: reported at line 1, the whole file becomes the prompt', () => {
  const l = load({ 'open.md': '---\ndescription: x\nDo the thing.' });
  assert.equal(l.problems.length, 1);
  assert.match(l.problems[0], /open\.md:1: the front matter opened by "---" is never closed/);
  assert.equal(l.commands[0].body, '---\ndescription: x\nDo the thing.');
});

test('a duplicate key is reported; the later value is used', () => {
  const l = load({ 'dup.md': '---\ndescription: one\ndescription: two\n---\nBody' });
  assert.equal(l.commands[0].description, 'two');
  assert.match(l.problems[0], /dup\.md:3: "description" is also set on line 2/);
});

test('files that cannot be commands are reported, not silently dropped', () => {
  const l = load({ 'my command.md': 'x', 'empty.md': '---\ndescription: nothing\n---\n', 'help.md': 'My help' });
  assert.deepEqual(
    l.commands.map((c) => c.name),
    ['empty', 'help'],
  );
  assert.equal(l.problems.length, 3, l.problems.join('\n'));
  assert.ok(l.problems.some((p) => /my command\.md: cannot be a command/.test(p)));
  assert.ok(l.problems.some((p) => /empty\.md: the command has no prompt/.test(p)));
  assert.ok(l.problems.some((p) => /help\.md: \/help is a built-in command and wins; run this file as \/project:help/.test(p)));
});

test('a description defaults to the first non-empty line without heading marks', () => {
  const l = load({ 'h.md': '\n\n# Review the pull request\n\nDetails' });
  assert.equal(l.commands[0].description, 'Review the pull request');
});

test('a project in the home directory loads its commands once, as project commands', () => {
  const l = load({ 'x.md': 'X' });
  const again = loadCommands({ projectRoot: l.dir, home: l.dir });
  assert.deepEqual(
    again.commands.map((c) => `${c.scope}:${c.name}`),
    ['project:x'],
  );
  assert.deepEqual(again.shadowed, []);
});
