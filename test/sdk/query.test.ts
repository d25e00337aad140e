import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { collect, envFor } from './sdk-run.ts';
import { runCli } from '../e2e/cli.ts';
import { query, AssistantError, type PreToolUseHookInput, type SDKMessage, type SDKUserMessage } from '../../src/sdk/index.ts';
import { StreamJsonLine } from '../../src/headless/stream-schema.ts';

const MODEL = 'anthropic:claude-sonnet-4-5';
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

/** A line with what differs from run to run (ids, times, paths under a temp HOME) blanked. */
function normal(line: Record<string, unknown>): unknown {
  return JSON.parse(
    JSON.stringify(line, (k, v) => {
      if (['uuid', 'session_id', 'duration_ms', 'duration_api_ms', 'transcript_path'].includes(k)) return '*';
      if (k === 'id' && typeof v === 'string' && v.startsWith('msg_')) return '*';
      return v;
    }),
  );
}

function script() {
  model.reset();
  model.script(
    reply().text('Looking.').tool('Bash', { command: 'echo hi from bash' }),
    reply().tool('Write', { file_path: 'out.txt', content: 'x' }),
    reply('All done.'),
  );
}

test('a query streams the same messages as -p --output-format stream-json, field by field', async () => {
  const a = makeProject({ 'a.txt': 'a' });
  script();
  const cli = await runCli(
    ['-p', 'do it', '--output-format', 'stream-json', '--permission-mode', 'normal', '--allowed-tools', 'Bash(echo:*)', '--model', MODEL],
    {
      cwd: a.dir,
      home: a.home,
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
    },
  );
  assert.equal(cli.code, 0, cli.stderr);
  const cliLines = cli.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const cliRequests = model.requests.map((r) => r.body.messages.length);

  const b = makeProject({ 'a.txt': 'a' });
  script();
  const sdk = await collect(
    query({
      prompt: 'do it',
      options: { cwd: b.dir, model: MODEL, permissionMode: 'normal', allowedTools: ['Bash(echo:*)'], env: envFor(model, b.home) },
    }),
  );
  assert.deepEqual(
    model.requests.map((r) => r.body.messages.length),
    cliRequests,
    'the model saw the same conversation',
  );
  // Same lines, same order, same fields; the project directory differs, so it is compared by role.
  // A refusal names what would allow it in each door's own terms (a flag, an option); the rest is the same.
  const remedy = /To allow it, [^"]*?\./g;
  const norm = (lines: Array<Record<string, unknown>>, dir: string) =>
    lines.map((l) =>
      JSON.parse(
        JSON.stringify(normal(l))
          .replaceAll(dir, '<project>')
          .replace(remedy, 'To allow it, …')
          .replace(
            /This is a headless run, which cannot ask for approval\.|No canUseTool callback was given, so nobody can approve it\./g,
            '…',
          ),
      ),
    );
  assert.deepEqual(norm(sdk as never, b.dir), norm(cliLines, a.dir));
  assert.match(
    JSON.stringify(sdk),
    /No canUseTool callback was given, so nobody can approve it\. To allow it, permissionMode: 'auto-accept'\./,
  );
  assert.match(
    JSON.stringify(cliLines),
    /This is a headless run, which cannot ask for approval\. To allow it, run again with --permission-mode auto-accept\./,
  );
  assert.deepEqual(
    sdk.map((m) => `${m.type}${'subtype' in m ? `:${m.subtype}` : ''}`),
    ['system:init', 'assistant', 'user', 'assistant', 'system:permission_denied', 'user', 'assistant', 'result:success'],
  );
  for (const line of [...sdk, ...cliLines]) assert.ok(StreamJsonLine.safeParse(line).success, `fits the schema: ${JSON.stringify(line)}`);
  const result = sdk.at(-1)!;
  assert.ok(
    result.type === 'result' &&
      result.result === 'All done.' &&
      result.permission_denials.length === 1 &&
      result.permission_denials[0].tool_name === 'Write',
  );
  assert.ok(existsSync((sdk[0] as { transcript_path: string }).transcript_path), 'the transcript is written');
});

test('the same messages as -p with a project hook, a warning and verification', async () => {
  const files = {
    '.assistant/settings.json': JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo checked >&2; exit 1' }] }] },
      verify: 'true',
    }),
    'a.txt': 'a',
  };
  const run = async (sdk: boolean) => {
    const p = makeProject(files);
    model.reset();
    model.script(
      reply().tool('Bash', { command: 'echo hi' }),
      reply().tool('Read', { file_path: 'a.txt' }),
      reply().tool('Edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b' }),
      reply('Changed.'),
    );
    if (!sdk) {
      const cli = await runCli(['-p', 'change it', '--output-format', 'stream-json', '--permission-mode', 'bypass', '--model', MODEL], {
        cwd: p.dir,
        home: p.home,
        env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
      });
      assert.equal(cli.code, 0, cli.stderr);
      return {
        dir: p.dir,
        lines: cli.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l)) as Array<Record<string, unknown>>,
      };
    }
    const lines = await collect(
      query({ prompt: 'change it', options: { cwd: p.dir, model: MODEL, permissionMode: 'bypass', env: envFor(model, p.home) } }),
    );
    return { dir: p.dir, lines: lines as unknown as Array<Record<string, unknown>> };
  };
  const cli = await run(false);
  const sdk = await run(true);
  const norm = (r: { dir: string; lines: Array<Record<string, unknown>> }) =>
    r.lines.map((l) => JSON.parse(JSON.stringify(normal(l)).replaceAll(r.dir, '<project>')));
  assert.deepEqual(norm(sdk), norm(cli));
  const kinds = sdk.lines.map((m) => `${m.type}${m.subtype ? `:${m.subtype}` : ''}`);
  for (const k of ['system:hook_response', 'warning', 'system:verification', 'result:success'])
    assert.ok(kinds.includes(k), `${k} in ${kinds.join(', ')}`);
});

