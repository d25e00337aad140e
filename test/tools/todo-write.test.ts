import { test } from 'node:test';
import assert from 'node:assert/strict';
import { todoWriteFor, todoWriteTool, todosOf } from '../../src/tools/todo-write.ts';

test('TodoWrite takes items with only content and status (SPEC §14); activeForm is optional', () => {
  const ok = todoWriteTool.schema.safeParse({
    todos: [
      { content: 'Run the tests', status: 'in_progress' },
      { content: 'Fix', status: 'pending', activeForm: 'Fixing' },
    ],
  });
  assert.ok(ok.success, JSON.stringify(ok.error?.issues));
  const two = todoWriteTool.schema.safeParse({
    todos: [
      { content: 'a', status: 'in_progress' },
      { content: 'b', status: 'in_progress' },
    ],
  });
  assert.equal(two.success, false);
  assert.match(JSON.stringify(two.error!.issues), /at most one task may be in_progress/);
  const bad = todoWriteTool.schema.safeParse({ todos: [{ content: 'a', status: 'doing' }] });
  assert.equal(bad.success, false);
  const list = todosOf([
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 't', toolName: 'TodoWrite', input: { todos: [{ content: 'a', status: 'pending' }] } }],
    } as never,
  ]);
  assert.deepEqual(list, [{ content: 'a', status: 'pending' }], 'restored on resume without activeForm');
});

test("a session's TodoWrite answers the list before the call (oldTodos), even with two calls in one message", async () => {
  const call = (id: string, content: string) => ({
    type: 'tool-call',
    toolCallId: id,
    toolName: 'TodoWrite',
    input: { todos: [{ content, status: 'pending' }] },
  });
  const messages = [
    { role: 'assistant', content: [call('t1', 'a')] },
    { role: 'tool', content: [] },
    { role: 'assistant', content: [call('t2', 'b'), call('t3', 'c')] },
  ] as never[];
  const tool = todoWriteFor(() => messages);
  const run = async (id: string, content: string) =>
    (await tool.execute({ todos: [{ content, status: 'pending' }] }, { callId: id } as never)).response;
  assert.deepEqual(await run('t2', 'b'), {
    oldTodos: [{ content: 'a', status: 'pending' }],
    newTodos: [{ content: 'b', status: 'pending' }],
  });
  assert.deepEqual(await run('t3', 'c'), {
    oldTodos: [{ content: 'b', status: 'pending' }],
    newTodos: [{ content: 'c', status: 'pending' }],
  });
  assert.deepEqual(await run('t1', 'a'), { oldTodos: [], newTodos: [{ content: 'a', status: 'pending' }] });
});
