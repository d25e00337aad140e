import { z } from 'zod';
import type { Message } from '../providers/types.ts';
import type { ToolDef } from './types.ts';
import description from './todo-write.md';

const TodoItemSchema = z.object({
  content: z.string().min(1).describe('What to do, in the imperative ("Run the tests")'),
  status: z.enum(['pending', 'in_progress', 'completed']),
  // Optional (SPEC §14 names only content and status); shown instead of content while in progress.
  activeForm: z.string().min(1).optional().describe('The same in the present continuous, shown while it is in progress ("Running the tests")'),
});
export type TodoItem = z.infer<typeof TodoItemSchema>;

const schema = z.object({
  todos: z.array(TodoItemSchema).describe('The whole updated task list'),
}).refine((v) => v.todos.filter((t) => t.status === 'in_progress').length <= 1, {
  message: 'at most one task may be in_progress at a time: mark the others pending or completed',
  path: ['todos'],
});

/**
 * TodoWrite (SPEC §14): the session's task list. The list lives in the conversation itself (the
 * last TodoWrite call's input), so it is in the transcript and comes back on resume with no state here.
 */
export const todoWriteTool: ToolDef<typeof schema> = {
  name: 'TodoWrite',
  description,
  schema,
  readOnly: true,
  access: 'other', noApproval: true,
  async execute(input) {
    const done = input.todos.filter((t) => t.status === 'completed').length;
    return {
      output: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
      display: `${done}/${input.todos.length} done`,
      response: { newTodos: input.todos },
    };
  },
};

/** The task list as the conversation last set it (the newest TodoWrite call's input), or empty. */
export function todosOf(messages: readonly Message[]): TodoItem[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const p = m.content[j];
      if (p.type !== 'tool-call' || p.toolName !== 'TodoWrite') continue;
      const r = z.object({ todos: z.array(TodoItemSchema) }).safeParse(p.input);
      if (r.success) return r.data.todos;
    }
  }
  return [];
}
