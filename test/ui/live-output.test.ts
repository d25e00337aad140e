import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { initialState, reduceEvent, type UiState } from '../../src/ui/state.ts';
import type { AgentEvent } from '../../src/agent/events.ts';
import { liveTail } from '../../src/ui/fold.ts';
import { ToolView } from '../../src/ui/components/tool-view.tsx';
import { streamJsonEvent } from '../../src/headless/format.ts';
import { bashTool } from '../../src/tools/bash.ts';
import { progressSink } from '../../src/agent/tool-progress.ts';
import { makeProject } from '../fakes/project.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Issue 20 item 4: a running Bash command's output as it comes.

const start = (): UiState => initialState({ mode: 'normal', model: 'm', window: 1000, cwd: '/p' });
const apply = (s: UiState, ...evs: AgentEvent[]) => evs.reduce((acc, ev) => reduceEvent(acc, ev, 1000), s);

test("tool-progress adds to the running call's output; the finished call keeps the usual fold", () => {
  let s = apply(start(), { type: 'tool-start', id: 't1', name: 'Bash', input: { command: 'make' } });
  s = apply(
    s,
    { type: 'tool-progress', id: 't1', name: 'Bash', output: 'one\ntwo\n' },
    { type: 'tool-progress', id: 't1', name: 'Bash', output: 'thr' },
    { type: 'tool-progress', id: 't1', name: 'Bash', output: 'ee\n' },
  );
  assert.deepEqual(s.live.tools[0].output, { tail: 'one\ntwo\nthree\n', lines: 3 });
  s = apply(s, {
    type: 'tool-end',
    id: 't1',
    name: 'Bash',
    input: { command: 'make' },
    result: { output: 'one\ntwo\nthree' },
    durationMs: 5,
  });
  assert.equal(s.live.tools.length, 0);
  assert.equal(s.history.at(-1)?.kind, 'tool');
});

test('liveTail: the last lines as a terminal leaves them (\\r rewrites, colours dropped), and how many are above', () => {
  assert.deepEqual(liveTail({ tail: 'a\nb\nc\nd\ne\nf\ng\n', lines: 7 }, 5, false), { shown: ['c', 'd', 'e', 'f', 'g'], hidden: 2 });
  assert.deepEqual(liveTail({ tail: '10%\r50%\r99%', lines: 0 }, 5, false), { shown: ['99%'], hidden: 0 });
  assert.deepEqual(liveTail({ tail: '\x1b[31mred\x1b[0m\tx\n', lines: 1 }, 5, false), { shown: ['red  x'], hidden: 0 });
  assert.deepEqual(liveTail({ tail: 'art of a line\nwhole\n', lines: 900 }, 5, true), { shown: ['whole'], hidden: 899 });
});

test('the running call shows its last lines, its time and how to stop it', () => {
  const tail = Array.from({ length: 8 }, (_, i) => `out ${i + 1}`).join('\n') + '\n';
  const r = render(
    h(ToolView, {
      name: 'Bash',
      input: { command: 'make' },
      status: 'running',
      durationMs: 3400,
      cwd: '/p',
      width: 80,
      live: { tail, lines: 8 },
    }),
  );
  const f = r.lastFrame() ?? '';
  assert.match(f, /… \+3 lines\n.*out 4\n.*out 5\n.*out 6\n.*out 7\n.*out 8\n.*Running… \(3s · esc to interrupt\)/);
  assert.doesNotMatch(f, /out 3/);
  r.unmount();
});

test('stream-json shows nothing of tool-progress', () => {
  assert.equal(streamJsonEvent({ type: 'tool-progress', id: 't', name: 'Bash', output: 'x\n' }, 's'), undefined);
});

test('Bash hands its output on while it runs; the result still has all of it', async () => {
  const { dir } = makeProject();
  const chunks: string[] = [];
  // The command waits for a file the test writes only once the first line has come through.
  const r = await bashTool.execute(
    { command: `printf 'a\\n'; while [ ! -e go ]; do sleep 0.02; done; printf 'b\\n' >&2` },
    {
      cwd: dir,
      signal: new AbortController().signal,
      fileState: new Map(),
      shell: { cwd: dir },
      env: {},
      progress: (c) => {
        chunks.push(c);
        if (c === 'a\n') writeFileSync(join(dir, 'go'), '');
      },
    },
  );
  assert.deepEqual(chunks, ['a\n', 'b\n']);
  assert.equal(r.output, 'a\nb');
});

test('progress events are batched (at most one per 100 ms) and none comes after stop', async () => {
  const events: AgentEvent[] = [];
  const got = new Promise<void>((res) => {
    const sink = progressSink(
      (e) => {
        events.push(e);
        res();
      },
      'c1',
      'Bash',
    );
    sink.push('x\n');
    sink.push('y\n');
  });
  await got;
  assert.deepEqual(events, [{ type: 'tool-progress', id: 'c1', name: 'Bash', output: 'x\ny\n' }]);
  const late: AgentEvent[] = [];
  const s2 = progressSink((e) => late.push(e), 'c2', 'Bash');
  s2.push('z');
  s2.stop();
  await new Promise<void>((res) => setImmediate(res));
  assert.deepEqual(late, []);
});
