import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandCommand, suggestBashRule, type ExpandContext } from '../../src/commands/expand.ts';
import type { CommandDef } from '../../src/commands/loader.ts';
import { matchesBash, parseRule } from '../../src/permissions/rules.ts';
import { splitWords } from '../../src/commands/words.ts';
import { makeProject } from '../fakes/project.ts';

const cmd = (body: string, over: Partial<CommandDef> = {}): CommandDef => ({
  name: 'x',
  scope: 'project',
  file: '/p/.assistant/commands/x.md',
  description: '',
  allowedTools: [],
  body,
  ...over,
});

/** A stub of the real check (rule-check.test.ts has the real one): a Bash rule's specifier as a prefix of the command. */
const calls: Array<[string[], string]> = [];
const ctx = (over: Partial<ExpandContext> = {}): ExpandContext => ({
  cwd: makeProject().dir,
  signal: new AbortController().signal,
  check(command, c) {
    calls.push([c.allowedTools, command]);
    const ok = c.allowedTools.some((rule) => {
      const r = parseRule(rule, 'allow', 'test');
      return typeof r !== 'string' && r.tool === 'Bash' && (r.specifier === undefined || matchesBash(r.specifier, command));
    });
    return ok
      ? { behavior: 'allow', reason: 'allowed' }
      : { behavior: 'ask', reason: `\`${command}\` is not allowed by any rule`, needs: 'Bash(x:*)', part: command };
  },
  ...over,
});
const expand = async (body: string, args: string, over: Partial<CommandDef> = {}, c: Partial<ExpandContext> = {}) =>
  expandCommand(cmd(body, over), args, ctx(c));

test('$ARGUMENTS becomes the text after the command', async () => {
  assert.deepEqual(await expand('Fix issue $ARGUMENTS now. ($ARGUMENTS)', '#12 fast'), {
    ok: true,
    prompt: 'Fix issue #12 fast now. (#12 fast)',
    allowedTools: [],
  });
});

test('$1…$9 are the words, 1-based, with shell-style quoting; a missing one is empty', async () => {
  const r = await expand('A=$1 B=$2 C=$3 D=[$9]', 'one "two words" \'three $x\'');
  assert.deepEqual(r, { ok: true, prompt: 'A=one B=two words C=three $x D=[]', allowedTools: [] });
  const money = await expand('Costs $10 or $15, arg $1.', 'a');
  assert.equal(money.ok && money.prompt, 'Costs $10 or $15, arg a.', '$10 and $15 are left as written');
});

test('substituted text is not substituted again, and $& in arguments is literal', async () => {
  const r = await expand('[$ARGUMENTS] [$1]', '$1 $& $ARGUMENTS');
  assert.equal(r.ok && r.prompt, '[$1 $& $ARGUMENTS] [$1]');
});

test('with no placeholder the arguments are appended; with none given nothing is', async () => {
  const appended = await expand('Review the code.', 'focus on auth');
  assert.equal(appended.ok && appended.prompt, 'Review the code.\n\nARGUMENTS: focus on auth');
  const none = await expand('Review the code.', '');
  assert.equal(none.ok && none.prompt, 'Review the code.');
  const withN = await expand('Review $1.', 'a b');
  assert.equal(withN.ok && withN.prompt, 'Review a.', 'a $N placeholder counts: nothing appended');
});

test('allowed-tools and model are passed on; @path is left for the integrator', async () => {
  const r = await expand('Look at @src/a.ts', '', { allowedTools: ['Read', 'Bash(git diff:*)'], model: 'openai:gpt-5' });
  assert.deepEqual(r, { ok: true, prompt: 'Look at @src/a.ts', allowedTools: ['Read', 'Bash(git diff:*)'], model: 'openai:gpt-5' });
});

test('!`cmd` runs when allowed-tools allows it, and its output takes its place', async () => {
  calls.length = 0;
  const r = await expand('Status:\n!`echo hi`\nand !`echo "$1-there"` done', 'hello', { allowedTools: ['Read', 'Bash(echo:*)'] });
  assert.deepEqual(r, { ok: true, prompt: 'Status:\nhi\nand hello-there done', allowedTools: ['Read', 'Bash(echo:*)'] });
  assert.deepEqual(
    calls,
    [
      [['Read', 'Bash(echo:*)'], 'echo hi'],
      [['Read', 'Bash(echo:*)'], 'echo "hello-there"'],
    ],
    'the check sees the substituted command and the allowed-tools',
  );
});

