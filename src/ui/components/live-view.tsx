import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { formatTokens } from '../format.ts';
import { renderMarkdown } from '../markdown.ts';
import { groupedTool } from '../../agent/tool-title.ts';
import type { LiveState, RunningAgent } from '../state.ts';
import { GroupView } from './group-view.tsx';
import { ToolView } from './tool-view.tsx';

const FRAMES = ['·', '✢', '✳', '✶', '✻', '✽', '✻', '✶', '✳', '✢'];

/** Whole seconds, then minutes: the spinner's clock (`12s`, `2m 5s`). */
function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** A clock that ticks while `on` (the spinner and elapsed times). */
function useTick(on: boolean, ms = 120): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [on, ms]);
  return now;
}

/**
 * The part of the screen that changes while the model works: the unfinished paragraph of the
 * answer, running tools and hooks, a retry countdown, and the spinner with elapsed time and tokens.
 * Kept to a few lines (finished paragraphs move to history), so redrawing never flickers.
 */
export function LiveView({
  live,
  width,
  height,
  cwd,
  detail,
}: {
  live: LiveState;
  width: number;
  height: number;
  cwd: string;
  detail?: boolean;
}) {
  const active = !!live.busy || live.tools.length > 0 || !!live.starting;
  const now = useTick(active);
  const frame = FRAMES[Math.floor(now / 120) % FRAMES.length];
  let streamed = live.streaming.trim() ? renderMarkdown(live.streaming, width - 2).split('\n') : [];
  const room = Math.max(3, height - 12);
  if (streamed.length > room) streamed = ['…', ...streamed.slice(-room)];
  // A run of reads and searches shows as one line while it grows (state.ts groups it), its running calls counted in.
  const grouping = (live.group?.length ?? 0) > 0 || live.tools.some((t) => groupedTool(t.name));
  const inGroup = grouping ? live.tools.filter((t) => groupedTool(t.name)) : [];
  const others = live.tools.filter((t) => !inGroup.includes(t));
  const groupSize = (live.group?.length ?? 0) + inGroup.length;
  return (
    <Box flexDirection="column">
      {streamed.length > 0 && (
        <Box marginTop={1}>
          <Text>{live.continued ? '  ' : '● '}</Text>
          <Box flexShrink={1}>
            <Text>{streamed.join('\n')}</Text>
          </Box>
        </Box>
      )}
      {groupSize > 1 && <GroupView tools={live.group ?? []} running={inGroup} width={width} cwd={cwd} frame={frame} />}
      {groupSize === 1 && live.group?.map((t, k) => <ToolView key={k} {...t} cwd={cwd} width={width} />)}
      {groupSize === 1 &&
        inGroup.map((t) => (
          <ToolView
            key={t.id}
            name={t.name}
            input={t.input}
            status="running"
            durationMs={now - t.startedAt}
            cwd={cwd}
            width={width}
            frame={frame}
            sandboxed={t.sandboxed}
          />
        ))}
      {others.map((t) => (
        <ToolView
          key={t.id}
          name={t.name}
          input={t.input}
          status="running"
          durationMs={now - t.startedAt}
          cwd={cwd}
          width={width}
          frame={frame}
          sandboxed={t.sandboxed}
          live={t.output}
        />
      ))}
      {(live.agents ?? []).map((a) => (
        <AgentView key={a.id} a={a} detail={!!detail} width={width} frame={frame} />
      ))}
      {live.thinking !== undefined && (
        <Box marginTop={1}>
          <Text dimColor italic>
            ✻ Thinking… ({live.thinking.split('\n').length} lines, shown folded when done)
          </Text>
        </Box>
      )}
      {live.hooks.map((h) => (
        <Text key={h} dimColor>
          {' '}
          running hook {h}…
        </Text>
      ))}
      {live.verifying && <Text color="cyan"> verifying: {live.verifying}…</Text>}
      {live.retry && (
        <Box width={width}>
          <Text color="yellow">{'  ⚠'}</Text>
          <Box flexShrink={1} marginLeft={1}>
            <Text color="yellow">
              {live.retry.message} · retrying in {Math.max(0, Math.ceil((live.retry.until - now) / 1000))}s (attempt {live.retry.attempt}/
              {live.retry.maxRetries})
            </Text>
          </Box>
        </Box>
      )}
      {live.starting && !live.busy && (
        <Box marginTop={1}>
          <Text color="magenta">{frame} Starting… </Text>
          <Text dimColor>(SessionStart hooks; what you type is sent when they are done)</Text>
        </Box>
      )}
      {live.busy && (
        <Box marginTop={1}>
          <Text color="magenta">{frame} Working… </Text>
          <Text dimColor>
            ({elapsed(now - live.busy.since)} · ↓ {formatTokens(live.busy.tokens)} tokens · esc to interrupt)
          </Text>
        </Box>
      )}
    </Box>
  );
}

/** A running subagent as one folded block: its agent, its current tool and how many calls it made; Ctrl-O shows its calls. */
function AgentView({ a, detail, width, frame }: { a: RunningAgent; detail: boolean; width: number; frame: string }) {
  const shown = detail ? a.done : [];
  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text color="magenta">{`  ${frame} `}</Text>
        <Text bold>{a.agent}</Text>
        <Text dimColor>{` · ${a.calls} tool use${a.calls === 1 ? '' : 's'}${detail ? '' : ' · ctrl+o to expand'}`}</Text>
      </Text>
      {shown.map((t, i) => (
        <Text key={i} dimColor wrap="truncate">{`    ⎿ ${t}`}</Text>
      ))}
      <Text wrap="truncate" dimColor={!a.current}>{`    ⎿ ${a.current ?? 'thinking…'}`}</Text>
    </Box>
  );
}
