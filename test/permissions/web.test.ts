import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownKinds } from '../../src/tools/kinds.ts';
import { decide } from '../../src/permissions/decide.ts';
import { fsLookup } from '../../src/permissions/look.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { isLocalHost, isPrivateAddress } from '../../src/permissions/web.ts';

const ctx = (allow: string[] = [], deny: string[] = [], ask: string[] = [], mode: 'normal' | 'bypass' | 'plan' = 'normal') => ({
  mode,
  projectRoot: '/p',
  additionalDirs: [],
  home: '/h',
  kinds: knownKinds,
  look: fsLookup,
  rules: buildRules([
    { kind: 'allow', rules: allow, source: 't' },
    { kind: 'deny', rules: deny, source: 't' },
    { kind: 'ask', rules: ask, source: 't' },
  ]).rules,
});
const fetch = (url: string, c = ctx()) => decide('WebFetch', { url, prompt: 'x' }, c);

test('private and local addresses', () => {
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
  ])
    assert.ok(isPrivateAddress(a), a);
  for (const a of ['8.8.8.8', '172.32.0.1', '2606:4700::1', 'example.com', '::ffff:808:808']) assert.ok(!isPrivateAddress(a), a);
  // URL writes an IPv4-mapped address in hex: [::ffff:127.0.0.1] is host ::ffff:7f00:1, still this machine.
  for (const u of ['http://[::ffff:127.0.0.1]:8080/', 'http://[::ffff:10.1.2.3]/', 'http://[::ffff:169.254.169.254]/']) {
    assert.equal(fetch(u, ctx([], [], [], 'bypass')).behavior, 'deny', u);
  }
  for (const h of ['localhost', 'app.localhost', 'printer.local', 'metadata.google.internal', '127.0.0.1']) assert.ok(isLocalHost(h), h);
});

test('WebFetch asks by default, in every mode but bypass; nothing is pre-approved', () => {
  assert.equal(fetch('https://docs.python.org/3/').behavior, 'ask');
  assert.equal(fetch('https://docs.python.org/3/', ctx([], [], [], 'plan')).behavior, 'ask');
  assert.equal(fetch('https://example.com/', ctx([], [], [], 'bypass')).behavior, 'allow');
  assert.match(fetch('https://docs.python.org/').remedy ?? '', /WebFetch\(domain:docs\.python\.org\)/);
});

test('domain rules cover the host and its subdomains; deny wins', () => {
  assert.equal(fetch('https://docs.example.com/a', ctx(['WebFetch(domain:example.com)'])).behavior, 'allow');
  assert.equal(fetch('https://example.com/a', ctx(['WebFetch(domain:example.com)'])).behavior, 'allow');
  assert.equal(fetch('https://notexample.com/a', ctx(['WebFetch(domain:example.com)'])).behavior, 'ask');
  assert.equal(fetch('https://a.example.com/', ctx(['WebFetch(domain:example.com)'], ['WebFetch(domain:a.example.com)'])).behavior, 'deny');
  assert.equal(fetch('https://a.example.com/', ctx(['WebFetch'], [], ['WebFetch(domain:example.com)'])).behavior, 'ask');
  assert.equal(fetch('https://x.org/', ctx([], ['WebFetch'])).behavior, 'deny');
  assert.equal(fetch('ftp://x.org/').behavior, 'deny');
});

test('local addresses are refused unless a rule names them; a broad allow does not', () => {
  assert.equal(fetch('http://127.0.0.1:8080/', ctx([], [], [], 'bypass')).behavior, 'deny');
  assert.equal(fetch('http://localhost:3000/', ctx(['WebFetch'])).behavior, 'deny');
  assert.equal(fetch('http://[::1]/', ctx(['WebFetch'])).behavior, 'deny');
  assert.equal(fetch('http://localhost:3000/', ctx(['WebFetch(domain:localhost)'])).behavior, 'allow');
  assert.equal(fetch('http://192.168.1.5/', ctx([], [], ['WebFetch(domain:192.168.1.5)'])).behavior, 'ask');
});

