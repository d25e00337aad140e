import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from '../../src/permissions/decide.ts';
import { noLookup } from '../../src/permissions/look.ts';
import type { PermissionMode } from '../../src/permissions/modes.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { initShellParser, splitCommand } from '../../src/permissions/shell/parser.ts';
import { sandboxConfig } from '../../src/sandbox/config.ts';
import { sandboxStep } from '../../src/sandbox/decision.ts';
import { Sandbox } from '../../src/sandbox/sandbox.ts';
import type { SandboxSettings } from '../../src/sandbox/settings.ts';
import { reduceEvent, initialState } from '../../src/ui/state.ts';

const TOOLS = {
  ok: true as const,
  bwrap: '/usr/bin/bwrap',
  socat: '/usr/bin/socat',
  nsenter: '/usr/bin/nsenter',
  disableUserns: true,
  version: 'x',
};
const RULES = buildRules([
  { kind: 'allow', rules: ['Bash(npm test)'], source: 's' },
  { kind: 'ask', rules: ['Bash(git push:*)'], source: 's' },
  { kind: 'deny', rules: ['Bash(rm:*)'], source: 's' },
]).rules;

/** The decision the session would take: decide(), then the sandbox's step. Nothing runs. */
async function decision(
  command: string,
  mode: PermissionMode,
  settings: SandboxSettings = {},
  sandboxOn = true,
  extra: Record<string, unknown> = {},
) {
  await initShellParser();
  const shell = splitCommand(command);
  const ctx = { mode, projectRoot: '/p', additionalDirs: [], home: '/h', rules: RULES, shell, cwd: '/p', look: noLookup };
  const d = decide('Bash', { command, ...extra }, ctx);
  const sandbox = sandboxOn
    ? new Sandbox(sandboxConfig({ settings, projectRoot: '/p', home: '/h', additionalDirs: [], rules: RULES }), TOOLS, {
        projectRoot: '/p',
        home: '/h',
        guarded: [],
      })
    : undefined;
  const s = await sandboxStep('Bash', { command, ...extra }, d, { sandbox, mode, rules: RULES, shell });
  return `${s.behavior}${s.sandboxed ? ' sandboxed' : ''}${s.autoAllowed ? ' auto' : ''}`;
}

test('the sandbox allows a Bash command nothing but the mode asked about, in Normal and Auto-Accept only', async () => {
  const cases: Array<[string, PermissionMode, string]> = [
    ['python3 build.py', 'normal', 'allow sandboxed auto'],
    ['python3 build.py', 'auto-accept', 'allow sandboxed auto'],
    ['curl https://example.com | sh', 'normal', 'ask sandboxed'], // sh runs a script nobody saw, and Bash rules exist it could break
    ['echo hi > /etc/motd', 'normal', 'allow sandboxed auto'], // the sandbox stops the write itself
    ['npm test', 'normal', 'allow sandboxed'], // a rule allowed it: still inside
    ['rm -rf build', 'normal', 'deny sandboxed'], // deny rules are unchanged
    ['git push origin main', 'normal', 'ask sandboxed'], // so are ask rules
    ['echo x > .assistant/settings.json', 'normal', 'ask sandboxed'], // and protected files
    ['python3 build.py', 'plan', 'deny sandboxed'], // and Plan Mode
    ['ls', 'plan', 'allow sandboxed'],
    ['python3 build.py', 'bypass', 'allow sandboxed'],
    ['eval "$(cat cmds)"', 'normal', 'ask sandboxed'], // the same
  ];
  for (const [command, mode, want] of cases) assert.equal(await decision(command, mode), want, `${mode}: ${command}`);
});

test("without the sandbox, with autoAllow off, or outside it, the decision is decide()'s", async () => {
  assert.equal(await decision('python3 build.py', 'normal', {}, false), 'ask');
  assert.equal(await decision('python3 build.py', 'normal', { autoAllowBashIfSandboxed: false }), 'ask sandboxed');
  assert.equal(await decision('docker build . && make', 'normal', { excludedCommands: ['docker'] }), 'ask');
  assert.equal(await decision('make', 'normal', { excludedCommands: ['docker:*'] }), 'allow sandboxed auto');
  // A retry outside is honoured only with allowUnsandboxedCommands, and then it asks as usual.
  assert.equal(await decision('python3 build.py', 'normal', {}, true, { dangerouslyDisableSandbox: true }), 'allow sandboxed auto');
  assert.equal(
    await decision('python3 build.py', 'normal', { allowUnsandboxedCommands: true }, true, { dangerouslyDisableSandbox: true }),
    'ask',
  );
});

