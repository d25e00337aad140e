import { structuredPatch, type StructuredPatchHunk } from 'diff';

/** Lines of diff shown to the model or the user before the rest is summarised. */
const MAX_DIFF_LINES = 80;

export interface FileDiff {
  /** Claude Code's `structuredPatch` (hunks with `oldStart`, `oldLines`, `newStart`, `newLines`, `lines`). */
  hunks: StructuredPatchHunk[];
  /** The hunks as unified-diff text (no file headers), capped at MAX_DIFF_LINES. */
  text: string;
  added: number;
  removed: number;
}

/** A unified diff of a change with `context` lines around each hunk. */
export function diffFiles(path: string, before: string, after: string, context = 3): FileDiff {
  const { hunks } = structuredPatch(path, path, before, after, undefined, undefined, { context });
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) {
      lines.push(l);
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  let text = lines.slice(0, MAX_DIFF_LINES).join('\n');
  if (lines.length > MAX_DIFF_LINES) text += `\n… ${lines.length - MAX_DIFF_LINES} more diff lines`;
  return { hunks, text, added, removed };
}
