import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { makeProject } from '../fakes/project.ts';
import { startFakeModel, reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { EVERYTHING, FAULT, waitFor } from '../mcp/helpers.ts';
import { TmuxCli } from './tmux.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

/** Live processes whose environment holds MCP_E2E_MARK=`mark`. */
function marked(mark: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        return (
          stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z' &&
          readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(`MCP_E2E_MARK=${mark}`)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

test('terminal UI: each .mcp.json server is asked about once; the answers are remembered; /mcp shows them; no server outlives the session', async () => {
  const { dir, home } = makeProject({});
  const mark = randomUUID();
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING], env: { MCP_E2E_MARK: mark } },
        other: { command: process.execPath, args: [FAULT], env: { MCP_E2E_MARK: mark } },
      },
    }),
  );
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
  const ui = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], { cwd: dir, home, env, trusted: true });
  try {
    let screen = await ui.waitFor('This project defines the MCP server "everything". Use it?');
    assert.match(screen, /runs: [^]*server-everything/);
    ui.keys('1');
    await ui.waitFor('This project defines the MCP server "other". Use it?');
    ui.keys('3');
    await ui.waitFor(/normal mode|shift\+tab/i);
    await ui.submit('/mcp');
    screen = await ui.waitFor(/everything \(stdio, \.mcp\.json\): ✓ connected, \d+ tools/, 30_000);
    assert.match(screen, /other \(stdio, .*\): - disabled/);
    assert.match(ui.scrollback(), /tools: mcp__everything__echo, /);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.assistant/settings.local.json'), 'utf8')), {
      enabledMcpjsonServers: ['everything'],
      disabledMcpjsonServers: ['other'],
    });
    assert.equal(marked(mark).length > 0, true, 'the approved server runs');
    // @ completes an MCP server's name, then its resources (listed when first asked for).
    ui.type('see @ever');
    await ui.waitFor(/❯ @everything: +resources of this MCP server/);
    ui.type('ything:demo');
    await ui.waitFor(/❯ @everything:demo:\/\/resource\/static\/document\/\S+/);
    ui.keys('C-u');
    await ui.waitGone(/resources of this MCP server|@everything:demo/);
    // /mcp reconnect ends the server and starts a new one.
    const before = marked(mark);
    await ui.submit('/mcp reconnect everything');
    await waitFor(
      () => (ui.scrollback().match(/everything \(stdio, \.mcp\.json\): ✓ connected/g) ?? []).length >= 2,
      30_000,
      'the server to be connected again',
    );
    assert.ok(marked(mark).length > 0 && !marked(mark).some((p) => before.includes(p)), 'a new process');
    await ui.submit('/exit');
    await ui.waitFor(/\[exit 0\]/);
    await waitFor(() => marked(mark).length === 0, 5000, 'every server to end with the session');
  } finally {
    ui.close();
  }

  const again = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], { cwd: dir, home, env, trusted: true });
  try {
    const s = await again.waitFor(/normal mode|shift\+tab/i);
    assert.doesNotMatch(s, /Use it\?/, 'asked once');
    again.keys('C-d');
    await again.waitFor(/\[exit 0\]/);
  } finally {
    again.close();
  }
  await waitFor(() => marked(mark).length === 0, 5000, 'every server to end with the session');
});

test('terminal UI: an MCP tool call asks; "don\'t ask again" writes the tool\'s own rule and the next call does not ask', async () => {
  const { dir, home } = makeProject({});
  mkdirSync(join(dir, '.assistant'));
  writeFileSync(
    join(dir, '.assistant/settings.local.json'),
    JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT] } } }),
  );
  model.reset();
  model.script(
    reply().tool('mcp__fault__echo', { text: 'first' }),
    reply('Echoed once.'),
    reply().tool('mcp__fault__echo', { text: 'second' }),
    reply('Echoed twice.'),
  );
  const ui = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
    trusted: true,
  });
  try {
    await ui.waitFor(/normal mode/);
    await ui.submit('echo');
    const question = await ui.waitFor('Do you want to proceed?', 30_000);
    assert.match(question, /mcp__fault__echo/);
    assert.match(question, /Yes, and don't ask again for mcp__fault__echo/);
    ui.keys('2');
    await ui.waitFor('Echoed once.');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.assistant/settings.local.json'), 'utf8')).permissions.allow, ['mcp__fault__echo']);
    assert.equal(lastToolResults(model.requests[1])[0].content, 'first');
    await ui.waitGone(/Working…/);
    await ui.submit('again');
    const s = await ui.waitFor('Echoed twice.');
    assert.doesNotMatch(s.slice(s.indexOf('again')), /Do you want to proceed\?/);
    assert.equal(lastToolResults(model.requests[3])[0].content, 'second');
  } finally {
    ui.close();
  }
});
