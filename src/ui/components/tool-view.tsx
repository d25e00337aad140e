import { Box, Text } from 'ink';
import type { ToolResult } from '../../agent/events.ts';
import { editDiff, FOLD, foldedText, liveTail } from '../fold.ts';
import { LIVE_TAIL_CHARS } from '../state.ts';
import { foldLines, formatDuration, shortPath, toolTitle } from '../format.ts';
import { DiffView, diffCounts, foldNote } from './diff-view.tsx';

interface ToolViewProps {
  name: string;
  input: unknown;
  status: 'ok' | 'error' | 'denied' | 'running';
  result?: ToolResult;
  durationMs?: number;
  reason?: string;
  cwd: string;
  width: number;
  /** Shown instead of the status dot while running (a spinner frame). */
  frame?: string;
  /** Ctrl-O's detail view: everything, nothing folded. */
  expanded?: boolean;
  /** Runs (ran) inside the OS sandbox. */
  sandboxed?: boolean;
  /** While it runs: what it printed so far (state.ts keeps the tail). */
  live?: { tail: string; lines: number };
}

/** Whole seconds, then minutes: a running call's clock (`12s`, `2m 5s`). */
function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** A running call: the last lines of its output as they come, its time, and how to stop it. */
function Running({ p }: { p: ToolViewProps }) {
  const { shown, hidden } = p.live ? liveTail(p.live, FOLD.bash, p.live.tail.length >= LIVE_TAIL_CHARS) : { shown: [], hidden: 0 };
  return (
    <Box flexDirection="column">
      {hidden > 0 && (
        <Text dimColor>
          … +{hidden} line{hidden === 1 ? '' : 's'}
        </Text>
      )}
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {l || ' '}
        </Text>
      ))}
      <Text dimColor>Running… ({clock(p.durationMs ?? 0)} · esc to interrupt)</Text>
    </Box>
  );
}

function Body({ p }: { p: ToolViewProps }) {
  const { result } = p;
  if (p.status === 'running') return <Running p={p} />;
  if (p.status === 'denied') {
    if (p.expanded) return <Text color="yellow">{p.reason}</Text>;
    const f = foldLines(p.reason ?? 'Refused.', FOLD.denied);
    return (
      <Box flexDirection="column">
        <Text color="yellow">{f.lines.join('\n')}</Text>
        {f.hidden > 0 && <Text dimColor>{foldNote(f.hidden)}</Text>}
      </Box>
    );
  }
  if (!result) return <Text dimColor>(no result recorded)</Text>;
  if (p.expanded) {
    const full = foldedText(p);
    if (full !== undefined && !/^@@ /.test(full))
      return <Text color={p.status === 'error' ? 'red' : undefined}>{full.replace(/\n+$/, '')}</Text>;
  }
  if (p.status === 'error' && p.name === 'Bash') {
    // The first lines, then the last one: how it ended (`Exit code 1`, `…interrupted by the user`).
    const all = result.output.replace(/\n+$/, '').split('\n');
    if (all.length <= FOLD.bash + 1) return <Text color="red">{all.join('\n')}</Text>;
    return (
      <Box flexDirection="column">
        <Text color="red">{all.slice(0, FOLD.bash).join('\n')}</Text>
        <Text dimColor>{foldNote(all.length - FOLD.bash - 1)}</Text>
        <Text color="red">{all.at(-1)}</Text>
      </Box>
    );
  }
  if (p.status === 'error') {
    const f = foldLines(result.output, FOLD.error);
    return (
      <Box flexDirection="column">
        <Text color="red">{f.lines.join('\n')}</Text>
        {f.hidden > 0 && <Text dimColor>{foldNote(f.hidden)}</Text>}
      </Box>
    );
  }
  const diff = editDiff(p.name, result);
  if (diff !== undefined) {
    const { added, removed } = diffCounts(diff);
    const file = shortPath(String((p.input as { file_path?: unknown })?.file_path ?? ''), p.cwd);
    return (
      <Box flexDirection="column">
        <Text>
          {p.name === 'Write' ? 'Wrote' : 'Updated'} <Text bold>{file}</Text> with {added} addition{added === 1 ? '' : 's'} and {removed}{' '}
          removal{removed === 1 ? '' : 's'}
        </Text>
        <DiffView diff={diff} maxLines={p.expanded ? Infinity : FOLD.diff} />
      </Box>
    );
  }
  if (p.name === 'Bash') {
    const text = result.output === '(Command completed with no output)' ? '' : result.output;
    if (!text.trim()) return <Text dimColor>(no output)</Text>;
    const f = foldLines(text, FOLD.bash);
    return (
      <Box flexDirection="column">
        <Text>{f.lines.join('\n')}</Text>
        {f.hidden > 0 && <Text dimColor>{foldNote(f.hidden)}</Text>}
      </Box>
    );
  }
  const line = result.display ?? result.output.split('\n')[0];
  // A summary (`Read 120 lines`) stands for output the detail view shows.
  const more = foldedText(p) !== undefined;
  return (
    <Text>
      {p.name === 'Write' || p.name === 'Edit' ? line.replace(p.cwd + '/', '') : line}
      {more && <Text dimColor> (ctrl+o to expand)</Text>}
    </Text>
  );
}

/** One tool call: `● Bash(npm test) · 1.2s` then `⎿` and a short result (diff, folded output, refusal). */
export function ToolView(p: ToolViewProps) {
  const dot = p.status === 'ok' ? 'green' : p.status === 'error' ? 'red' : p.status === 'denied' ? 'yellow' : 'cyan';
  return (
    <Box flexDirection="column" marginTop={1}>
      <Box>
        <Text color={dot}>{p.frame ?? '●'} </Text>
        <Box flexShrink={1}>
          <Text>
            <Text bold>{toolTitle(p.name, p.input, p.cwd, Math.max(20, p.width - 16))}</Text>
            {p.durationMs !== undefined && p.status !== 'running' && <Text dimColor> · {formatDuration(p.durationMs)}</Text>}
            {p.sandboxed && <Text dimColor> · sandboxed</Text>}
          </Text>
        </Box>
      </Box>
      <Box>
        <Text dimColor>{'  ⎿  '}</Text>
        <Box flexDirection="column" flexShrink={1} width={Math.max(10, p.width - 5)}>
          <Body p={p} />
        </Box>
      </Box>
    </Box>
  );
}