test('canUseTool: a deny message reaches the model, and updatedInput changes what runs', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(
    reply().tool('Bash', { command: 'echo original > ran.txt' }),
    reply().tool('Write', { file_path: 'secret.txt', content: 'x' }),
    reply('ok'),
  );
  const asked: string[] = [];
  const msgs = await collect(
    query({
      prompt: 'go',
      options: {
        cwd: dir,
        model: MODEL,
        env: envFor(model, home),
        canUseTool: async (name, input, { signal, reason }) => {
          assert.ok(signal instanceof AbortSignal);
          assert.ok(reason);
          asked.push(name);
          if (name === 'Bash') return { behavior: 'allow', updatedInput: { ...input, command: 'echo rewritten > ran.txt' } };
          return { behavior: 'deny', message: 'No secrets, please write notes.txt instead.' };
        },
      },
    }),
  );
  assert.deepEqual(asked, ['Bash', 'Write']);
  assert.equal(readFileSync(join(dir, 'ran.txt'), 'utf8').trim(), 'rewritten');
  assert.equal(existsSync(join(dir, 'secret.txt')), false);
  const [denied] = lastToolResults(model.requests[2]);
  assert.match(denied.content, /No secrets, please write notes\.txt instead\./);
  assert.equal(denied.isError, true);
  const result = msgs.at(-1)!;
  assert.ok(result.type === 'result' && !result.is_error && result.permission_denials.length === 1);
});

