import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl, shown } from './helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test("terminal UI: a command's !`cmd` meets the session's PreToolUse hooks; a blocking one stops it before anything runs", async () => {
  const { ctrl, dir } = await openCtrl(model, {
    '.assistant/commands/mk.md': '---\nallowed-tools: Bash(touch:*)\n---\nMade: !`touch made.txt`\n',
    '.assistant/settings.json': JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'grep -q touch && { echo "no touching from commands" >&2; exit 2; }; exit 0' }],
          },
        ],
      },
    }),
  });
  model.reset();
  await ctrl.submit('/mk');
  assert.match(
    shown(ctrl),
    /\/mk runs `touch made\.txt` before the prompt is sent, but a PreToolUse hook blocked it: .*no touching from commands/s,
  );
  assert.equal(existsSync(join(dir, 'made.txt')), false, 'the blocked command did not run');
  assert.equal(model.requests.length, 0, 'nothing was sent');
  await ctrl.exit();
});
