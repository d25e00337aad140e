import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suggestRules } from '../../src/permissions/suggest.ts';
import { initShellParser, splitCommand } from '../../src/permissions/shell/parser.ts';
import { addLocalAllowRules } from '../../src/config/local-rules.ts';
import { makeProject } from '../fakes/project.ts';

before(async () => { await initShellParser(); });

test('allow-always suggests the narrowest rule per part of a compound command', () => {
  const s = (c: string) => suggestRules('Bash', { command: c }, '/p', splitCommand(c));
  assert.deepEqual(s('git status && npm test'), ['Bash(git status:*)', 'Bash(npm test:*)']);
  assert.deepEqual(s('ls'), ['Bash(ls)']);
  assert.deepEqual(s('ls -la | wc -l'), ['Bash(ls:*)', 'Bash(wc:*)']);
  assert.deepEqual(s('eval "$X"'), []);
  assert.deepEqual(suggestRules('Edit', { file_path: 'src/a.ts' }, '/p'), ['Edit(/src/a.ts)']);
  assert.deepEqual(suggestRules('Read', { file_path: '/etc/hosts' }, '/p'), ['Read(//etc/**)']);
});

test('rules are added to settings.local.json, which is added to .gitignore when created', () => {
  const { dir } = makeProject({ '.gitignore': 'node_modules/' });
  addLocalAllowRules(dir, ['Bash(git status:*)']);
  addLocalAllowRules(dir, ['Bash(git status:*)', 'Bash(npm test)']);
  const json = JSON.parse(readFileSync(join(dir, '.assistant/settings.local.json'), 'utf8'));
  assert.deepEqual(json.permissions.allow, ['Bash(git status:*)', 'Bash(npm test)']);
  assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8'), 'node_modules/\n.assistant/settings.local.json\n');
  mkdirSync(join(dir, 'x'));
  writeFileSync(join(dir, '.assistant/settings.local.json'), '{ broken');
  assert.throws(() => addLocalAllowRules(dir, ['Read']), /not valid JSON/);
  assert.equal(readFileSync(join(dir, '.assistant/settings.local.json'), 'utf8'), '{ broken');
});
