import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suggestRules } from '../../src/permissions/suggest.ts';
import { initShellParser, splitCommand } from '../../src/permissions/shell/parser.ts';
import { addLocalAllowRules } from '../../src/config/local-rules.ts';
import { makeProject } from '../fakes/project.ts';

before(async () => {
  await initShellParser();
});

test('allow-always suggests a short, sensible set: one rule per part, no duplicates, no literal arguments, none for read-only parts', () => {
  const s = (c: string) => suggestRules('Bash', { command: c }, '/p', splitCommand(c));
  const table: Array<[string, string[]]> = [
    ['git status && npm test', ['Bash(git status:*)', 'Bash(npm test:*)']],
    // A command run as another user is allowed only by a rule naming the wrapper (decide.ts): the suggestion names it.
    ['sudo npm test', ['Bash(sudo npm test:*)']],
    ['doas apt-get install jq', ['Bash(doas apt-get:*)']],
    ['npm run test:unit -- --watch', ['Bash(npm run test:unit:*)']],
    // Read-only parts run without asking: no rule for them.
    ['ls -la | wc -l', []],
    ['tail -f log.txt', []],
    ['cat a.txt | grep foo | sort | uniq -c | sort -rn | head -5', ['Bash(sort:*)', 'Bash(uniq:*)']],
    // Never a rule made of a literal argument; `sort` and `sort -u` give one rule.
    ['sort data.csv && sort -u other.csv && sort', ['Bash(sort:*)']],
    ['python3 script.py --fast', ['Bash(python3:*)']],
    ['sed -i "s/a b/c/" f.txt', ['Bash(sed:*)']],
    // A package runner names the package, never the runner alone.
    ['npx prettier --write src', ['Bash(npx prettier:*)']],
    ['npx -y tsc --noEmit', ['Bash(npx tsc:*)']],
    ['pnpm dlx create-vite app', ['Bash(pnpm dlx create-vite:*)']],
    ['npx "$TOOL"', []],
    // A broader rule of the set covers a narrower one.
    ['git -C sub log && git push', ['Bash(git:*)']],
    ['eval "$X"', []],
  ];
  for (const [command, rules] of table) assert.deepEqual(s(command), rules, command);
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
