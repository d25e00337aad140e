import { z } from 'zod';
import type { Message } from '../providers/types.ts';
import type { ToolDef } from './types.ts';
import description from './todo-write.md';

const TodoItemSchema = z.object({
  content: z.string().min(1).describe('What to do, in the imperative ("Run the tests")'),
  status: z.enum(['pending', 'in_progress', 'completed']),
  // Optional (SPEC §14 names only content and status); shown instead of content while in progress.
  activeForm: z
    .string()
    .min(1)
    .optional()
    .describe('The same in the present continuous, shown while it is in progress ("Running the tests")'),
});
export type TodoItem = z.infer<typeof TodoItemSchema>;

const schema = z
  .object({
    todos: z.array(TodoItemSchema).describe('The whole updated task list'),
  })
  .refine((v) => v.todos.filter((t) => t.status === 'in_progress').length <= 1, {
    message: 'at most one task may be in_progress at a time: mark the others pending or completed',
    path: ['todos'],
  });

/**
 * TodoWrite (SPEC §14): the session's task list. The list lives in the conversation itself (the
 * last TodoWrite call's input), so it is in the transcript and comes back on resume with no state here.
 * This definition answers without the list before the call; a session uses `todoWriteFor`.
 */
export const todoWriteTool: ToolDef<typeof schema> = {
  name: 'TodoWrite',
  description,
  schema,
  readOnly: true,
  access: 'other',
  noApproval: true,
  async execute(input) {
    const done = input.todos.filter((t) => t.status === 'completed').length;
    return {
      output:
        'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
      display: `${done}/${input.todos.length} done`,
      response: { newTodos: input.todos },
    };
  },
};

/**
 * A session's TodoWrite: its response names the list before the call too (`oldTodos`, as Claude
 * Code's PostToolUse `tool_response` does), read from the conversation up to this call.
 */
export function todoWriteFor(messages: () => readonly Message[]): ToolDef<typeof schema> {
  return {
    ...todoWriteTool,
    async execute(input, ctx) {
      const r = await todoWriteTool.execute(input, ctx);
      return { ...r, response: { oldTodos: todosOf(messages(), ctx.callId), newTodos: input.todos } };
    },
  };
}

/**
 * The task list as the conversation last set it (the newest TodoWrite call's input), or empty.
 * With `before`, the list as it stood before that call (a call of the same message after it has not run yet).
 */
export function todosOf(messages: readonly Message[], before?: string): TodoItem[] {
  let skipping =
    before !== undefined &&
    messages.some((m) => m.role === 'assistant' && m.content.some((p) => p.type === 'tool-call' && p.toolCallId === before));
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const p = m.content[j];
      if (skipping) {
        if (p.type === 'tool-call' && p.toolCallId === before) skipping = false;
        continue;
      }
      if (p.type !== 'tool-call' || p.toolName !== 'TodoWrite') continue;
      const r = schema.safeParse(p.input); // a call the tool refused (two in progress) set nothing
      if (r.success) return r.data.todos;
    }
  }
  return [];
}
