import { useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import type { PermissionRequest } from '../../agent/events.ts';
import { shortPath, toolTitle } from '../format.ts';
import type { PermissionChoice } from '../state.ts';
import { prevBoundary, sanitize } from '../editor.ts';
import { DiffView, diffRows } from './diff-view.tsx';
import { structuredPatch } from 'diff';

/** The note's cursor, as raw inverse video so that NO_COLOR keeps it (see prompt-input). */
const CURSOR = '\x1b[7m \x1b[27m';

const HEADINGS: Record<string, string> = { Bash: 'Bash command', Edit: 'Edit file', Write: 'Write file', Read: 'Read file' };

/** Rows of the screen the question needs besides its preview: border, heading, reason, options, help, the footer under it. */
const CHROME = 16;

/**
 * What an Edit or Write will change, as diff text: `preview` (the change against the file, see
 * permission-preview.ts, numbered); else the edit's old/new strings, or the content to write, as
 * added lines (unnumbered). Undefined for other tools.
 */
function changeOf(req: PermissionRequest, preview?: string): string | undefined {
  const i = req.input;
  if ((req.tool === 'Edit' || req.tool === 'Write') && preview) return preview;
  if (req.tool === 'Edit' && typeof i.old_string === 'string' && typeof i.new_string === 'string') {
    const p = structuredPatch('a', 'b', i.old_string, i.new_string, undefined, undefined, { context: 2 });
    return p.hunks
      .flatMap((h) => h.lines)
      .filter((l) => !l.startsWith('\\'))
      .join('\n');
  }
  if (req.tool === 'Write' && typeof i.content === 'string')
    return i.content
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `+${l}`)
      .join('\n');
  return undefined;
}

/**
 * What the call will do, for the question: the command, or the change as a diff, drawn like a
 * tool result's diff. A diff taller than `room` is folded (`… +N lines (ctrl+o to expand)`);
 * expanded (Ctrl-O), it shows `room` rows from `top`, scrolled with ↑/↓ and PgUp/PgDn.
 */
function Preview({
  req,
  cwd,
  change,
  room,
  expanded,
  top,
}: {
  req: PermissionRequest;
  cwd: string;
  change?: string;
  room: number;
  expanded: boolean;
  top: number;
}) {
  const i = req.input;
  if (req.tool === 'Bash') {
    return (
      <Box flexDirection="column" paddingLeft={2}>
        <Text>{String(i.command ?? '')}</Text>
        {typeof i.description === 'string' && <Text dimColor>{i.description}</Text>}
      </Box>
    );
  }
  if (change !== undefined) {
    const total = diffRows(change).length;
    const scrolls = expanded && total > room;
    return (
      <Box flexDirection="column" paddingLeft={2}>
        <Text bold>{shortPath(String(i.file_path ?? ''), cwd)}</Text>
        <DiffView diff={change} maxLines={room} from={scrolls ? top : undefined} />
        {scrolls && (
          <Text dimColor>
            lines {top + 1}–{Math.min(total, top + room)} of {total} · ↑/↓ PgUp/PgDn to scroll · ctrl+o to fold
          </Text>
        )}
      </Box>
    );
  }
  return (
    <Box paddingLeft={2}>
      <Text>{toolTitle(req.tool, i, cwd)}</Text>
    </Box>
  );
}

/**
 * The permission question (SPEC §5): yes once; yes and don't ask again (the rules are named, and
 * saved to .assistant/settings.local.json); no, with an optional note for the model. Esc refuses
 * and interrupts the turn. A long diff fits the screen (`height` rows) folded; Ctrl-O shows it
 * whole, scrolled inside the question (↑/↓ then scroll; Tab moves between the options).
 */
