import { structuredPatch, type StructuredPatchHunk } from 'diff';

/** Lines of diff shown to the model before the rest is summarised. */
const MAX_DIFF_LINES = 80;

/** The line that stands for the diff lines left out of `FileDiff.text` (`… 12 more diff lines`). */
export const MORE_DIFF_LINES = /^… \d+ more diff lines$/;

export interface FileDiff {
  /** Claude Code's `structuredPatch` (hunks with `oldStart`, `oldLines`, `newStart`, `newLines`, `lines`). */
  hunks: StructuredPatchHunk[];
  /** The hunks as unified-diff text (no file headers), capped at MAX_DIFF_LINES: what the model reads. */
  text: string;
  /** Added and removed lines of the whole diff (not only of `text`). */
  added: number;
  removed: number;
}

/** Hunks as unified-diff lines without file headers: `@@ -a,b +c,d @@` and the hunk's lines. Whole, never capped. */
export function hunkLines(hunks: readonly Pick<StructuredPatchHunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines' | 'lines'>[]): string[] {
  const lines: string[] = [];
  for (const h of hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    lines.push(...h.lines);
  }
  return lines;
}

/** A unified diff of a change with `context` lines around each hunk. */
export function diffFiles(path: string, before: string, after: string, context = 3): FileDiff {
  const { hunks } = structuredPatch(path, path, before, after, undefined, undefined, { context });
  const lines = hunkLines(hunks);
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  let text = lines.slice(0, MAX_DIFF_LINES).join('\n');
  if (lines.length > MAX_DIFF_LINES) text += `\n… ${lines.length - MAX_DIFF_LINES} more diff lines`;
  return { hunks, text, added, removed };
}
