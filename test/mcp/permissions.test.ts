import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from '../../src/permissions/decide.ts';
import { buildRules, ruleNamesTool, type RuleSet } from '../../src/permissions/rules.ts';
import { suggestRules } from '../../src/permissions/suggest.ts';
import { matches } from '../../src/hooks/matcher.ts';
import type { PermissionMode } from '../../src/permissions/modes.ts';
import type { ToolAccess } from '../../src/tools/types.ts';
import { noLookup } from '../../src/permissions/look.ts';
import { findMcpRefs, withoutMcpRefs } from '../../src/mcp/resources.ts';
import { parsePromptCommand, promptArguments } from '../../src/mcp/prompts.ts';

/** MCP tools through the one permission seam (SPEC §5, §12): rules by tool, server and prefix; modes by declared access. */

function rules(allow: string[] = [], deny: string[] = [], ask: string[] = []): RuleSet {
  const built = buildRules([
    { kind: 'allow', rules: allow, source: 'test' },
    { kind: 'deny', rules: deny, source: 'test' },
    { kind: 'ask', rules: ask, source: 'test' },
  ]);
  assert.deepEqual([built.errors, built.warnings], [[], []]);
  return built.rules;
}
const d = (tool: string, r: RuleSet, mode: PermissionMode = 'normal', access: ToolAccess = 'other') =>
  decide(
    tool,
    {},
    { mode, projectRoot: '/proj', additionalDirs: [], home: '/home/u', rules: r, look: noLookup, kinds: new Map([[tool, { access }]]) },
  );

test('rules name an MCP tool, every tool of its server, or a prefix; nothing else', () => {
  assert.equal(ruleNamesTool('mcp__github', 'mcp__github__create_issue'), true);
  assert.equal(ruleNamesTool('mcp__github__*', 'mcp__github__create_issue'), true);
  assert.equal(ruleNamesTool('mcp__github__create_*', 'mcp__github__create_issue'), true);
  assert.equal(ruleNamesTool('mcp__github__create_issue', 'mcp__github__create_issue'), true);
  assert.equal(ruleNamesTool('mcp__github', 'mcp__github2__x'), false, 'another server whose name starts alike');
  assert.equal(ruleNamesTool('mcp__git', 'mcp__github__x'), false);
  assert.equal(ruleNamesTool('mcp__github__create', 'mcp__github__create_issue'), false, 'a tool name is exact');
  assert.equal(ruleNamesTool('mcp__my-server', 'mcp__my-server__t'), true, 'server names may have dashes');
  assert.equal(ruleNamesTool('Read', 'mcp__x__Read'), false);
});

test('deny beats allow; ask rules are firm; Normal and Auto-Accept ask by default, naming the rule that allows; Bypass runs', () => {
  const t = 'mcp__github__create_issue';
  assert.equal(d(t, rules(['mcp__github'], ['mcp__github__create_issue'])).behavior, 'deny');
  assert.match(d(t, rules([], ['mcp__github__*'])).reason, /denied by the rule "mcp__github__\*"/);
  assert.equal(d(t, rules(['mcp__github'])).behavior, 'allow');
  const ask = d(t, rules(['mcp__github'], [], ['mcp__github__create_issue']));
  assert.deepEqual([ask.behavior, ask.firm], ['ask', true]);
  for (const mode of ['normal', 'auto-accept'] as const) {
    const byMode = d(t, rules(), mode);
    assert.deepEqual([byMode.behavior, byMode.remedy], ['ask', `--allowed-tools "${t}"`]);
    assert.equal(d(t, rules(), mode, 'read').behavior, 'ask', 'read-only MCP tools ask too');
  }
  assert.equal(d(t, rules(), 'bypass').behavior, 'allow');
  assert.equal(d(t, rules([], ['mcp__github']), 'bypass').behavior, 'deny');
});

test('Plan Mode refuses an MCP tool that is not read-only, even when allowed; a read-only one asks, or runs when a rule allows it', () => {
  const refused = d('mcp__github__create_issue', rules(['mcp__github']), 'plan', 'other');
  assert.equal(refused.behavior, 'deny');
  assert.match(refused.reason, /^Plan Mode: mcp__github__create_issue is refused/);
  assert.equal(d('mcp__github__get_issue', rules(), 'plan', 'read').behavior, 'ask');
  assert.equal(d('mcp__github__get_issue', rules(['mcp__github__get_*']), 'plan', 'read').behavior, 'allow');
  assert.equal(d('mcp__github__get_issue', rules(['mcp__github']), 'plan', 'edit').behavior, 'deny');
});

test('"allow always" offers the one tool, never its server, even when the input has a path', () => {
  assert.deepEqual(suggestRules('mcp__fs__write_file', { path: '/etc/passwd' }, '/proj'), ['mcp__fs__write_file']);
});

test('hook matchers: a regex over MCP tool names, or mcp__SERVER for every tool of the server', () => {
  assert.equal(matches('mcp__github__.*', 'mcp__github__create_issue'), true);
  assert.equal(matches('mcp__github__.*', 'mcp__gitlab__x'), false);
  assert.equal(matches('mcp__github', 'mcp__github__create_issue'), true);
  assert.equal(matches('mcp__github', 'mcp__github2__x'), false);
  assert.equal(matches('Bash|mcp__github', 'mcp__github__x'), true);
  assert.equal(matches('mcp__.*__create_.*', 'mcp__jira__create_ticket'), true);
});

test('@SERVER:URI references: only configured servers and URIs with a scheme; trailing punctuation is not the URI', () => {
  const servers = new Set(['everything', 'gh']);
  const refs = findMcpRefs(
    'See @everything:demo://resource/static/x.md, and @gh:repo://a/b. Not @src/a.ts nor @other:x://y nor me@gh:x://y',
    servers,
  );
  assert.deepEqual(
    refs.map((r) => [r.server, r.uri]),
    [
      ['everything', 'demo://resource/static/x.md'],
      ['gh', 'repo://a/b'],
    ],
  );
  const blank = withoutMcpRefs('a @gh:repo://a/b c', findMcpRefs('a @gh:repo://a/b c', servers));
  assert.equal(blank.trim().replace(/\s+/g, ' '), 'a c');
});

test('/mcp__SERVER__PROMPT: arguments by position (the last takes the rest) or by name; missing ones named', () => {
  assert.deepEqual(parsePromptCommand('/mcp__everything__args-prompt New York state=NY'), {
    server: 'everything',
    prompt: 'args-prompt',
    args: 'New York state=NY',
  });
  assert.equal(parsePromptCommand('/mcp list'), undefined);
  const declared = [{ name: 'city', required: true }, { name: 'state' }];
  assert.deepEqual(promptArguments(declared, 'Paris'), { args: { city: 'Paris' } });
  assert.deepEqual(promptArguments(declared, 'Paris Texas'), { args: { city: 'Paris', state: 'Texas' } });
  assert.deepEqual(promptArguments(declared, 'state=NY New York'), { args: { state: 'NY', city: 'New York' } });
  assert.deepEqual(promptArguments(declared, ''), { error: 'missing city (usage: <city> [state])' });
  assert.deepEqual(promptArguments([], 'x'), { error: 'it takes no arguments' });
});
