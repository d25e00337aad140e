import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '../../src/agent/session.ts';
import type { AgentEvent } from '../../src/agent/events.ts';
import { SettingsWatch } from '../../src/config/watch.ts';
import type { ModelHandle } from '../../src/providers/types.ts';
import { makeProject } from '../fakes/project.ts';

const answer: ModelHandle = {
  id: 'test:m',
  provider: 'test',
  model: 'm',
  label: 'm',
  contextWindow: 100_000,
  async *stream() {
    yield { type: 'text', delta: 'ok' };
    yield { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } };
  },
};

for (const interactive of [true, false]) {
  test(`a settings change is reported at the next prompt, even with no tool call (${interactive ? 'interactive: review with /hooks' : 'headless: ignored'})`, async () => {
    const { dir, home } = makeProject({ '.assistant/settings.json': '{}' });
    const file = join(dir, '.assistant/settings.json');
    const events: AgentEvent[] = [];
    const session = new Session({
      cwd: dir,
      home,
      model: answer,
      mode: 'normal',
      additionalDirs: [],
      env: {},
      emit: (e) => events.push(e),
      ask: async () => ({ allow: true }),
      version: 't',
      interactive,
      watch: new SettingsWatch([file]),
    });
    await session.prompt('one', new AbortController().signal);
    assert.equal(events.filter((e) => e.type === 'warning').length, 0);
    writeFileSync(file, '{"model": "x"}');
    await session.prompt('two', new AbortController().signal);
    const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], interactive ? /until you review the change with \/hooks/ : /ignored until the next session/);
    await session.prompt('three', new AbortController().signal);
    assert.equal(events.filter((e) => e.type === 'warning').length, 1, 'reported once');
  });
}
