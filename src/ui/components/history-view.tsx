import { Box, Text } from 'ink';
import { wrapHanging } from '../format.ts';
import { renderMarkdown } from '../markdown.ts';
import type { HistoryItem } from '../state.ts';
import { GroupView } from './group-view.tsx';
import { ToolView } from './tool-view.tsx';

const TONES = { info: undefined, warning: 'yellow', error: 'red', success: 'green' } as const;

/** One finished item of the session, printed once above the live region; `detail`: unfolded (Ctrl-O). */
export function HistoryView({ item, width, cwd, detail }: { item: HistoryItem; width: number; cwd: string; detail?: boolean }) {
  switch (item.kind) {
    case 'banner':
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={Math.min(width, 72)}>
          <Text>
            <Text color="cyan">✻</Text> <Text bold>assistant</Text> <Text dimColor>v{item.version}</Text>
          </Text>
          <Text dimColor>/help for help, /status for your current setup</Text>
          <Text dimColor>model: {item.model}</Text>
          <Text dimColor>cwd: {cwd}</Text>
          {item.resumed && <Text color="cyan">resumed session {item.resumed}</Text>}
        </Box>
      );
    case 'user':
      return (
        <Box marginTop={1}>
          <Text dimColor>{'> '}</Text>
          <Box flexShrink={1}>
            <Text dimColor>{item.text}</Text>
          </Box>
        </Box>
      );
    case 'attached':
      return (
        <Box>
          <Text dimColor>{'  ⎿  '}</Text>
          <Box flexDirection="column" flexShrink={1}>
            {item.lines.map((l, i) => (
              <Text key={i} dimColor>
                attached {l}
              </Text>
            ))}
          </Box>
        </Box>
      );
    case 'assistant':
      return (
        <Box marginTop={1}>
          <Text>{item.cont ? '  ' : '● '}</Text>
          <Box flexShrink={1} width={Math.max(10, width - 2)}>
            <Text>{renderMarkdown(item.text, width - 2)}</Text>
          </Box>
        </Box>
      );
    case 'tool':
      return (
        <ToolView
          name={item.name}
          input={item.input}
          status={item.status}
          result={item.result}
          durationMs={item.durationMs}
          reason={item.reason}
          cwd={cwd}
          width={width}
          expanded={detail}
          sandboxed={item.sandboxed}
        />
      );
    case 'group':
      return <GroupView tools={item.tools} width={width} cwd={cwd} detail={detail} />;
    case 'notice':
      return (
        <Box marginTop={1}>
          <Text color={TONES[item.tone]}>
            {item.tone === 'error' ? '✗ ' : item.tone === 'warning' ? '⚠ ' : item.tone === 'success' ? '✓ ' : '  '}
          </Text>
          <Box flexShrink={1}>
            <Text color={TONES[item.tone]}>{item.text}</Text>
          </Box>
        </Box>
      );
    case 'output':
      return (
        <Box marginTop={1} paddingLeft={2}>
          <Text>{wrapHanging(item.text, width - 2)}</Text>
        </Box>
      );
    case 'thinking': {
      // Folded to one line; the Ctrl-O detail view shows it whole, as it does tool output.
      if (!detail) {
        const lines = item.text.split('\n').length;
        return (
          <Box marginTop={1}>
            <Text dimColor italic>
              ✻ Thought for {lines} line{lines === 1 ? '' : 's'} (ctrl+o to expand)
            </Text>
          </Box>
        );
      }
      return (
        <Box marginTop={1} flexDirection="column">
          <Text dimColor italic>
            ✻ Thinking
          </Text>
          <Box paddingLeft={2} flexShrink={1}>
            <Text dimColor italic>
              {wrapHanging(item.text, width - 2)}
            </Text>
          </Box>
        </Box>
      );
    }
  }
}
