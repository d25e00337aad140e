import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Session } from '../../src/agent/session.ts';
import { resolveModel } from '../../src/providers/resolve.ts';
import { startFakeModel, reply } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import type { PermissionRequest } from '../../src/agent/events.ts';

test('a waiting permission question fires Notification hooks, and the answer is used', async () => {
  const model = await startFakeModel();
  try {
    const { dir, home } = makeProject({ 'a.txt': 'old\n' });
    model.script(
      reply().tool('Read', { file_path: 'a.txt' }),
      reply().tool('Write', { file_path: 'a.txt', content: 'new\n' }),
      reply().text('done'),
    );
    const handle = await resolveModel({
      spec: 'anthropic:claude-sonnet-4-5',
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
      cwd: dir,
    });
    const asked: PermissionRequest[] = [];
    const session = new Session({
      cwd: dir,
      home,
      model: handle,
      mode: 'normal',
      additionalDirs: [],
      env: {},
      version: 'test',
      interactive: true,
      emit: () => {},
      ask: async (req) => {
        asked.push(req);
        for (let i = 0; i < 100 && !existsSync(join(dir, 'notified.json')); i++) await sleep(20);
        return { allow: true };
      },
      hooks: [
        {
          event: 'Notification',
          matcher: undefined,
          command: 'cat > notified.tmp && mv notified.tmp notified.json',
          timeoutMs: 5000,
          failClosed: false,
          source: 'test',
        },
      ],
    });
    const outcome = await session.prompt('rewrite a.txt', new AbortController().signal);
    assert.equal(outcome.status, 'done');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].tool, 'Write');
    const input = JSON.parse(readFileSync(join(dir, 'notified.json'), 'utf8'));
    assert.equal(input.hook_event_name, 'Notification');
    assert.equal(input.notification_type, 'permission_prompt');
    assert.match(input.message, /needs your permission to use Write/);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'new\n');
  } finally {
    await model.close();
  }
});
