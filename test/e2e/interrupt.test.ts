import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { startCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('Ctrl-C during a Bash call kills its process tree, exits 130 and leaves a readable transcript', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'sleep 60 & echo $! > child.pid; wait' }), reply().text('never sent'));
  const child = startCli(['-p', 'run it', '--permission-mode', 'bypass', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const pidFile = join(dir, 'child.pid');
  for (let i = 0; i < 200 && !existsSync(pidFile); i++) await sleep(25);
  assert.ok(existsSync(pidFile), `the command never started: ${stderr}`);
  await sleep(100);
  const sleeper = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(alive(sleeper));
  child.kill('SIGINT');
  const code = await exited;
  assert.equal(code, 130, stderr);
  for (let i = 0; i < 40 && alive(sleeper); i++) await sleep(50);
  assert.equal(alive(sleeper), false, 'the background sleep of the Bash call must be killed');
  assert.equal(model.requests.length, 1, 'nothing more is sent to the model after an interrupt');
  const projDir = join(home, '.assistant', 'projects');
  const [proj] = readdirSync(projDir);
  const [file] = readdirSync(join(projDir, proj));
  const entries = readFileSync(join(projDir, proj, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(entries[0].type, 'session');
  const toolMsg = entries.find((e) => e.type === 'user' && e.message.role === 'tool');
  assert.ok(toolMsg, 'the interrupted call has a result in the transcript');
  assert.equal(entries.at(-1).type, 'result');
  assert.equal(entries.at(-1).status, 'aborted');
});
