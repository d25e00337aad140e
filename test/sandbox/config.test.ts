import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeSettings } from '../../src/config/load.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { pathEntry, sandboxConfig, DEFAULT_DENY_READ } from '../../src/sandbox/config.ts';
import { allowedBy, parseDomain, type DomainPattern } from '../../src/sandbox/domains.ts';
import type { SandboxSettings } from '../../src/sandbox/settings.ts';

const ctx = { projectRoot: '/p', home: '/h' };
const rules = (deny: string[] = [], allow: string[] = []) =>
  buildRules([
    { kind: 'deny', rules: deny, source: 's' },
    { kind: 'allow', rules: allow, source: 's' },
  ]).rules;
const config = (settings: SandboxSettings | undefined, r = rules(), additionalDirs: string[] = []) =>
  sandboxConfig({ settings, projectRoot: '/p', home: '/h', additionalDirs, rules: r });
const show = (e: ReturnType<typeof pathEntry>) => (e.kind === 'path' ? e.path : `pattern ${e.pattern} under ${e.base}`);

test('paths in sandbox settings are written like rule patterns', () => {
  const cases: Array<[string, string]> = [
    ['~/.ssh', '/h/.ssh'],
    ['~', '/h'],
    ['//etc/shadow', '/etc/shadow'],
    ['/build', '/p/build'],
    ['./build/', '/p/build'],
    ['secrets/**', '/p/secrets'],
    ['config/prod.json', '/p/config/prod.json'],
    ['.env', 'pattern .env under /p'],
    ['**/*.pem', 'pattern **/*.pem under /p'],
    ['~/keys/*.pem', 'pattern ~/keys/*.pem under /h'],
  ];
  for (const [written, want] of cases) assert.equal(show(pathEntry(written, 'x', ctx)), want, written);
});

test('settings and rules map to what the sandbox allows', () => {
  const off = config(undefined);
  assert.equal(off.autoAllow, true);
  assert.equal(off.allowUnsandboxed, false);
  assert.equal(off.unixSockets, false);
  assert.deepEqual(off.write, ['/p']);
  assert.deepEqual(
    off.denyRead.map(show),
    DEFAULT_DENY_READ.map((d) => `/h/${d.slice(2)}`),
  );
  assert.deepEqual(off.allowedDomains, []);

  const c = config(
    {
      autoAllowBashIfSandboxed: false,
      allowUnsandboxedCommands: true,
      excludedCommands: ['docker'],
      filesystem: { allowWrite: ['~/.npm', '//tmp/build', 'out/*'], denyWrite: ['config/prod.json'], denyRead: ['~/.kube'] },
      network: { allowedDomains: ['example.com', '*.npmjs.org:443', 'bad domain/x'], allowAllUnixSockets: true },
    },
    rules(['Read(.env)', 'Edit(src/locked/**)', 'Write(//etc/hosts)', 'Bash(rm:*)', 'Read'], ['WebFetch(domain:docs.example.org)']),
    ['/extra'],
  );
  assert.equal(c.autoAllow, false);
  assert.equal(c.allowUnsandboxed, true);
  assert.equal(c.unixSockets, true);
  assert.deepEqual(c.excludedCommands, ['docker']);
  assert.deepEqual(c.write, ['/p', '/extra', '/h/.npm', '/tmp/build']);
  assert.deepEqual(c.denyRead.map(show).slice(DEFAULT_DENY_READ.length), ['/h/.kube', 'pattern .env under /p']);
  assert.match(c.denyRead.at(-1)!.source, /Read\(\.env\)/);
  assert.deepEqual(c.denyWrite.map(show), ['/p/config/prod.json', '/p/src/locked', '/etc/hosts']);
  assert.deepEqual(
    c.allowedDomains.map((d) => d.text),
    ['example.com', '*.npmjs.org:443', 'docs.example.org'],
  );
  assert.equal(c.problems.length, 2);
  assert.match(c.problems.join('\n'), /allowWrite "out\/\*": write a path/);
  assert.match(c.problems.join('\n'), /"bad domain\/x" is not a host name/);
});

test('sandbox settings merge across files: lists add up, later single values win', () => {
  const m = mergeSettings([
    { sandbox: { enabled: true, filesystem: { allowWrite: ['~/.npm'] }, network: { allowedDomains: ['a.com'] } } },
    { sandbox: { enabled: false, autoAllowBashIfSandboxed: false, network: { allowedDomains: ['b.com'], allowAllUnixSockets: true } } },
    { model: 'x' },
  ]).sandbox!;
  assert.equal(m.enabled, false);
  assert.equal(m.autoAllowBashIfSandboxed, false);
  assert.deepEqual(m.filesystem?.allowWrite, ['~/.npm']);
  assert.deepEqual(m.network?.allowedDomains, ['a.com', 'b.com']);
  assert.equal(m.network?.allowAllUnixSockets, true);
});

test('allowed domains: exact names, wildcards for subdomains, ports', () => {
  const list = ['example.com', '*.github.com', 'localhost:3000', '[::1]:8080'].map((d) => parseDomain(d) as DomainPattern);
  const cases: Array<[string, number, string | undefined]> = [
    ['example.com', 443, 'example.com'],
    ['EXAMPLE.com.', 80, 'example.com'],
    ['www.example.com', 443, undefined],
    ['api.github.com', 443, '*.github.com'],
    ['a.b.github.com', 443, '*.github.com'],
    ['github.com', 443, undefined],
    ['localhost', 3000, 'localhost:3000'],
    ['localhost', 3001, undefined],
    ['[::1]', 8080, '[::1]:8080'],
    ['127.0.0.1', 3000, undefined],
  ];
  for (const [host, port, want] of cases) assert.equal(allowedBy(list, host, port)?.text, want, `${host}:${port}`);
  for (const bad of ['http://x.com', 'a.com/path', 'a*.com', 'x.com:0', 'x.com:99999', ''])
    assert.equal(typeof parseDomain(bad), 'string', bad);
});
