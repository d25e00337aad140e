import { structuredPatch, type StructuredPatchHunk } from 'diff';
import { matchEdit, replaceAt } from './edit-match.ts';

/** Lines of diff shown to the model before the rest is summarised. */
const MAX_DIFF_LINES = 80;

/** The line that stands for the diff lines left out of `FileDiff.text` (`… 12 more diff lines`). */
export const MORE_DIFF_LINES = /^\u2026 \d+ more diff lines$/;

interface FileDiff {
  /** Claude Code's `structuredPatch` (hunks with `oldStart`, `oldLines`, `newStart`, `newLines`, `lines`). */
  hunks: StructuredPatchHunk[];
  /** The hunks as unified-diff text (no file headers), capped at MAX_DIFF_LINES: what the model reads. */
  text: string;
  /** Added and removed lines of the whole diff (not only of `text`). */
  added: number;
  removed: number;
}

/** Hunks as unified-diff lines without file headers: `@@ -a,b +c,d @@` and the hunk's lines. Whole, never capped. */
export function hunkLines(
  hunks: readonly Pick<StructuredPatchHunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines' | 'lines'>[],
): string[] {
  const lines: string[] = [];
  for (const h of hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) lines.push(l); // not push(...): a hunk of a big file has more lines than the stack takes arguments
  }
  return lines;
}

/** How long a line-by-line diff may take before the change is shown as one hunk instead. */
const DIFF_TIMEOUT_MS = 1000;

type Hunk = StructuredPatchHunk;

/**
 * The change as one hunk: the lines both texts share at the start and the end are context, all
 * between is removed and added. What a diff that took too long (every line of a big file changed)
 * falls back to: linear time, still a correct patch.
 */
export function oneHunk(before: string, after: string, context: number): Hunk[] {
  const split = (t: string) => {
    const l = t.split('\n');
    const eol = t.endsWith('\n') || t === '';
    if (eol) l.pop();
    return { l, eol };
  };
  const a = split(before);
  const b = split(after);
  // The last line counts as different when only one of the texts ends it with a newline.
  const same = (i: number, j: number) =>
    a.l[i] === b.l[j] && (i === a.l.length - 1) === (j === b.l.length - 1) && (i !== a.l.length - 1 || a.eol === b.eol);
  let p = 0;
  while (p < a.l.length && p < b.l.length && same(p, p)) p++;
  let s = 0;
  while (s < a.l.length - p && s < b.l.length - p && same(a.l.length - 1 - s, b.l.length - 1 - s)) s++;
  if (p === a.l.length && p === b.l.length) return [];
  const start = Math.max(0, p - context);
  const tail = Math.min(s, context);
  const oldEnd = a.l.length - s + tail;
  const newEnd = b.l.length - s + tail;
  const noEol = '\\ No newline at end of file';
  const lines: string[] = a.l.slice(start, p).map((l) => ` ${l}`);
  for (const l of a.l.slice(p, a.l.length - s)) lines.push(`-${l}`);
  if (!a.eol && s === 0 && a.l.length > p) lines.push(noEol);
  for (const l of b.l.slice(p, b.l.length - s)) lines.push(`+${l}`);
  if (!b.eol && s === 0 && b.l.length > p) lines.push(noEol);
  for (const l of a.l.slice(a.l.length - s, oldEnd)) lines.push(` ${l}`);
  if (!a.eol && s > 0 && tail === s) lines.push(noEol);
  const oldLines = oldEnd - start;
  const newLines = newEnd - start;
  return [
    {
      oldStart: oldLines === 0 && start > 0 ? start : start + 1,
      oldLines,
      newStart: newLines === 0 && start > 0 ? start : start + 1,
      newLines,
      lines,
    },
  ];
}

/** A unified diff of a change with `context` lines around each hunk. */
export function diffFiles(path: string, before: string, after: string, context = 3): FileDiff {
  const patch = structuredPatch(path, path, before, after, undefined, undefined, { context, timeout: DIFF_TIMEOUT_MS });
  const hunks = patch ? patch.hunks : oneHunk(before, after, context);
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

/**
 * The file's text after an Edit, worked out as the Edit tool does it (old_string once, or every
 * occurrence with replace_all; LF strings matched in a CRLF file; an empty old_string only on a
 * missing or empty file), or undefined when the tool would refuse. `original`: null for a missing file.
 */
export function editedText(original: string | null, oldString: string, newString: string, replaceAll = false): string | undefined {
  if (oldString === newString) return undefined;
  if (original === null || oldString === '') return oldString === '' && !original ? newString : undefined;
  const { starts, oldS, newS } = matchEdit(original, oldString, newString);
  if (starts.length === 0 || (starts.length > 1 && !replaceAll)) return undefined;
  return replaceAt(original, starts, oldS.length, newS);
}

/**
 * The change an Edit or Write will make, as unified-diff lines with hunk headers (`context` lines
 * around each hunk, the file's line numbers): what the permission question previews. Pure: the
 * caller reads the file (`original`, null when it does not exist). Undefined when there is no
 * such change to show (the Edit would fail, the input is malformed, nothing changes).
 */
export function previewPatch(tool: string, input: Record<string, unknown>, original: string | null, context = 3): string | undefined {
  let after: string | undefined;
  if (tool === 'Edit' && typeof input.old_string === 'string' && typeof input.new_string === 'string') {
    after = editedText(original, input.old_string, input.new_string, input.replace_all === true);
  } else if (tool === 'Write' && typeof input.content === 'string') {
    after = input.content;
  }
  if (after === undefined) return undefined;
  const lines = hunkLines(diffFiles(String(input.file_path ?? ''), original ?? '', after, context).hunks);
  return lines.length ? lines.join('\n') : undefined;
}