test("a JavaScript PreToolUse hook blocks a call, with the shell hooks' contract", async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'touch nope.txt' }), reply().tool('Bash', { command: 'touch yes.txt' }), reply('done'));
  const seen: PreToolUseHookInput[] = [];
  const msgs = await collect(
    query({
      prompt: 'go',
      options: {
        cwd: dir,
        model: MODEL,
        permissionMode: 'bypass',
        env: envFor(model, home),
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                async function guard(input) {
                  seen.push(input);
                  const cmd = String(input.tool_input.command); // typed per event: PreToolUse has tool_input
                  return cmd.includes('nope') ? { decision: 'block', reason: 'nope files are not allowed' } : undefined;
                },
              ],
            },
          ],
          PostToolUse: [
            {
              matcher: 'Edit',
              hooks: [
                () => {
                  throw new Error('never called: Bash is not Edit');
                },
              ],
            },
          ],
        },
      },
    }),
  );
  assert.equal(existsSync(join(dir, 'nope.txt')), false);
  assert.equal(existsSync(join(dir, 'yes.txt')), true);
  assert.equal(seen.length, 2);
  assert.equal(seen[0].hook_event_name, 'PreToolUse');
  assert.equal(seen[0].tool_name, 'Bash');
  assert.equal(seen[0].cwd, dir);
  assert.equal(typeof seen[0].tool_use_id, 'string');
  const [blocked] = lastToolResults(model.requests[1]);
  assert.match(blocked.content, /nope files are not allowed/);
  const hookLines = msgs.filter((m) => m.type === 'system' && m.subtype === 'hook_response');
  assert.equal(hookLines.length, 2);
  assert.match((hookLines[0] as { command: string }).command, /^\(sdk\) PreToolUse\[0\]\.hooks\[0\] guard$/);
});

