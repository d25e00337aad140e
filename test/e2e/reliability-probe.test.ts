import { test, after, before } from 'node:test';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel, reply, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => { model = await startFakeModel(); });
after(async () => { await model.close(); });

test('probe huge', async () => {
  const { dir, home } = makeProject();
  writeFileSync(join(dir, 'one-line.txt'), 'x'.repeat(60_000_000));
  model.reset();
  model.script(
    reply().tool('Bash', { command: "head -c 200000000 /dev/zero | tr '\\0' 'a'" }, { id: 'b1' }),
    reply().tool('Bash', { command: 'head -c 3000000 /dev/urandom' }, { id: 'b2' }),
    reply().tool('Bash', { command: 'yes hello | head -n 20000000' }, { id: 'b3' }),
    reply().tool('Read', { file_path: 'one-line.txt' }, { id: 'r1' }),
    reply().text('done'),
  );
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl };
  const t0 = Date.now();
  const r = await runCli(['-p', 'go', '--permission-mode', 'bypass', '--model', 'anthropic:claude-sonnet-4-5'], { cwd: dir, home, env, timeoutMs: 240000 });
  console.log(r.code, Date.now() - t0, r.stdout.slice(0, 200), r.stderr.slice(0, 1000));
  for (const q of model.requests.slice(1)) {
    const msgs = q.body.messages; const last = msgs.at(-1).content[0];
    console.log(q.rawBody.length, JSON.stringify(last).slice(0, 300), '…', JSON.stringify(last).slice(-300));
  }
  const projDir = join(home, '.assistant', 'projects'); const [proj] = readdirSync(projDir);
  const f = readdirSync(join(projDir, proj)).find((x) => x.endsWith('.jsonl'))!;
  console.log('transcript', statSync(join(projDir, proj, f)).size, readFileSync(join(projDir, proj, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).type).join(','));
});
