import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownKinds } from '../../src/tools/kinds.ts';
import { decide } from '../../src/permissions/decide.ts';
import { fsLookup } from '../../src/permissions/look.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { isLocalHost, isPrivateAddress } from '../../src/permissions/web.ts';

const ctx = (allow: string[] = [], deny: string[] = [], ask: string[] = [], mode: 'normal' | 'bypass' | 'plan' = 'normal') => ({
  mode, projectRoot: '/p', additionalDirs: [], home: '/h', kinds: knownKinds, look: fsLookup,
  rules: buildRules([{ kind: 'allow', rules: allow, source: 't' }, { kind: 'deny', rules: deny, source: 't' }, { kind: 'ask', rules: ask, source: 't' }]).rules,
});
const fetch = (url: string, c = ctx()) => decide('WebFetch', { url, prompt: 'x' }, c);

test('private and local addresses', () => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) assert.ok(isPrivateAddress(a), a);
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