async function longBash(stop: (q: ReturnType<typeof query>, ac: AbortController) => Promise<void>) {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'sleep 60 & echo $! > child.pid; wait' }), reply('never sent'));
  const ac = new AbortController();
  const q = query({
    prompt: 'run it',
    options: { cwd: dir, model: MODEL, permissionMode: 'bypass', env: envFor(model, home), signal: ac.signal },
  });
  const pending = collect(q);
  const pidFile = join(dir, 'child.pid');
  for (let i = 0; i < 200 && !existsSync(pidFile); i++) await sleep(25);
  assert.ok(existsSync(pidFile), 'the command started');
  await sleep(100);
  const sleeper = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(alive(sleeper));
  const t0 = performance.now();
  await stop(q, ac);
  const msgs = await pending;
  assert.ok(performance.now() - t0 < 5000, 'stops at once');
  for (let i = 0; i < 40 && alive(sleeper); i++) await sleep(50);
  assert.equal(alive(sleeper), false, "the Bash call's process tree is killed");
  assert.equal(model.requests.length, 1, 'nothing more is sent to the model');
  const result = msgs.at(-1)!;
  assert.ok(result.type === 'result' && result.is_error && result.subtype === 'error_during_execution');
  const projects = join(home, '.assistant', 'projects');
  const [proj] = readdirSync(projects);
  const [file] = readdirSync(join(projects, proj));
  const entries = readFileSync(join(projects, proj, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(entries[0].type, 'session');
  assert.ok(
    entries.find((e) => e.type === 'user' && e.message.role === 'tool'),
    'the interrupted call has a result in the transcript',
  );
  assert.equal(entries.at(-1).type, 'result');
  assert.equal(entries.at(-1).status, 'aborted');
}

test('interrupt() stops a long Bash call; the transcript stays whole', async () => {
  await longBash(async (q) => {
    await q.interrupt();
  });
});

test('an aborted signal stops a long Bash call; the transcript stays whole', async () => {
  await longBash(async (_q, ac) => {
    ac.abort();
  });
});

test('two queries at once share nothing: different cwd, modes, models and environments', async () => {
  const other = await startFakeModel();
  try {
    const a = makeProject();
    const b = makeProject();
    model.reset();
    other.reset();
    model.script(reply().tool('Bash', { command: 'sleep 0.3; pwd > where.txt; echo "$WHO" >> where.txt' }), reply('A done'));
    other.script(reply().tool('Bash', { command: 'pwd > where.txt' }), reply('B done'));
    const cwdBefore = process.cwd();
    const [ma, mb] = await Promise.all([
      collect(
        query({
          prompt: 'a',
          options: { cwd: a.dir, model: MODEL, permissionMode: 'bypass', env: { ...envFor(model, a.home), WHO: 'alpha' } },
        }),
      ),
      collect(query({ prompt: 'b', options: { cwd: b.dir, model: MODEL, permissionMode: 'plan', env: envFor(other, b.home) } })),
    ]);
    assert.equal(process.cwd(), cwdBefore, 'the process directory is never changed');
    assert.equal(process.env.WHO, undefined, 'the process environment is never changed');
    assert.deepEqual(readFileSync(join(a.dir, 'where.txt'), 'utf8').trim().split('\n'), [a.dir, 'alpha']);
    assert.equal(existsSync(join(b.dir, 'where.txt')), false, 'plan mode refused the write in B only');
    const init = (m: SDKMessage[]) => m[0] as { permissionMode: string; cwd: string; session_id: string };
    assert.equal(init(ma).permissionMode, 'bypassPermissions');
    assert.equal(init(mb).permissionMode, 'plan');
    assert.equal(init(ma).cwd, a.dir);
    assert.equal(init(mb).cwd, b.dir);
    assert.notEqual(init(ma).session_id, init(mb).session_id);
    const ra = ma.at(-1)!;
    const rb = mb.at(-1)!;
    assert.ok(ra.type === 'result' && ra.result === 'A done' && ra.permission_denials.length === 0);
    assert.ok(rb.type === 'result' && rb.result === 'B done' && rb.permission_denials.length === 1);
    assert.equal(model.requests.length, 2);
    assert.equal(other.requests.length, 2);
  } finally {
    await other.close();
  }
});

test('a bad option is a typed error, not a crash', async () => {
  const { dir, home } = makeProject();
  const bad = (options: unknown) => {
    try {
      query({ prompt: 'x', options: options as never });
    } catch (e) {
      return e;
    }
    return undefined;
  };
  const e1 = bad({ permissionMode: 'yolo', maxTurns: 0, colour: 'red' }) as AssistantError;
  assert.ok(e1 instanceof AssistantError);
  assert.equal(e1.kind, 'options');
  assert.deepEqual(e1.issues.map((i) => i.path).sort(), ['(options)', 'maxTurns', 'permissionMode']);
  assert.match(e1.message, /unknown option colour/);
  const e2 = bad({ hooks: { PreToolUse: [{ matcher: 'Bash(', hooks: [() => undefined] }] } }) as AssistantError;
  assert.ok(e2 instanceof AssistantError && e2.kind === 'options' && /regular expression/.test(e2.message));
  assert.ok(bad({ canUseTool: 'yes' }) instanceof AssistantError);
  assert.throws(() => query({ prompt: 42 as never }), AssistantError);
  // Problems found while setting up arrive from the iterator, typed, after no messages.
  writeFileSync(join(dir, 'bad.json'), '{ "model": ');
  const it = query({ prompt: 'x', options: { cwd: dir, settings: 'bad.json', env: envFor(model, home) } });
  await assert.rejects(
    collect(it),
    (e: unknown) => e instanceof AssistantError && e.kind === 'config' && e.exitCode === 2 && /bad\.json/.test(e.message),
  );
  await assert.rejects(
    collect(query({ prompt: 'x', options: { cwd: join(dir, 'missing') } })),
    (e: unknown) => e instanceof AssistantError && e.kind === 'options',
  );
});

test('streaming input: several user messages are one multi-turn session, a result after each', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('first answer'), reply('second answer'));
  async function* prompts(): AsyncGenerator<SDKUserMessage> {
    yield { type: 'user', message: { role: 'user', content: 'one' } };
    await sleep(20);
    yield { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'two' }] } };
  }
  const msgs = await collect(query({ prompt: prompts(), options: { cwd: dir, model: MODEL, env: envFor(model, home) } }));
  const results = msgs.filter((m) => m.type === 'result');
  assert.deepEqual(
    results.map((r) => r.type === 'result' && r.result),
    ['first answer', 'second answer'],
  );
  assert.equal(new Set(msgs.map((m) => m.session_id)).size, 1);
  assert.equal(model.requests[1].body.messages.length, 3, 'the second prompt carries the first exchange');
});