export function PermissionDialog({
  req,
  always,
  preview,
  onAnswer,
  cwd,
  width,
  height = 40,
}: {
  req: PermissionRequest;
  always: string[];
  preview?: string;
  onAnswer(c: PermissionChoice): void;
  cwd: string;
  width: number;
  height?: number;
}) {
  const options: Array<{ label: string; choice: PermissionChoice['kind'] }> = [
    { label: 'Yes', choice: 'once' },
    ...(always.length ? [{ label: `Yes, and don't ask again for ${always.join(', ')} in this project`, choice: 'always' as const }] : []),
    { label: 'No, and tell assistant what to do differently', choice: 'deny' },
  ];
  const change = changeOf(req, preview);
  const total = change === undefined ? 0 : diffRows(change).length;
  // A folded diff keeps a row for its note; a scrolled one, for its position line.
  const room = Math.max(4, height - CHROME - options.length);
  const foldable = total > room;
  // Refs as well as state: keys read in one chunk are handled before a re-render.
  const at = useRef(0);
  const [i, setIState] = useState(0);
  const setI = (f: (x: number) => number) => {
    at.current = f(at.current);
    setIState(at.current);
  };
  const view = useRef({ expanded: false, top: 0 });
  const [shown, setView] = useState(view.current);
  const setShown = (v: { expanded: boolean; top: number }) => {
    view.current = v;
    setView(v);
  };
  const scroll = (by: number) => setShown({ ...view.current, top: Math.max(0, Math.min(total - room, view.current.top + by)) });
  const fbRef = useRef<string | undefined>(undefined);
  const [feedback, setFbState] = useState<string | undefined>(undefined);
  const setFeedback = (f: string | undefined | ((old: string | undefined) => string | undefined)) => {
    fbRef.current = typeof f === 'function' ? f(fbRef.current) : f;
    setFbState(fbRef.current);
  };
  const pick = (k: number) => {
    setI(() => k);
    const c = options[k].choice;
    if (c === 'deny') setFeedback('');
    else onAnswer({ kind: c } as PermissionChoice);
  };
  useInput((input, key) => {
    if (fbRef.current !== undefined) {
      if (key.return) onAnswer({ kind: 'deny', feedback: sanitize(fbRef.current) });
      else if (key.escape) setFeedback(undefined);
      else if (key.backspace || key.delete) setFeedback((f) => (f ?? '').slice(0, prevBoundary(f ?? '', (f ?? '').length)));
      else if (input.includes('\r')) onAnswer({ kind: 'deny', feedback: sanitize((fbRef.current ?? '') + input.split('\r')[0]) });
      else if (input && !key.ctrl && !key.meta) setFeedback((f) => (f ?? '') + input);
      return;
    }
    if (key.ctrl && input === 'o') {
      if (foldable) setShown({ expanded: !view.current.expanded, top: 0 });
      return;
    }
    const scrolling = view.current.expanded && foldable;
    if (scrolling && (key.upArrow || key.downArrow)) {
      scroll(key.upArrow ? -1 : 1);
      return;
    }
    if (scrolling && (key.pageUp || key.pageDown || input === ' ')) {
      scroll(key.pageUp ? -room : room);
      return;
    }
    if (key.upArrow || (key.tab && key.shift)) setI((x) => (x + options.length - 1) % options.length);
    else if (key.downArrow || key.tab) setI((x) => (x + 1) % options.length);
    else if (key.return) pick(at.current);
    else if (key.escape || (key.ctrl && input === 'c')) onAnswer({ kind: 'interrupt' });
    else if (/^[1-9]$/.test(input) && Number(input) <= options.length) pick(Number(input) - 1);
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow">
        {HEADINGS[req.tool] ?? req.tool}
        {req.agent ? ` (asked by the ${req.agent} subagent)` : ''}
      </Text>
      <Box marginY={1}>
        <Preview req={req} cwd={cwd} change={change} room={room} expanded={shown.expanded} top={shown.top} />
      </Box>
      <Text dimColor>{req.reason}</Text>
      <Text>Do you want to proceed?</Text>
      {/* A long option (many rules) wraps under its own text, not at the box's edge. */}
      {options.map((o, k) => (
        <Box key={o.choice}>
          <Text color={k === i ? 'cyan' : undefined}>
            {k === i ? '❯ ' : '  '}
            {k + 1}.
          </Text>
          <Box flexShrink={1} marginLeft={1}>
            <Text color={k === i ? 'cyan' : undefined}>{o.label}</Text>
          </Box>
        </Box>
      ))}
      {feedback !== undefined ? (
        <Text>
          {' '}
          What should assistant do instead? <Text color="cyan">{feedback}</Text>
          {CURSOR} <Text dimColor>(Enter to send)</Text>
        </Text>
      ) : (
        <Text dimColor>
          Esc to refuse and interrupt{foldable ? (shown.expanded ? ' · Tab to choose' : ' · ctrl+o to see the whole change') : ''}
        </Text>
      )}
    </Box>
  );
}
