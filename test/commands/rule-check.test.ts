import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { expandCommand } from '../../src/commands/expand.ts';
import type { CommandDef } from '../../src/commands/loader.ts';
import { bashRuleCheck } from '../../src/commands/rule-check.ts';
import type { PermissionMode } from '../../src/permissions/modes.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { makeProject } from '../fakes/project.ts';

/**
 * `` !`cmd` `` of a custom command is decided like a Bash call of the session (audit 4, F1 and F7):
 * the session's deny and ask rules and its mode apply, with the command's allowed-tools added to allow.
 */

const SETTINGS = '/p/.assistant/settings.json';

async function run(
  body: string,
  allowedTools: string[],
  o: { args?: string; deny?: string[]; ask?: string[]; allow?: string[]; mode?: PermissionMode } = {},
) {
  const { dir, home } = makeProject({ '.env': 'KEY=SECRET\n', 'note.txt': 'hi\n', victim: 'v\n' });
  const rules = buildRules([
    { kind: 'deny', rules: o.deny ?? [], source: SETTINGS },
    { kind: 'ask', rules: o.ask ?? [], source: SETTINGS },
    { kind: 'allow', rules: o.allow ?? [], source: SETTINGS },
  ]).rules;
  const check = await bashRuleCheck({ cwd: dir, home, mode: o.mode ?? 'normal', additionalDirs: [], rules });
  const cmd: CommandDef = { name: 'c', scope: 'project', file: `${dir}/.assistant/commands/c.md`, description: '', allowedTools, body };
  const r = await expandCommand(cmd, o.args ?? '', { cwd: dir, signal: new AbortController().signal, check });
  return { r, dir, error: r.ok ? '' : r.error };
}

test('a settings Read deny refuses !`cat .env`, even with Bash(cat:*) in allowed-tools, also through $1', async () => {
  const leak = await run('Out: !`cat .env`', ['Bash(cat:*)'], { deny: ['Read(.env)'] });
  assert.equal(leak.r.ok, false);
  assert.match(
    leak.error,
    /`cat \.env` reads .*\.env, which the rule "Read\(\.env\)" \(\/p\/\.assistant\/settings\.json\) denies\. Nothing was run\./,
  );
  const arg = await run('Out: !`cat $1`', ['Bash(cat:*)'], { deny: ['Read(.env)'], args: '.env' });
  assert.equal(arg.r.ok, false);
  assert.doesNotMatch(arg.error, /SECRET/);
  const fine = await run('Out: !`cat note.txt`', ['Bash(cat:*)'], { deny: ['Read(.env)'] });
  assert.deepEqual(fine.r.ok && fine.r.prompt, 'Out: hi');
});

test('a settings Bash deny beats the allowed-tools grant: nothing runs', async () => {
  const { r, dir, error } = await run('Out: !`rm note.txt`', ['Bash(rm:*)'], { deny: ['Bash(rm:*)'] });
  assert.equal(r.ok, false);
  assert.match(error, /`rm note\.txt` is denied by the rule "Bash\(rm:\*\)"/);
  assert.equal(existsSync(`${dir}/note.txt`), true);
});

test('Plan Mode refuses a !`cmd` that writes, and runs a read-only one', async () => {
  const { r, dir, error } = await run('!`rm note.txt`', ['Bash(rm:*)'], { mode: 'plan' });
  assert.equal(r.ok, false);
  assert.match(error, /Plan Mode/);
  assert.equal(existsSync(`${dir}/note.txt`), true);
  const read = await run('!`cat note.txt`', ['Bash(cat:*)'], { mode: 'plan' });
  assert.equal(read.r.ok && read.r.prompt, 'hi');
});

test('an ask rule cannot be answered by a !`cmd`: refused, naming the rule', async () => {
  const { r, error } = await run('!`cat note.txt`', ['Bash(cat:*)'], { ask: ['Bash(cat:*)'] });
  assert.equal(r.ok, false);
  assert.match(error, /matches the ask rule "Bash\(cat:\*\)".*cannot ask/);
});

test('the refusal names the part that failed and the rule to add (F7)', async () => {
  const sneak = await run('Out: !`cat note.txt; rm victim`', ['Bash(cat:*)']);
  assert.equal(sneak.r.ok, false);
  assert.match(sneak.error, /`rm victim` is not allowed by any rule\. Add Bash\(rm:\*\) to allowed-tools/);
  assert.match(sneak.error, /allowed-tools: Bash\(cat:\*\), Bash\(rm:\*\)\n/);
  assert.equal(readFileSync(`${sneak.dir}/victim`, 'utf8'), 'v\n');
  const subst = await run('Out: !`cat note.txt $(rm victim)`', ['Bash(cat:*)']);
  assert.match(subst.error, /Add Bash\(rm:\*\)/);
  const redirect = await run('Out: !`cat note.txt > victim`', ['Bash(cat:*)']);
  assert.match(redirect.error, /writes .*victim.*Add Edit\(\/victim\) to allowed-tools/s);
  assert.equal(readFileSync(`${redirect.dir}/victim`, 'utf8'), 'v\n');
});

test('the session allow rules count too, but allowed-tools must name Bash', async () => {
  const both = await run('!`cat note.txt && wc -c note.txt`', ['Bash(cat:*)'], { allow: ['Bash(wc:*)'] });
  assert.equal(both.r.ok, true);
  const none = await run('!`cat note.txt`', ['Read']);
  assert.match(none.error, /has no Bash rule/);
});
