import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from './tmux.ts';

// Issue 17 item 1: dragging a screenshot into the terminal (its path arrives as a bracketed paste) attaches it.

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('a screenshot dragged in from outside the project is attached to the prompt as an image', async () => {
  const { dir, home } = makeProject();
  const desk = realpathSync(mkdtempSync(join(tmpdir(), 'desk-')));
  const shot = join(desk, 'Screen Shot 1.png');
  writeFileSync(
    shot,
    await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer(),
  );
  model.reset();
  model.script(reply('A green box.'));
  const t = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  try {
    await t.waitFor('normal mode');
    t.type('what is this? ');
    t.type(`\x1b[200~'${shot}'\x1b[201~`);
    await t.waitFor(`@'${shot}'`);
    t.keys('Enter');
    await t.waitFor('A green box.');
    const content = (model.requests[0].body as { messages: Array<{ content: Array<{ type: string; source?: { media_type?: string } }> }> })
      .messages[0].content;
    assert.ok(
      content.some((p) => p.type === 'image' && p.source?.media_type === 'image/png'),
      JSON.stringify(content).slice(0, 500),
    );
  } finally {
    t.close();
  }
});
