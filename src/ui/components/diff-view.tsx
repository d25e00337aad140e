import { Box, Text } from 'ink';
import { foldLines } from '../format.ts';

/** Counts of a unified diff's added and removed lines (not the `+++`/`---` headers). */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of diff.split('\n')) {
    if (l.startsWith('+') && !l.startsWith('+++')) added++;
    else if (l.startsWith('-') && !l.startsWith('---')) removed++;
  }
  return { added, removed };
}

export const looksLikeDiff = (s: string | undefined): s is string => !!s && /^@@ /.test(s);

/** A unified diff, coloured: additions green, removals red, hunk headers dim; long diffs folded. */
export function DiffView({ diff, maxLines = 24 }: { diff: string; maxLines?: number }) {
  const { lines, hidden } = foldLines(diff.split('\n').filter((l) => !l.startsWith('\\')).join('\n'), maxLines);
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => {
        if (l.startsWith('@@')) return <Text key={i} dimColor>{l}</Text>;
        if (l.startsWith('+')) return <Text key={i} color="green">{l}</Text>;
        if (l.startsWith('-')) return <Text key={i} color="red">{l}</Text>;
        return <Text key={i}>{l}</Text>;
      })}
      {hidden > 0 && <Text dimColor>… +{hidden} lines</Text>}
    </Box>
  );
}
