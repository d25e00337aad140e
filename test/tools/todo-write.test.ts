import { test } from 'node:test';
import assert from 'node:assert/strict';
import { todoWriteTool, todosOf } from '../../src/tools/todo-write.ts';

test('TodoWrite takes items with only content and status (SPEC §14); activeForm is optional', () => {
  const ok = todoWriteTool.schema.safeParse({ todos: [{ content: 'Run the tests', status: 'in_progress' }, { content: 'Fix', status: 'pending', activeForm: 'Fixing' }] });
  assert.ok(ok.success, JSON.stringify(ok.error?.issues));
  const two = todoWriteTool.schema.safeParse({ todos: [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'in_progress' }] });
  assert.equal(two.success, false);
  assert.match(JSON.stringify(two.error!.issues), /at most one task may be in_progress/);
  const bad = todoWriteTool.schema.safeParse({ todos: [{ content: 'a', status: 'doing' }] });
  assert.equal(bad.success, false);
  const list = todosOf([{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't', toolName: 'TodoWrite', input: { todos: [{ content: 'a', status: 'pending' }] } }] } as never]);
  assert.deepEqual(list, [{ content: 'a', status: 'pending' }], 'restored on resume without activeForm');
});
