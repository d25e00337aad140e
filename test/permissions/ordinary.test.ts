import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initShellParser } from '../../src/permissions/shell/parser.ts';
import { ordinaryDecisions } from './ordinary.ts';

/**
 * No false positives (SPEC §5): ordinary developer commands decide as they did before the
 * hardening of SPEC §11.16 (recorded in fixtures/ordinary-decisions.json), but for the changes
 * below, each made on purpose.
 */

before(async () => {
  await initShellParser();
});

/** `context: command` → the new decision, and why it changed. */
const CHANGED: Record<string, [string, string]> = {
  // An interpreter's inline code can run any program: under a Bash deny rule it asks; Bypass refuses it.
  'normal+rules: node -e "console.log(1)"': ['ask', 'inline code while Bash(rm:*) is denied'],
  'bypass+deny: python3 -c "print(1)"': ['deny', 'inline code while Bash(curl:*) is denied'],
  'bypass+deny: node -e "console.log(1)"': ['deny', 'inline code while Bash(curl:*) is denied'],
  'bypass+deny: perl -ne "print if /x/" a.txt': ['deny', 'inline code while Bash(curl:*) is denied'],
  // It may delete files under secrets/, which Edit(secrets/**) protects.
  'bypass+deny: find . -name "*.pyc" -delete': ['deny', 'may remove files an Edit deny rule covers'],
  // Fewer questions: the loop's words are checked as files; `*.pyc` cannot name the settings.
  'allow-bash: for f in *.ts; do wc -l "$f"; done': ['allow', 'the loop variable names *.ts files'],
  'allow-bash: find . -name "*.pyc" -delete': ['allow', '-name *.pyc cannot remove the settings'],
  // A rule for all of Bash grants the shell whole: its writes inside the project need no Edit rule (SPEC §11.13).
  'allow-bash: echo x > out.txt': ['allow', 'Bash allowed whole (SPEC §11.13)'],
  'allow-bash: echo x >> log.txt': ['allow', 'Bash allowed whole (SPEC §11.13)'],
  'allow-bash: npm run lint > lint.txt 2>&1': ['allow', 'Bash allowed whole (SPEC §11.13)'],
};

test('ordinary commands decide as before (false positives stay at zero)', () => {
  const before = JSON.parse(readFileSync(new URL('./fixtures/ordinary-decisions.json', import.meta.url), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
  const now = ordinaryDecisions();
  const diff: string[] = [];
  for (const [ctx, decisions] of Object.entries(before)) {
    for (const [command, was] of Object.entries(decisions)) {
      const key = `${ctx}: ${command}`;
      const want = CHANGED[key]?.[0] ?? was;
      if (now[ctx][command] !== want) diff.push(`${key}: ${now[ctx][command]}, want ${want}${CHANGED[key] ? '' : ' (as before)'}`);
    }
  }
  assert.deepEqual(diff, []);
  for (const key of Object.keys(CHANGED)) assert.ok(key.split(': ')[0] in before, key);
});
