import { Box, Text } from 'ink';
import { MORE_DIFF_LINES } from '../../fs/diff-text.ts';

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

interface DiffRow {
  kind: 'add' | 'del' | 'ctx' | 'gap';
  no?: number;
  text: string;
}

/**
 * A unified diff as rows numbered like Claude Code's (the new file's line for context and
 * additions, the old file's for removals); a hunk header after the first becomes a `…` gap. A
 * fragment without hunk headers (a permission preview) has no numbers.
 */
export function diffRows(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo: number | undefined;
  let newNo: number | undefined;
  for (const l of diff.replace(/\n+$/, '').split('\n')) {
    if (l.startsWith('\\')) continue;
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      if (oldNo !== undefined) rows.push({ kind: 'gap', text: '…' });
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      continue;
    }
    // The line standing for what a capped diff left out (an older result's display): a gap.
    if (MORE_DIFF_LINES.test(l)) {
      rows.push({ kind: 'gap', text: l });
      continue;
    }
    const kind = l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx';
    rows.push({ kind, no: kind === 'del' ? oldNo : newNo, text: l.slice(1) });
    if (kind !== 'add' && oldNo !== undefined) oldNo++;
    if (kind !== 'del' && newNo !== undefined) newNo++;
  }
  return rows;
}

const SIGN = { add: '+', del: '-', ctx: ' ', gap: ' ' } as const;

/** What a fold says it hides, and how to see it (Ctrl-O, as in Claude Code). */
export const foldNote = (hidden: number) => `… +${hidden} line${hidden === 1 ? '' : 's'} (ctrl+o to expand)`;

/**
 * A unified diff, numbered and coloured: additions green, removals red; long diffs folded after
 * `maxLines` rows. `from`: the first row shown (a diff scrolled in the permission question), with
 * no fold note (the question says where the window is).
 */
export function DiffView({ diff, maxLines = 24, from }: { diff: string; maxLines?: number; from?: number }) {
  const rows = diffRows(diff);
  const width = Math.max(0, ...rows.map((r) => (r.no === undefined ? 0 : String(r.no).length)));
  const shown = rows.slice(from ?? 0, (from ?? 0) + maxLines);
  const hidden = from === undefined ? rows.length - shown.length : 0;
  return (
    <Box flexDirection="column">
      {shown.map((r, i) => {
        const line = width
          ? `${(r.no === undefined ? '' : String(r.no)).padStart(width)} ${SIGN[r.kind]} ${r.text}`
          : `${SIGN[r.kind]}${r.text}`;
        if (r.kind === 'gap') return <Text key={i} dimColor>{`${''.padStart(width)}   ${r.text}`}</Text>;
        if (r.kind === 'add')
          return (
            <Text key={i} color="green">
              {line}
            </Text>
          );
        if (r.kind === 'del')
          return (
            <Text key={i} color="red">
              {line}
            </Text>
          );
        return <Text key={i}>{line}</Text>;
      })}
      {hidden > 0 && <Text dimColor>{foldNote(hidden)}</Text>}
    </Box>
  );
}
