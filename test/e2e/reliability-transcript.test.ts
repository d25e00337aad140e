import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli, startCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

test('SIGKILL mid-batch: -c sends the results of the calls that finished, "interrupted" for the rest; a torn line is skipped', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(
    reply()
      .tool('Write', { file_path: 'b.txt', content: 'bee\n' }, { id: 'call_write' })
      .tool('Bash', { command: 'echo started > s.txt; sleep 30' }, { id: 'call_bash' }),
    reply().text('never'),
  );
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl };
  const args = ['--model', 'anthropic:claude-sonnet-4-5'];
  const child = startCli(['-p', 'do it', '--permission-mode', 'bypass', ...args], { cwd: dir, home, env });
  const exited = new Promise((r) => child.on('close', r));
  for (let i = 0; i < 400 && !existsSync(join(dir, 's.txt')); i++) await sleep(25);
  assert.ok(existsSync(join(dir, 's.txt')), 'the Bash call started');
  await sleep(100);
  child.kill('SIGKILL');
  await exited;
  assert.ok(existsSync(join(dir, 'b.txt')), 'the Write had finished');
  const projDir = join(home, '.assistant', 'projects');
  const [proj] = readdirSync(projDir);
  const file = readdirSync(join(projDir, proj)).find((f) => f.endsWith('.jsonl'))!;
  appendFileSync(join(projDir, proj, file), '{"type":"message","message":{"role":"assist'); // a write cut by the kill

  model.reset();
  model.script(reply().text('resumed'));
  const r = await runCli(['-c', '-p', 'go on', ...args], { cwd: dir, home, env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'resumed');
  assert.match(r.stderr, /1 line was skipped/);
  const messages = model.requests[0].body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
  const results = messages.flatMap((m) => m.content).filter((p) => p.type === 'tool_result');
  assert.deepEqual(
    results.map((p) => [p.tool_use_id, String(p.content).slice(0, 30), p.is_error ?? false]),
    [
      ['call_write', 'File created successfully at: ', false],
      ['call_bash', 'Interrupted: the session ended', true],
    ],
  );
});