test('settings and mcpServers options: an object is a settings layer', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'touch denied.txt' }), reply('ok'));
  const msgs = await collect(
    query({
      prompt: 'go',
      options: {
        cwd: dir,
        model: MODEL,
        permissionMode: 'bypass',
        env: envFor(model, home),
        settings: { permissions: { deny: ['Bash(touch:*)'] } },
      },
    }),
  );
  assert.equal(existsSync(join(dir, 'denied.txt')), false);
  const r = msgs.at(-1)!;
  assert.ok(r.type === 'result' && r.permission_denials.length === 1);
});

test('JavaScript hooks of other events: context from UserPromptSubmit, exit-2 blocks, a throw is a warning', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().tool('Bash', { command: 'echo one' }), reply('done'));
  const msgs = await collect(
    query({
      prompt: 'go',
      options: {
        cwd: dir,
        model: MODEL,
        permissionMode: 'bypass',
        env: envFor(model, home),
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                async (input) => ({
                  hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: `ticket ABC-1 for "${input.prompt}"` },
                }),
              ],
            },
          ],
          PreToolUse: [{ hooks: [async () => ({ exitCode: 2, reason: 'exit two says no' })] }],
          Stop: [
            {
              hooks: [
                async function broken() {
                  throw new Error('kaput');
                },
              ],
            },
          ],
        },
      },
    }),
  );
  assert.match(JSON.stringify(model.requests[0].body.messages), /ticket ABC-1 for \\"go\\"/);
  assert.match(lastToolResults(model.requests[1])[0].content, /exit two says no/);
  const warning = msgs.find((m) => m.type === 'warning');
  assert.ok(
    warning && warning.type === 'warning' && /Stop hook "\(sdk\) Stop\[0\]\.hooks\[0\] broken".*exit 1.*kaput/.test(warning.message),
    JSON.stringify(warning),
  );
  const r = msgs.at(-1)!;
  assert.ok(r.type === 'result' && r.result === 'done' && !r.is_error);
});

test('breaking out of the loop stops the run: the Bash call in flight is killed', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply().text('starting').tool('Bash', { command: 'sleep 60 & echo $! > child.pid; wait' }), reply('never sent'));
  for await (const m of query({ prompt: 'go', options: { cwd: dir, model: MODEL, permissionMode: 'bypass', env: envFor(model, home) } })) {
    if (m.type === 'assistant') {
      for (let i = 0; i < 200 && !existsSync(join(dir, 'child.pid')); i++) await sleep(25);
      break;
    }
  }
  const pid = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
  for (let i = 0; i < 60 && alive(pid); i++) await sleep(50);
  assert.equal(alive(pid), false);
  await sleep(100);
  assert.equal(model.requests.length, 1);
});

test('mcpServers reach the settings layer (checked by the settings schema like any settings file)', async () => {
  const { dir, home } = makeProject();
  await assert.rejects(
    collect(
      query({
        prompt: 'x',
        options: { cwd: dir, model: MODEL, env: envFor(model, home), settings: { model: MODEL }, mcpServers: { broken: { command: 42 } } },
      }),
    ),
    (e: unknown) => e instanceof AssistantError && e.kind === 'config' && /inline JSON/.test(e.message) && /mcpServers/.test(e.message),
  );
});

