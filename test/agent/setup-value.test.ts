import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSession, loadSetup } from '../../src/agent/setup.ts';
import { startFakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';

const opts = { model: 'anthropic:claude-sonnet-4-5', addDir: [], allowedTools: [], disallowedTools: [] };

test('loadSetup gives a value nobody changes: a change is a new Setup, opening a session leaves it as it was', async () => {
  const model = await startFakeModel();
  try {
    // A project settings file asking for Bypass gives a load warning; a hook naming a missing program one more when the session opens.
    const { dir, home } = makeProject({
      '.assistant/settings.json': JSON.stringify({
        permissions: { defaultMode: 'bypass' },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'no-such-program-xyz --check' }] }] },
      }),
    });
    const loaded = loadSetup({ ...opts, permissionMode: 'acceptEdits' }, dir, home);
    assert.ok(Object.isFrozen(loaded));
    assert.throws(() => {
      (loaded as { mode: string }).mode = 'bypass';
    }, TypeError);
    assert.equal(loaded.mode, 'auto-accept', "Claude Code's name, parsed once at load");
    assert.equal(loaded.warnings.length, 1);
    assert.match(loaded.warnings[0], /cannot make Bypass the default/);

    const setup = {
      ...loaded,
      mode: 'plan' as const,
      env: { ...loaded.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
    };
    assert.equal(loaded.mode, 'auto-accept', 'the change made a new value');
    const before = JSON.stringify(setup);
    const { session, warnings } = await createSession(setup, {
      emit: () => {},
      ask: async () => ({ allow: false, message: 'no' }),
      version: 'test',
    });
    try {
      assert.equal(JSON.stringify(setup), before, 'opening the session changed nothing of the set-up');
      assert.equal(warnings[0], loaded.warnings[0], "the set-up's warnings come first");
      assert.ok(
        warnings.slice(1).some((w) => w.includes('no-such-program-xyz')),
        warnings.join('\n'),
      );
      assert.equal(session.gate.mode, 'plan');
      session.gate.setMode('normal');
      assert.equal(setup.mode, 'plan', "the session's mode is its gate's");
    } finally {
      await session.end('other', AbortSignal.timeout(10_000));
    }
  } finally {
    await model.close();
  }
});
