import { Box, Text } from 'ink';
import type { ToolItem } from '../state.ts';
import { ToolView } from './tool-view.tsx';

type Call = Pick<ToolItem, 'name'>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a run of reads and searches did, in one line as Claude Code words it: `Searched for 2
 * patterns, read 3 files, listed 1 directory`; while it runs, `Searching for 1 pattern, reading 2
 * files…`. Grep and Glob count as patterns, Read as files, LS as directories. Pure.
 */
export function groupSummary(calls: Call[], running = false): string {
  const count = (names: string[]) => calls.filter((c) => names.includes(c.name)).length;
  const patterns = count(['Grep', 'Glob']);
  const files = count(['Read']);
  const dirs = count(['LS']);
  const parts = [
    patterns && `${running ? 'searching' : 'searched'} for ${plural(patterns, 'pattern', 'patterns')}`,
    files && `${running ? 'reading' : 'read'} ${plural(files, 'file', 'files')}`,
    dirs && `${running ? 'listing' : 'listed'} ${plural(dirs, 'directory', 'directories')}`,
  ].filter((x): x is string => !!x);
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${running ? '…' : ''}`;
}

/**
 * A group of reads and searches: one line, or, in Ctrl-O's detail view, each call with its output
 * whole. `running`: calls still running are counted in (the live region, with a spinner frame).
 */
export function GroupView({
  tools,
  running = [],
  width,
  cwd,
  detail,
  frame,
}: {
  tools: Array<Omit<ToolItem, 'id'>>;
  running?: Call[];
  width: number;
  cwd: string;
  detail?: boolean;
  frame?: string;
}) {
  if (detail && running.length === 0) {
    return (
      <Box flexDirection="column">
        {tools.map((t, k) => (
          <ToolView key={k} {...t} cwd={cwd} width={width} expanded />
        ))}
      </Box>
    );
  }
  const busy = running.length > 0;
  const failed = tools.some((t) => t.status !== 'ok');
  return (
    <Box marginTop={1}>
      <Text color={busy ? 'cyan' : failed ? 'red' : 'green'}>{busy ? (frame ?? '●') : '●'} </Text>
      <Box flexShrink={1}>
        <Text>
          {groupSummary([...tools, ...running], busy)}
          {!busy && <Text dimColor> (ctrl+o to expand)</Text>}
        </Text>
      </Box>
    </Box>
  );
}
