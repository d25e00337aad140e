import { Box, Text } from 'ink';
import type { TodoItem } from '../../agent/events.ts';

/**
 * The session's task list (TodoWrite, SPEC §14) under the conversation, redrawn in place as the
 * model updates it. Hidden when empty or when every item is done (the history keeps the calls).
 */
export function TodoView({ todos, width }: { todos?: TodoItem[]; width: number }) {
  if (!todos?.length || todos.every((t) => t.status === 'completed')) return null;
  const done = todos.filter((t) => t.status === 'completed').length;
  return (
    <Box flexDirection="column" marginTop={1} width={width}>
      <Text dimColor>{`  Todos (${done}/${todos.length} done)`}</Text>
      {todos.map((t, i) =>
        t.status === 'completed' ? (
          <Text key={i} dimColor strikethrough wrap="truncate">{`  ☒ ${t.content}`}</Text>
        ) : t.status === 'in_progress' ? (
          <Text key={i} bold color="cyan" wrap="truncate">{`  ◼ ${t.activeForm ?? t.content}`}</Text>
        ) : (
          <Text key={i} wrap="truncate">{`  ☐ ${t.content}`}</Text>
        ),
      )}
    </Box>
  );
}
