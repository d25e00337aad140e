import assert from 'node:assert/strict';
import { test } from 'node:test';
import { helpText } from '../../src/commands/help.ts';
import { load } from './helpers.ts';

test('/help lists built-ins, custom commands with source and hints, and says project wins a clash', () => {
  const l = load(
    {
      'review.md': '---\ndescription: Review a PR\nargument-hint: [pr-number]\n---\nReview $1',
      'frontend/component.md': 'Make a component',
    },
    { 'review.md': '---\ndescription: My review\n---\nx', 'deploy.md': 'Deploy it', 'bad.md': '---\nnope\n---\nx' },
  );
  const text = helpText(l);
  for (const b of [
    '/help',
    '/clear',
    '/compact [instructions]',
    '/init',
    '/memory',
    '/mode',
    '/permissions',
    '/hooks',
    '/recipes',
    '/recipe N',
    '/cost',
    '/status',
    '/resume',
    '/rewind',
    '/exit',
  ]) {
    assert.ok(text.includes(b), b);
  }
  assert.match(text, /\/review \[pr-number\] +Review a PR \(project: \.assistant\/commands\/review\.md\)/);
  assert.match(text, /\/frontend:component +Make a component \(project: \.assistant\/commands\/frontend\/component\.md\)/);
  assert.match(text, /\/deploy +Deploy it \(user: ~\/\.assistant\/commands\/deploy\.md\)/);
  assert.match(
    text,
    /\/user:review +My review \(user: ~\/\.assistant\/commands\/review\.md\)\n +\(\/review runs the project command of the same name: project command wins; run this one as \/user:review\)/,
  );
  assert.match(text, /Problems with command files:\n {2}.*bad\.md:2: "nope" is not "key: value"/);
  assert.ok(text.indexOf('Built-in commands:') < text.indexOf('Custom commands:'));
});

test('/help with no custom commands says where to put them', () => {
  const text = helpText(load({}));
  assert.match(
    text,
    /Custom commands: none\. Add Markdown files to \.assistant\/commands\/ \(this project\) or ~\/\.assistant\/commands\/ \(all projects\)\./,
  );
  assert.doesNotMatch(text, /Problems/);
});

test('/help shows a custom command named like a built-in under its scoped form', () => {
  const text = helpText(load({ 'status.md': 'My status' }));
  assert.match(text, /\/project:status +My status .*\n +\(the built-in \/status wins; run this one as \/project:status\)/);
});
