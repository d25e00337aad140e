import { useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import type { PermissionRequest } from '../../agent/events.ts';
import { shortPath, toolTitle } from '../format.ts';
import type { PermissionChoice } from '../state.ts';
import { FOLD } from '../fold.ts';
import { DiffView } from './diff-view.tsx';
import { structuredPatch } from 'diff';

/** The note's cursor, as raw inverse video so that NO_COLOR keeps it (see prompt-input). */
const CURSOR = '\x1b[7m \x1b[27m';

const HEADINGS: Record<string, string> = { Bash: 'Bash command', Edit: 'Edit file', Write: 'Write file', Read: 'Read file' };

/**
 * What the call will do, for the question: the command, or the edit as a diff. `preview` (an Edit's
 * or Write's change against the file, see permission-preview.ts) is drawn like a tool result's diff,
 * numbered and folded; without it, the edit's old/new strings or the content to write are shown.
 */
function Preview({ req, cwd, preview }: { req: PermissionRequest; cwd: string; preview?: string }) {
  const i = req.input;
  if (req.tool === 'Bash') {
    return <Box flexDirection="column" paddingLeft={2}><Text>{String(i.command ?? '')}</Text>{typeof i.description === 'string' && <Text dimColor>{i.description}</Text>}</Box>;
  }
  if ((req.tool === 'Edit' || req.tool === 'Write') && preview) {
    return <Box flexDirection="column" paddingLeft={2}><Text bold>{shortPath(String(i.file_path ?? ''), cwd)}</Text><DiffView diff={preview} maxLines={FOLD.diff} /></Box>;
  }
  if (req.tool === 'Edit' && typeof i.old_string === 'string' && typeof i.new_string === 'string') {
    const p = structuredPatch('a', 'b', i.old_string, i.new_string, undefined, undefined, { context: 2 });
    const text = p.hunks.flatMap((h) => h.lines).filter((l) => !l.startsWith('\\')).join('\n');
    return <Box flexDirection="column" paddingLeft={2}><Text bold>{shortPath(String(i.file_path ?? ''), cwd)}</Text><DiffView diff={text} maxLines={16} /></Box>;
  }
  if (req.tool === 'Write' && typeof i.content === 'string') {
    const lines = i.content.replace(/\n$/, '').split('\n');
    return (
      <Box flexDirection="column" paddingLeft={2}>
        <Text bold>{shortPath(String(i.file_path ?? ''), cwd)}</Text>
        <Text>{lines.slice(0, 12).join('\n')}</Text>
        {lines.length > 12 && <Text dimColor>… +{lines.length - 12} lines</Text>}
      </Box>
    );
  }
  return <Box paddingLeft={2}><Text>{toolTitle(req.tool, i, cwd)}</Text></Box>;
}

/**
 * The permission question (SPEC §5): yes once; yes and don't ask again (the rules are named, and
 * saved to .assistant/settings.local.json); no, with an optional note for the model. Esc refuses
 * and interrupts the turn.
 */
export function PermissionDialog({ req, always, preview, onAnswer, cwd, width }: { req: PermissionRequest; always: string[]; preview?: string; onAnswer(c: PermissionChoice): void; cwd: string; width: number }) {
  const options: Array<{ label: string; choice: PermissionChoice['kind'] }> = [
    { label: 'Yes', choice: 'once' },
    ...(always.length ? [{ label: `Yes, and don't ask again for ${always.join(', ')} in this project`, choice: 'always' as const }] : []),
    { label: 'No, and tell assistant what to do differently', choice: 'deny' },
  ];
  // Refs as well as state: keys read in one chunk are handled before a re-render.
  const at = useRef(0);
  const [i, setIState] = useState(0);
  const setI = (f: (x: number) => number) => { at.current = f(at.current); setIState(at.current); };
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
      if (key.return) onAnswer({ kind: 'deny', feedback: fbRef.current });
      else if (key.escape) setFeedback(undefined);
      else if (key.backspace || key.delete) setFeedback((f) => (f ?? '').slice(0, -1));
      else if (input.includes('\r')) onAnswer({ kind: 'deny', feedback: (fbRef.current ?? '') + input.split('\r')[0] });
      else if (input && !key.ctrl && !key.meta) setFeedback((f) => (f ?? '') + input);
      return;
    }
    if (key.upArrow) setI((x) => (x + options.length - 1) % options.length);
    else if (key.downArrow || (key.tab && !key.shift)) setI((x) => (x + 1) % options.length);
    else if (key.return) pick(at.current);
    else if (key.escape || (key.ctrl && input === 'c')) onAnswer({ kind: 'interrupt' });
    else if (/^[1-9]$/.test(input) && Number(input) <= options.length) pick(Number(input) - 1);
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow">{HEADINGS[req.tool] ?? req.tool}</Text>
      <Box marginY={1}><Preview req={req} cwd={cwd} preview={preview} /></Box>
      <Text dimColor>{req.reason}</Text>
      <Text>Do you want to proceed?</Text>
      {/* A long option (many rules) wraps under its own text, not at the box's edge. */}
      {options.map((o, k) => (
        <Box key={o.choice}>
          <Text color={k === i ? 'cyan' : undefined}>{k === i ? '❯ ' : '  '}{k + 1}.</Text>
          <Box flexShrink={1} marginLeft={1}><Text color={k === i ? 'cyan' : undefined}>{o.label}</Text></Box>
        </Box>
      ))}
      {feedback !== undefined
        ? <Text>  What should assistant do instead? <Text color="cyan">{feedback}</Text>{CURSOR} <Text dimColor>(Enter to send)</Text></Text>
        : <Text dimColor>Esc to refuse and interrupt</Text>}
    </Box>
  );
}
