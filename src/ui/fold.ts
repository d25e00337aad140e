import { hunkLines } from '../fs/diff-text.ts';
import type { ToolResult } from '../agent/events.ts';
import { looksLikeDiff } from './components/diff-view.tsx';

/**
 * How many lines the history shows of each kind of tool output before folding the rest
 * (`… +N lines (ctrl+o to expand)`). Bash output folds at 5 lines whether the command succeeded,
 * failed or was interrupted; a failure's last line (its exit code, "interrupted") is shown under the fold.
 */
export const FOLD = { bash: 5, error: 6, diff: 24, denied: 4 } as const;

interface FoldableTool {
  name: string;
  status: 'ok' | 'error' | 'denied' | 'running';
  result?: ToolResult;
  reason?: string;
}

const lineCount = (s: string) => s.replace(/\n+$/, '').split('\n').length;

/** The diff lines a DiffView draws (the `\ No newline` markers left out). */
const diffLines = (diff: string) =>
  diff
    .split('\n')
    .filter((l) => !l.startsWith('\\'))
    .join('\n');

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
 * it is shown whole. Ctrl-O shows it (as Claude Code's Ctrl-O shows what was folded). Pure; the
 * limits are the ones ToolView folds at.
 */
export function foldedText(t: FoldableTool): string | undefined {
  const { result } = t;
  if (t.status === 'denied') return t.reason && lineCount(t.reason) > FOLD.denied ? t.reason : undefined;
  if (!result || t.status === 'running') return undefined;
  if (t.status === 'error') return lineCount(result.output) > (t.name === 'Bash' ? FOLD.bash + 1 : FOLD.error) ? result.output : undefined;
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

/** Terminal control sequences (colours, cursor moves, titles) and other control characters but tab. */
const CONTROL = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * The last `n` lines of a running command's output, as a terminal would leave them: a line
 * rewritten with `\r` (a progress bar) shows its last state, control sequences are dropped, a line
 * cut by the kept tail's start is left out. `hidden`: lines above them. `lines`: newlines seen in all.
 */
export function liveTail(out: { tail: string; lines: number }, n: number, cut: boolean): { shown: string[]; hidden: number } {
  const rows = out.tail.split('\n');
  if (cut) rows.shift();
  if (rows.at(-1) === '') rows.pop();
  const clean = rows.map((r) =>
    (
      r
        .split('\r')
        .filter((x) => x !== '')
        .at(-1) ?? ''
    )
      .replace(CONTROL, '')
      .replace(/\t/g, '  '),
  );
  const total = out.lines + (out.tail.endsWith('\n') || out.tail === '' ? 0 : 1);
  const shown = clean.slice(-n);
  return { shown, hidden: Math.max(0, total - shown.length) };
}