test('!`cmd` runs in ctx.cwd and includes stderr', async () => {
  const c = ctx();
  const r = await expandCommand(cmd('!`pwd; echo oops >&2`', { allowedTools: ['Bash'] }), '', c);
  assert.equal(r.ok && r.prompt, `${c.cwd}\noops`);
});

test('!`cmd` without a Bash rule that allows it is refused, naming the rule to add, and nothing runs', async () => {
  const { dir } = makeProject();
  const noRule = await expand('!`touch made-1` then !`echo hi`', '', {}, { cwd: dir });
  assert.equal(noRule.ok, false);
  assert.match(
    !noRule.ok ? noRule.error : '',
    /\/x runs `touch made-1` before the prompt is sent, but its allowed-tools has no Bash rule\. Add Bash\(touch:\*\) to allowed-tools in the front matter of \/p\/\.assistant\/commands\/x\.md/,
  );
  const wrong = await expand('!`echo ok` !`git status --short`', '', { allowedTools: ['Bash(echo:*)'] }, { cwd: dir });
  assert.equal(wrong.ok, false);
  assert.match(
    !wrong.ok ? wrong.error : '',
    /its allowed-tools \(Bash\(echo:\*\)\) do not allow it: `git status --short` is not allowed by any rule\. Add Bash\(git status:\*\)/,
  );
  assert.match(!wrong.ok ? wrong.error : '', /allowed-tools: Bash\(echo:\*\), Bash\(git status:\*\)/);
  const { existsSync } = await import('node:fs');
  assert.equal(existsSync(`${dir}/made-1`), false);
});

test('! syntax inside the arguments is never run; ! in the middle of a word is text', async () => {
  const r = await expand('Say $ARGUMENTS and a!`echo no`', '!`echo injected`', { allowedTools: ['Bash(echo:*)'] });
  assert.equal(r.ok && r.prompt, 'Say !`echo injected` and a!`echo no`');
});

test('a failing ! command is an error with its output', async () => {
  const r = await expand(
    'Before !`echo partial; echo bad thing >&2; exit 3` after',
    '',
    { allowedTools: ['Bash(echo:*)'] },
    {
      check: () => ({ behavior: 'allow', reason: 'allowed' }),
    },
  );
  assert.equal(r.ok, false);
  assert.equal(
    !r.ok && r.error,
    '/x (/p/.assistant/commands/x.md): `echo partial; echo bad thing >&2; exit 3` failed (exit code 3):\npartial\nbad thing',
  );
});

test('a ! command that outlives its timeout is killed and reported', async () => {
  const started = Date.now();
  const r = await expand('!`sleep 5`', '', { allowedTools: ['Bash(sleep:*)'] }, { timeoutMs: 300 });
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error : '', /timed out after 0\.3s/);
  assert.ok(Date.now() - started < 3000);
});

test('an aborted signal stops the expansion', async () => {
  const ac = new AbortController();
  ac.abort();
  const r = await expand('!`echo hi`', '', { allowedTools: ['Bash(echo:*)'] }, { signal: ac.signal });
  assert.deepEqual(r, { ok: false, error: '/x was interrupted' });
});

test('words and rule suggestions', () => {
  assert.deepEqual(splitWords(` a  "b c" 'd "e"' f\\ g "h\\"i" '' `), ['a', 'b c', 'd "e"', 'f g', 'h"i', '']);
  assert.deepEqual(splitWords('"unterminated quote'), ['unterminated quote']);
  assert.deepEqual(splitWords(''), []);
  assert.equal(suggestBashRule('git status --short'), 'Bash(git status:*)');
  assert.equal(suggestBashRule('/usr/bin/ls -la'), 'Bash(ls:*)');
  assert.equal(suggestBashRule('echo hi'), 'Bash(echo:*)', 'only known multi-command programs get a subcommand');
  assert.equal(suggestBashRule('npm test -- --watch'), 'Bash(npm test:*)');
});
