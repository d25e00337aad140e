import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { initShellParser } from '../../src/permissions/shell/parser.ts';
import { decideIn, world } from './damage.ts';

before(() => initShellParser());

const ALLOW = ['Bash(git log:*)', 'Bash(npm test:*)', 'Bash(git diff:*)'];

test('a code variable set to a literal value that runs nothing keeps the allow rule (GIT_PAGER=cat, NODE_OPTIONS limits)', () => {
  const w = world({});
  for (const cmd of [
    'GIT_PAGER=cat git log --oneline -5',
    'PAGER=cat git log',
    "PAGER='less -R' git diff",
    'NODE_OPTIONS=--max-old-space-size=4096 npm test',
    "NODE_OPTIONS='--experimental-vm-modules --no-warnings' npm test",
  ])
    assert.equal(decideIn(w, { cmd, allow: ALLOW }).behavior, 'allow', cmd);
});

test('the same variables with a value that runs code, or one not known, still ask', () => {
  const w = world({});
  for (const cmd of [
    "GIT_PAGER='rm -rf ~' git log",
    'GIT_PAGER=sh git log',
    "PAGER='less +!id' git log",
    'PAGER=./pager.sh git log',
    'GIT_PAGER="$P" git log',
    'GIT_PAGER=$(echo cat) git log',
    'GH_PAGER=vim git log',
    'NODE_OPTIONS=--require=./x.js npm test',
    "NODE_OPTIONS='--max-old-space-size=1 -r ./x.js' npm test",
    'NODE_OPTIONS=--import=./x.mjs npm test',
    'NODE_OPTIONS=--inspect npm test',
    'NODE_OPTIONS=--openssl-config=./c.cnf npm test',
    'NODE_OPTIONS="$X" npm test',
    'GIT_EDITOR=cat git log',
    'GIT_SSH_COMMAND=cat git log',
  ])
    assert.equal(decideIn(w, { cmd, allow: ALLOW }).behavior, 'ask', cmd);
});
