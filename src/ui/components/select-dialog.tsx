import { useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { prevBoundary } from '../editor.ts';
import { renderMarkdown } from '../markdown.ts';
import type { Choice } from '../state.ts';

/** The options whose label or hint holds `filter` (any case), with their place in the whole list. Pure. */
function filterOptions<T>(options: Array<Choice<T>>, filter: string): Array<{ o: Choice<T>; k: number }> {
  const all = options.map((o, k) => ({ o, k }));
  const f = filter.trim().toLowerCase();
  return f ? all.filter(({ o }) => `${o.label} ${o.hint ?? ''}`.toLowerCase().includes(f)) : all;
}

/**
 * A question with a list to pick from: ↑/↓ or the number, Enter; Esc answers undefined. The ❯
 * starts on `initial` (the current value, for /mode) and moves to an option chosen by its number.
 * Typing filters the list (shown under it, so what is typed is never lost on a hidden input):
 * Backspace edits the filter, Esc clears it, then cancels; while it is set, digits filter too.
 */
export function SelectDialog({
  title,
  body,
  options,
  onAnswer,
  width,
  initial = 0,
  markdown,
}: {
  title: string;
  body?: string;
  options: Array<Choice<string>>;
  onAnswer(v: string | undefined): void;
  width: number;
  initial?: number;
  markdown?: boolean;
}) {
  const first = Math.min(Math.max(0, initial), Math.max(0, options.length - 1));
  // Refs as well as state: keys read in one chunk ("Down Enter") are handled before a re-render.
  const at = useRef(first);
  const [i, setIState] = useState(first);
  const setI = (f: (x: number) => number) => {
    at.current = f(at.current);
    setIState(at.current);
  };
  const filterRef = useRef('');
  const [filter, setFilterState] = useState('');
  const setFilter = (f: string) => {
    filterRef.current = f;
    setFilterState(f);
    setI(() => 0);
  };
  const visible = () => filterOptions(options, filterRef.current);
  useInput((input, key) => {
    const list = visible();
    const n = Math.max(1, list.length);
    if (key.upArrow) setI((x) => (x + n - 1) % n);
    else if (key.downArrow || key.tab) setI((x) => (x + 1) % n);
    else if (key.return) {
      if (list[at.current]) onAnswer(list[at.current].o.value);
    } else if (key.escape && filterRef.current) setFilter('');
    else if (key.escape || (key.ctrl && input === 'c')) onAnswer(undefined);
    else if (key.backspace || key.delete) setFilter(filterRef.current.slice(0, prevBoundary(filterRef.current, filterRef.current.length)));
    else if (!filterRef.current && /^[1-9]$/.test(input) && Number(input) <= options.length) {
      setI(() => Number(input) - 1);
      onAnswer(options[Number(input) - 1].value);
    } else if (input && !key.ctrl && !key.meta && !/[\x00-\x1f]/.test(input)) setFilter(filterRef.current + input);
  });
  const list = filterOptions(options, filter);
  const shown = list.length > 12 ? windowAround(list, i, 12) : list.map((e, j) => ({ ...e, j }));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold>{title}</Text>
      {body && (
        <Box marginTop={1} flexDirection="column">
          <Text>{markdown ? renderMarkdown(body, width - 4) : body}</Text>
        </Box>
      )}
      <Box marginTop={1} flexDirection="column">
        {/* A long option wraps under its own text, not at the box's edge. */}
        {shown.map(({ o, k, j }) => (
          <Box key={k}>
            <Text color={j === i ? 'cyan' : undefined}>
              {j === i ? '❯ ' : '  '}
              {k + 1}.
            </Text>
            <Box flexShrink={1} marginLeft={1}>
              <Text color={j === i ? 'cyan' : undefined}>
                {o.label}
                {o.hint && <Text dimColor> {o.hint}</Text>}
              </Text>
            </Box>
          </Box>
        ))}
        {list.length === 0 && <Text dimColor> No option matches.</Text>}
      </Box>
      {filter && (
        <Text>
          Filter: <Text color="cyan">{filter}</Text> <Text dimColor>(Backspace to edit, Esc to clear)</Text>
        </Text>
      )}
      <Text dimColor>↑/↓ to choose · Enter to confirm · type to filter · Esc to cancel</Text>
    </Box>
  );
}

function windowAround<T>(items: Array<{ o: T; k: number }>, at: number, size: number): Array<{ o: T; k: number; j: number }> {
  const start = Math.max(0, Math.min(items.length - size, at - Math.floor(size / 2)));
  return items.slice(start, start + size).map((e, d) => ({ ...e, j: start + d }));
}
