import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArgs } from '../../src/sandbox/bwrap.ts';
import { expandEntries } from '../../src/sandbox/expand.ts';
import { pathEntry } from '../../src/sandbox/config.ts';
import { planMounts, removePlaceholders } from '../../src/sandbox/mounts.ts';
import { findViolations, violationReport } from '../../src/sandbox/violations.ts';
import { guardedPaths } from '../../src/sandbox/guarded.ts';

function tree(files: string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-mounts-')));
  for (const f of files) {
    mkdirSync(join(root, f.endsWith('/') ? f : join(f, '..')), { recursive: true });
    if (!f.endsWith('/')) writeFileSync(join(root, f), 'x');
  }
  return root;
}

test('mounts: writable roots, protected paths read-only (made so when missing), hidden places last', () => {
  const t = tree([
    'p/.assistant/settings.json',
    'p/.git/hooks/',
    'p/.git/config',
    'p/src/a.ts',
    'p/.env',
    'p/sub/.env',
    'h/.ssh/id_rsa',
    'other/',
  ]);
  const p = join(t, 'p');
  const h = join(t, 'h');
  const ctx = { projectRoot: p, home: h };
  const deny = expandEntries([pathEntry('~/.ssh', 'default', ctx), pathEntry('.env', 'the rule "Read(.env)"', ctx)], ctx).paths;
  assert.deepEqual(deny.map((d) => d.path).sort(), [join(h, '.ssh'), join(p, '.env'), join(p, 'sub/.env')].sort());
  const plan = planMounts({
    write: [p, join(t, 'missing')],
    guarded: guardedPaths(p, h),
    denyWrite: [{ path: join(p, 'src'), source: 'the rule "Edit(src/**)"' }],
    denyRead: deny,
  });
  const show = plan.mounts.map((m) => `${m.kind} ${m.path.slice(t.length)}`);
  assert.deepEqual(show, [
    'write /p',
    'read-only /p/.assistant', // settings.local.json is missing: its directory is kept read-only
    'read-only /p/src',
    'hide /h/.ssh',
    'hide /p/.env',
    'read-only /p/.git/hooks',
    'read-only /p/.git/config',
    'hide /p/sub/.env',
  ]);
  assert.deepEqual(plan.placeholders, []);
  assert.deepEqual(plan.write, [p]);

  // A project without .assistant/: an empty read-only placeholder stops a script from making one
  // (no .git/: nothing to protect there, and a placeholder would make it look like a repository).
  const bare = tree(['q/README']);
  const q = join(bare, 'q');
  const plan2 = planMounts({ write: [q], guarded: guardedPaths(q, join(bare, 'home')), denyWrite: [], denyRead: [] });
  assert.deepEqual(
    plan2.mounts.map((m) => `${m.kind} ${m.path.slice(bare.length)}`),
    ['write /q', 'read-only /q/.assistant'],
  );
  assert.ok(existsSync(join(q, '.assistant')));
  assert.ok(!existsSync(join(q, '.git')));
  removePlaceholders(plan2);
  assert.ok(!existsSync(join(q, '.assistant')));

  const args = bwrapArgs({
    mounts: plan.mounts,
    emptyDir: '/E',
    emptyFile: '/F',
    cwd: p,
    seccompFd: 4,
    shareNet: false,
    disableUserns: true,
  });
  const at = (flag: string, dest: string) => args.findIndex((a, i) => a === flag && args[i + 2] === dest);
  assert.ok(at('--ro-bind', '/') < at('--bind', p) && at('--bind', p) < at('--ro-bind', join(p, 'src')));
  assert.equal(args[at('--ro-bind', join(h, '.ssh')) + 1], '/E');
  assert.equal(args[at('--ro-bind', join(p, '.env')) + 1], '/F');
  for (const f of ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-net', '--die-with-parent'])
    assert.ok(args.includes(f), f);
  assert.deepEqual(args.slice(-5), ['--chdir', p, '--seccomp', '4', '--']);
});

test('a writable root inside a hidden place shows again; nothing re-opens part of a hidden place read-only', () => {
  const t = tree(['h/proj/a', 'h/.bashrc']);
  const plan = planMounts({
    write: [join(t, 'h/proj')],
    guarded: [join(t, 'h/.bashrc'), join(t, 'h/proj/.mcp.json')],
    denyWrite: [],
    denyRead: [{ path: join(t, 'h'), source: 's' }],
  });
  assert.deepEqual(
    plan.mounts.map((m) => `${m.kind} ${m.path.slice(t.length)}`),
    ['hide /h', 'write /h/proj'],
  );
});

test('violations are read from what commands print and named with the rule that stopped them', () => {
  const ctx = {
    cwd: '/p',
    home: '/h',
    write: ['/p', '/tmp/s/tmp'],
    network: false,
    denials: [{ host: 'evil.example', port: 443, reason: 'not in sandbox.network.allowedDomains', at: 0 }],
    readOnly: [
      { path: '/p/.assistant', source: 'protected' },
      { path: '/p/src', source: 'the rule "Edit(src/**)"' },
    ],
    hidden: [{ path: '/h/.ssh', source: "the sandbox's default denyRead" }],
  };
  const output = [
    "touch: cannot touch '/etc/x': Read-only file system",
    'bash: line 1: /usr/local/y: Read-only file system',
    "OSError: [Errno 30] Read-only file system: '.assistant/settings.json'",
    "Error: EROFS: read-only file system, open '/p/src/a.ts'",
    'mkdir: cannot create directory ‘/opt/z’: Read-only file system',
    'cat: /h/.ssh/id_rsa: Permission denied',
    'cat: /etc/shadow: Permission denied', // not the sandbox's doing
    'curl: (6) Could not resolve host: example.org',
    "touch: cannot touch '/p/ok': Read-only file system", // inside the project: not the sandbox's list, not reported
  ].join('\n');
  const v = findViolations(output, ctx);
  assert.deepEqual(
    v.map((x) => `${x.kind} ${x.target}`),
    [
      'write /etc/x',
      'write /usr/local/y',
      'write /p/.assistant/settings.json',
      'write /p/src/a.ts',
      'write /opt/z',
      'read /h/.ssh/id_rsa',
      'network example.org',
      'network evil.example:443',
    ],
  );
  const report = violationReport(v, { allowUnsandboxed: true });
  assert.match(report, /^<sandbox_violations>\n/);
  assert.match(report, /- writing \/p\/src\/a\.ts: \/p\/src is read-only \(the rule "Edit\(src\/\*\*\)"\)/);
  assert.match(report, /- reading \/h\/\.ssh\/id_rsa: \/h\/\.ssh is hidden/);
  assert.match(report, /- connecting to example\.org: sandboxed commands have no network/);
  assert.match(report, /sandbox\.filesystem\.allowWrite.*Edit or Write tool.*sandbox\.network\.allowedDomains/);
  assert.match(report, /"dangerouslyDisableSandbox": true, which asks the user/);
  assert.deepEqual(findViolations('all fine\n', { ...ctx, denials: [] }), []);
});