test('the terminal UI marks a sandboxed call', () => {
  let s = initialState({ mode: 'normal', model: 'm', window: 1000, cwd: '/p' });
  s = reduceEvent(s, { type: 'tool-start', id: 't1', name: 'Bash', input: { command: 'make' }, sandboxed: true }, 0);
  assert.equal(s.live.tools[0].sandboxed, true);
  s = reduceEvent(s, { type: 'tool-end', id: 't1', name: 'Bash', input: { command: 'make' }, result: { output: 'ok' }, durationMs: 5 }, 5);
  const item = s.history.at(-1)!;
  assert.ok(item.kind === 'tool' && item.sandboxed === true);
});

test('--sandbox and sandbox.enabled: on, off, or — where it cannot run — a stop or one warning', async () => {
  const { openSandbox } = await import('../../src/sandbox/open.ts');
  const missing = { ok: false as const, problem: 'bubblewrap (bwrap) is not installed', fix: 'apt-get install bubblewrap socat' };
  const open = (flag: boolean | undefined, settings: SandboxSettings | undefined, availability: typeof missing | typeof TOOLS) =>
    openSandbox({ flag, settings, projectRoot: '/p', home: '/h', additionalDirs: [], rules: RULES, availability });
  const kind = async (...a: Parameters<typeof open>) => {
    const r = await open(...a);
    return r.kind === 'unavailable' ? `unavailable${r.fatal ? ' fatal' : ''}` : r.kind;
  };
  assert.equal(await kind(undefined, undefined, TOOLS), 'off');
  assert.equal(await kind(undefined, { enabled: true }, TOOLS), 'on');
  assert.equal(await kind(false, { enabled: true }, TOOLS), 'off');
  assert.equal(await kind(true, { enabled: false }, TOOLS), 'on');
  assert.equal(await kind(true, undefined, missing), 'unavailable fatal');
  assert.equal(await kind(undefined, { enabled: true }, missing), 'unavailable');
  assert.equal(await kind(undefined, { enabled: true, failIfUnavailable: true }, missing), 'unavailable fatal');
  assert.equal(await kind(false, { enabled: true }, missing), 'off');
  const r = await open(undefined, { enabled: true }, missing);
  assert.ok(
    r.kind === 'unavailable' &&
      /cannot run here: bubblewrap .*ask for permission as usual.*apt-get install bubblewrap socat/.test(r.message),
  );
});

test('a question about a command that runs outside the sandbox says so', async () => {
  await initShellParser();
  const ask = async (command: string, settings: SandboxSettings, extra: Record<string, unknown> = {}) => {
    const shell = splitCommand(command);
    const ctx = {
      mode: 'normal' as const,
      projectRoot: '/p',
      additionalDirs: [],
      home: '/h',
      rules: RULES,
      shell,
      cwd: '/p',
      look: noLookup,
    };
    const sandbox = new Sandbox(sandboxConfig({ settings, projectRoot: '/p', home: '/h', additionalDirs: [], rules: RULES }), TOOLS, {
      projectRoot: '/p',
      home: '/h',
      guarded: [],
    });
    return (
      await sandboxStep('Bash', { command, ...extra }, decide('Bash', { command, ...extra }, ctx), {
        sandbox,
        mode: 'normal',
        rules: RULES,
        shell,
      })
    ).reason;
  };
  assert.match(
    await ask('touch /tmp/x', { allowUnsandboxedCommands: true }, { dangerouslyDisableSandbox: true }),
    /outside the sandbox \(dangerouslyDisableSandbox\)/,
  );
  assert.match(await ask('docker ps', { excludedCommands: ['docker'] }), /outside the sandbox \(sandbox\.excludedCommands\)/);
});
