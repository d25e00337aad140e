import { hunkLines } from '../tools/diff-text.ts';
import type { ToolResult } from '../tools/types.ts';
import { looksLikeDiff } from './components/diff-view.tsx';
import type { HistoryItem, NewItem } from './state.ts';

/** How many lines the history shows of each kind of tool output before folding the rest (`… +N lines`). */
export const FOLD = { bash: 5, error: 6, bashError: 8, diff: 24, denied: 4 } as const;

export interface FoldableTool { name: string; status: 'ok' | 'error' | 'denied' | 'running'; result?: ToolResult; reason?: string }

const lineCount = (s: string) => s.replace(/\n+$/, '').split('\n').length;

/** The diff lines a DiffView draws (the `\ No newline` markers left out). */
export const diffLines = (diff: string) => diff.split('\n').filter((l) => !l.startsWith('\\')).join('\n');

type Hunk = Parameters<typeof hunkLines>[0][number];
const isHunk = (h: unknown): h is Hunk => {
  const x = h as Hunk;
  return !!x && typeof x.oldStart === 'number' && typeof x.newStart === 'number' && Array.isArray(x.lines);
};

/**
 * The whole diff of an Edit or Write, or undefined when the result is not a diff. `display` is
 * the diff the model read, cut at 80 lines; the structured patch (the `tool_response` hooks get)
 * is whole, so it is preferred. A replayed call has neither.
 */
export function editDiff(name: string, result: ToolResult | undefined): string | undefined {
  if (!result || (name !== 'Edit' && name !== 'Write') || !looksLikeDiff(result.display)) return undefined;
  const patch = (result.response as { structuredPatch?: unknown } | undefined)?.structuredPatch;
  if (Array.isArray(patch) && patch.length > 0 && patch.every(isHunk)) return hunkLines(patch).join('\n');
  return result.display;
}

/**
 * The whole text behind a tool call the history shows folded or summarised, or undefined when
 * it is shown whole. Ctrl-O prints it (as Claude Code's Ctrl-O shows what was folded). Pure; the
 * limits are the ones ToolView folds at.
 */
export function foldedText(t: FoldableTool): string | undefined {
  const { result } = t;
  if (t.status === 'denied') return t.reason && lineCount(t.reason) > FOLD.denied ? t.reason : undefined;
  if (!result || t.status === 'running') return undefined;
  if (t.status === 'error') return lineCount(result.output) > (t.name === 'Bash' ? FOLD.bashError : FOLD.error) ? result.output : undefined;
  const whole = editDiff(t.name, result);
  if (whole !== undefined) {
    const diff = diffLines(whole);
    return lineCount(diff) > FOLD.diff ? diff : undefined;
  }
  if (t.name === 'Bash') return lineCount(result.output) > FOLD.bash ? result.output : undefined;
  // Other tools show a one-line summary: their output is what is hidden.
  const shown = result.display ?? result.output.split('\n')[0];
  return result.output.trim() && result.output.trim() !== shown.trim() && lineCount(result.output) > 1 ? result.output : undefined;
}

/**
 * Ctrl-O: copies, to be shown whole, of the folded tool calls of the last prompt (everything
 * after the last prompt shown) that are not expanded yet. Empty when there is nothing to expand.
 */
export function toExpand(history: readonly HistoryItem[]): NewItem[] {
  const start = history.findLastIndex((i) => i.kind === 'user') + 1;
  const turn = history.slice(start);
  const done = new Set(turn.map((i) => (i.kind === 'tool' || i.kind === 'thinking' ? i.expandedFrom : undefined)));
  const out: NewItem[] = [];
  for (const i of turn) {
    if (i.kind === 'thinking' && i.expandedFrom === undefined && !done.has(i.id)) { out.push({ kind: 'thinking', text: i.text, expandedFrom: i.id }); continue; }
    if (i.kind !== 'tool' || i.expandedFrom !== undefined || done.has(i.id) || foldedText(i) === undefined) continue;
    const { id, ...rest } = i;
    out.push({ ...rest, expandedFrom: id });
  }
  return out;
}