test('Task and TodoWrite need no question, in Plan Mode too; a deny rule still refuses them', () => {
  assert.equal(decide('Task', {}, ctx([], [], [], 'plan')).behavior, 'allow');
  assert.equal(decide('TodoWrite', {}, ctx()).behavior, 'allow');
  assert.equal(decide('Task', {}, ctx([], ['Task'])).behavior, 'deny');
});

const search = (input: Record<string, unknown>, c = ctx()) => decide('WebSearch', { query: 'node 24 release', ...input }, c);

test('WebSearch asks by default, in Plan Mode too; Bypass runs it; WebSearch rules allow, ask and deny it', () => {
  assert.equal(search({}).behavior, 'ask');
  assert.match(search({}).remedy ?? '', /--allowed-tools "WebSearch"/);
  assert.equal(search({}, ctx([], [], [], 'plan')).behavior, 'ask', 'it only reads: Plan Mode asks, as for WebFetch');
  assert.equal(search({}, ctx(['WebSearch'], [], [], 'plan')).behavior, 'allow');
  assert.equal(search({}, ctx([], [], [], 'bypass')).behavior, 'allow');
  assert.equal(search({}, ctx(['WebSearch'])).behavior, 'allow');
  assert.equal(search({}, ctx(['WebSearch'], ['WebSearch'])).behavior, 'deny');
  assert.equal(search({}, ctx([], ['WebSearch'], [], 'bypass')).behavior, 'deny', 'deny wins over Bypass');
  const asked = search({}, ctx(['WebSearch'], [], ['WebSearch']));
  assert.deepEqual([asked.behavior, asked.firm], ['ask', true]);
  assert.equal(search({}, ctx(['Read'])).behavior, 'ask', "another tool's rule does not allow it");
});

test('WebSearch(domain:…) allow rules allow the searches that stay on their sites; deny rules only block sites', () => {
  const py = ['WebSearch(domain:python.org)'];
  assert.equal(search({}, ctx(py)).behavior, 'allow', "a call naming no sites is kept to the rule's");
  assert.equal(search({ allowed_domains: ['docs.python.org'] }, ctx(py)).behavior, 'allow');
  assert.equal(search({ allowed_domains: ['docs.python.org', 'example.com'] }, ctx(py)).behavior, 'ask');
  assert.equal(
    search({}, ctx(['WebSearch'], ['WebSearch(domain:spam.example)'])).behavior,
    'allow',
    'a domain deny rule does not refuse the call',
  );
  assert.equal(
    search({ allowed_domains: ['spam.example'] }, ctx(['WebSearch'], ['WebSearch(domain:spam.example)'])).behavior,
    'deny',
    'nothing left to search',
  );
});

test("webSearchScope merges the call's sites with the rules'", async () => {
  const { webSearchScope } = await import('../../src/permissions/web.ts');
  const rules = (allow: string[], deny: string[] = []) => ctx(allow, deny).rules;
  assert.deepEqual(webSearchScope({ query: 'q' }, rules([]), 'normal'), {});
  assert.deepEqual(webSearchScope({ query: 'q' }, rules(['WebSearch(domain:python.org)']), 'normal'), { allowedDomains: ['python.org'] });
  assert.deepEqual(webSearchScope({ query: 'q' }, rules(['WebSearch(domain:python.org)']), 'bypass'), {}, 'Bypass: any site');
  assert.deepEqual(
    webSearchScope({ query: 'q' }, rules(['WebSearch', 'WebSearch(domain:python.org)']), 'normal'),
    {},
    'WebSearch itself: any site',
  );
  assert.deepEqual(
    webSearchScope(
      { query: 'q', allowed_domains: ['https://Docs.Python.org/3/', 'x.org'], blocked_domains: ['*.bad.example'] },
      rules([], ['WebSearch(domain:x.org)']),
      'normal',
    ),
    { allowedDomains: ['docs.python.org'], blockedDomains: ['bad.example', 'x.org'] },
  );
  assert.match(
    String(webSearchScope({ query: 'q', allowed_domains: ['a.x.org'] }, rules([], ['WebSearch(domain:x.org)']), 'normal')),
    /blocked/,
  );
});
