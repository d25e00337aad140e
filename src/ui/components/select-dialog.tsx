import { useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { renderMarkdown } from '../markdown.ts';
import type { Choice } from '../state.ts';

/**
 * A question with a list to pick from: ↑/↓ or the number, Enter; Esc answers undefined. The ❯
 * starts on `initial` (the current value, for /mode) and moves to an option chosen by its number.
 */
export function SelectDialog({ title, body, options, onAnswer, width, initial = 0, markdown }: { title: string; body?: string; options: Array<Choice<string>>; onAnswer(v: string | undefined): void; width: number; initial?: number; markdown?: boolean }) {
  const first = Math.min(Math.max(0, initial), Math.max(0, options.length - 1));
  // A ref as well as state: keys read in one chunk ("Down Enter") are handled before a re-render.
  const at = useRef(first);
  const [i, setIState] = useState(first);
  const setI = (f: (x: number) => number) => { at.current = f(at.current); setIState(at.current); };
  useInput((input, key) => {
    if (key.upArrow) setI((x) => (x + options.length - 1) % options.length);
    else if (key.downArrow || key.tab) setI((x) => (x + 1) % options.length);
    else if (key.return) onAnswer(options[at.current]?.value);
    else if (key.escape || (key.ctrl && input === 'c')) onAnswer(undefined);
    else if (/^[1-9]$/.test(input) && Number(input) <= options.length) {
      setI(() => Number(input) - 1);
      onAnswer(options[at.current].value);
    }
  });
  const shown = options.length > 12 ? windowAround(options, i, 12) : options.map((o, k) => ({ o, k }));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold>{title}</Text>
      {body && <Box marginTop={1} flexDirection="column"><Text>{markdown ? renderMarkdown(body, width - 4) : body}</Text></Box>}
      <Box marginTop={1} flexDirection="column">
        {/* A long option wraps under its own text, not at the box's edge. */}
        {shown.map(({ o, k }) => (
          <Box key={k}>
            <Text color={k === i ? 'cyan' : undefined}>{k === i ? '❯ ' : '  '}{k + 1}.</Text>
            <Box flexShrink={1} marginLeft={1}><Text color={k === i ? 'cyan' : undefined}>{o.label}{o.hint && <Text dimColor>  {o.hint}</Text>}</Text></Box>
          </Box>
        ))}
      </Box>
      <Text dimColor>↑/↓ to choose · Enter to confirm · Esc to cancel</Text>
    </Box>
  );
}

function windowAround<T>(items: T[], at: number, size: number): Array<{ o: T; k: number }> {
  const start = Math.max(0, Math.min(items.length - size, at - Math.floor(size / 2)));
  return items.slice(start, start + size).map((o, j) => ({ o, k: start + j }));
}
