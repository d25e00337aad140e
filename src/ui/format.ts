import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import type { PermissionMode } from '../permissions/modes.ts';
export { oneLine, shortPath, toolTitle } from '../agent/tool-title.ts';

/** Pure text helpers for the terminal UI. */

export const MODE_LABELS: Record<PermissionMode, { icon: string; text: string }> = {
  normal: { icon: '⏵', text: 'normal mode' },
  'auto-accept': { icon: '⏵⏵', text: 'accept edits on' },
  plan: { icon: '⏸', text: 'plan mode on' },
  bypass: { icon: '⏵⏵', text: 'bypass permissions on' },
};

/** Shift+Tab: Normal → Auto-Accept → Plan → Normal (SPEC §5); Bypass joins only when the session began in it. */
export function nextMode(mode: PermissionMode, withBypass: boolean): PermissionMode {
  const cycle: PermissionMode[] = withBypass ? ['normal', 'auto-accept', 'plan', 'bypass'] : ['normal', 'auto-accept', 'plan'];
  const i = cycle.indexOf(mode);
  return cycle[(i + 1) % cycle.length];
}

/** Keeps the first `max` lines and says how many more there were (Bash output, long results). */
export function foldLines(text: string, max: number): { lines: string[]; hidden: number } {
  const all = text.replace(/\n+$/, '').split('\n');
  if (all.length <= max) return { lines: all, hidden: 0 };
  return { lines: all.slice(0, max), hidden: all.length - max };
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  return `${Math.floor(s / 60)}m ${Math.round(s % 60)}s`;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatCost(usd: number): string {
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/**
 * Fits preformatted text (a table, `Key:  value` lines) to `width` columns. A line too long
 * continues under its own column (a hanging indent): under the text after the first gap of two
 * or more spaces (`/clear    Start a fresh…`, `Transcript:  /long/path`), else under its first
 * word. Words are kept whole where they fit; a longer word (a path) is cut. Pure.
 */
export function wrapHanging(text: string, width: number): string {
  const w = Math.max(10, Math.floor(width));
  return text
    .split('\n')
    .map((line) => {
      if (stringWidth(line) <= w) return line;
      const column = /^(\s*\S.*?\s{2,})\S/.exec(line)?.[1].length;
      const lead = /^\s*/.exec(line)![0].length;
      // The column, if it leaves room for the text (20 columns, or a third of the width).
      const at = column !== undefined && w - column >= Math.min(20, w / 3) ? column : lead;
      const body = wrapAnsi(line.slice(at), w - at, { hard: true, trim: true, wordWrap: true }).split('\n');
      return body.map((b, i) => (i === 0 ? line.slice(0, at) : ' '.repeat(at)) + b).join('\n');
    })
    .join('\n');
}

/**
 * One `@path` attachment as the transcript shows it: `a.ts (3 lines)`, `a.ts:40-80 (lines 40-80)`,
 * `big.log (lines 1-2000 of 9000)`, `the listing of src/`. Read from the header the model gets.
 */
export function attachedLine(a: { ref: string; kind: 'file' | 'range' | 'directory' | 'image' | 'resource'; text: string }): string {
  const ref = a.ref.replace(/^@/, '');
  if (a.kind === 'resource') return `${ref} (MCP resource)`;
  if (a.kind === 'directory') return `the listing of ${ref.endsWith('/') ? ref : `${ref}/`}`;
  if (a.kind === 'image') return `${ref} (image: ${/\((.*)\) is attached/.exec(a.text)?.[1] ?? 'picture'})`;
  const m = /^Contents of .*? \(lines (\d+)-(\d+) of ([^)]+)\):/.exec(a.text);
  if (!m) return /\(the file is empty\)/.test(a.text.split('\n')[0]) ? `${ref} (empty)` : ref;
  const [, from, to, total] = m;
  if (a.kind === 'range' || from !== '1' || to !== total) return `${ref} (lines ${from}-${to}${a.kind === 'range' ? '' : ` of ${total}`})`;
  return `${ref} (${total} line${total === '1' ? '' : 's'})`;
}