test('interrupt() while streaming input waits for the next message ends the query', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('first'));
  async function* prompts(): AsyncGenerator<SDKUserMessage> {
    yield { type: 'user', message: { role: 'user', content: 'one' } };
    await new Promise(() => {}); // the program has nothing more to say yet
  }
  const q = query({ prompt: prompts(), options: { cwd: dir, model: MODEL, env: envFor(model, home) } });
  const seen: string[] = [];
  for await (const m of q) {
    seen.push(m.type);
    if (m.type === 'result')
      setTimeout(() => {
        void q.interrupt();
      }, 50);
  }
  assert.deepEqual(seen, ['system', 'assistant', 'result']);
  assert.equal(model.requests.length, 1);
});

test('a JavaScript SubagentStop hook gets the subagent named; hooks of tools inside it too (SPEC §14, §15)', async () => {
  const p = makeProject({ 'a.txt': 'a' });
  model.reset();
  model.onRequest((req) =>
    /read-only search agent/.test(JSON.stringify(req.body.system ?? ''))
      ? req.body.messages.length === 1
        ? reply().tool('Read', { file_path: 'a.txt' })
        : reply('SUB-REPORT')
      : undefined,
  );
  model.script(reply().tool('Task', { description: 'look', prompt: 'Look.', subagent_type: 'explore' }), reply('done'));
  const seen: Array<Record<string, unknown>> = [];
  const log = (input: unknown) => {
    seen.push(input as Record<string, unknown>);
  };
  const out = await collect(
    query({
      prompt: 'go',
      options: {
        cwd: p.dir,
        model: MODEL,
        env: envFor(model, p.home),
        hooks: { SubagentStop: [{ hooks: [log] }], PreToolUse: [{ matcher: 'Read', hooks: [log] }] },
      },
    }),
  );
  assert.equal(out.at(-1)!.type, 'result');
  const stop = seen.find((e) => e.hook_event_name === 'SubagentStop');
  assert.ok(stop, 'SubagentStop fired');
  assert.equal(stop.agent_type, 'explore');
  assert.equal(stop.last_assistant_message, 'SUB-REPORT');
  assert.equal(seen.find((e) => e.hook_event_name === 'PreToolUse')!.agent_type, 'explore');
});

test("permissionMode takes Claude Agent SDK's names too (acceptEdits edits without asking)", async () => {
  const { checkOptions } = await import('../../src/sdk/options.ts');
  for (const m of ['default', 'acceptEdits', 'bypassPermissions']) assert.doesNotThrow(() => checkOptions({ permissionMode: m }), m);
  const p = makeProject();
  model.reset();
  model.script(reply().tool('Write', { file_path: 'out.txt', content: 'x' }), reply('done'));
  const out = await collect(
    query({ prompt: 'go', options: { cwd: p.dir, model: MODEL, permissionMode: 'acceptEdits', env: envFor(model, p.home) } }),
  );
  const init = out[0] as { permissionMode?: string };
  assert.equal(init.permissionMode, 'acceptEdits');
  assert.deepEqual((out.at(-1) as { permission_denials: unknown[] }).permission_denials, []);
  assert.ok(existsSync(join(p.dir, 'out.txt')));
});

test('system/init reports mcpServers connected or failed, with their tools (as in Claude Code)', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.script(reply('ok'));
  const fault = new URL('../fakes/mcp-fault-server.mjs', import.meta.url).pathname;
  const msgs = await collect(
    query({
      prompt: 'go',
      options: {
        cwd: dir,
        model: MODEL,
        env: envFor(model, home),
        mcpServers: {
          fault: { command: process.execPath, args: [fault] },
          broken: { command: process.execPath, args: [fault, '--exit-at-start'] },
        },
      },
    }),
  );
  const init = msgs[0];
  assert.ok(init.type === 'system' && init.subtype === 'init');
  assert.deepEqual(init.mcp_servers, [
    { name: 'fault', status: 'connected' },
    { name: 'broken', status: 'failed' },
  ]);
  assert.ok(init.tools.includes('mcp__fault__echo'));
});
