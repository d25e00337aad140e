import stringWidth from 'string-width';
import { wellFormed } from '../agent/well-formed.ts';

/**
 * The input line's text and cursor, as pure functions: every edit returns a new buffer. Multi-line:
 * `text` may hold newlines; `cursor` is an index into `text` (0…length), always on a grapheme
 * boundary: moves and deletions step over whole user-perceived characters (an emoji with its skin
 * tone, a ZWJ family, a letter with its combining accents, a flag), never half of one, so the text
 * never holds a lone surrogate.
 */
export interface Buffer {
  text: string;
  cursor: number;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });

export const emptyBuffer = (): Buffer => ({ text: '', cursor: 0 });
export const bufferOf = (text: string): Buffer => {
  const clean = sanitize(text);
  return { text: clean, cursor: clean.length };
};

/** No lone surrogates in the input (agent/well-formed.ts). */
export const sanitize = wellFormed;

/** Where the line holding `i` starts: grapheme clusters never span a newline once \r\n is gone. */
const lineStartOf = (text: string, i: number) => text.lastIndexOf('\n', i - 1) + 1;

/** The grapheme boundary before `i` (i itself on a boundary). */
export function prevBoundary(text: string, i: number): number {
  if (i <= 0) return 0;
  const from = lineStartOf(text, i);
  if (from === i) return i - 1; // the newline before the line
  let last = from;
  for (const { index } of graphemes.segment(text.slice(from, i))) last = from + index;
  return last;
}

/** The grapheme boundary after `i`. */
export function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  if (text[i] === '\n') return i + 1;
  const end = text.indexOf('\n', i);
  const first = graphemes
    .segment(text.slice(i, end < 0 ? undefined : end))
    [Symbol.iterator]()
    .next();
  return first.done ? i + 1 : i + first.value.segment.length;
}

/** Typed or pasted text: newlines normalised, tabs as two spaces, control characters dropped. */
export function insert(b: Buffer, s: string): Buffer {
  const clean = sanitize(
    s
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '  ')
      .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, ''),
  );
  return { text: b.text.slice(0, b.cursor) + clean + b.text.slice(b.cursor), cursor: b.cursor + clean.length };
}

export function backspace(b: Buffer): Buffer {
  if (b.cursor === 0) return b;
  const at = prevBoundary(b.text, b.cursor);
  return { text: b.text.slice(0, at) + b.text.slice(b.cursor), cursor: at };
}

export function del(b: Buffer): Buffer {
  if (b.cursor >= b.text.length) return b;
  return { text: b.text.slice(0, b.cursor) + b.text.slice(nextBoundary(b.text, b.cursor)), cursor: b.cursor };
}

export const left = (b: Buffer): Buffer => ({ ...b, cursor: prevBoundary(b.text, b.cursor) });
export const right = (b: Buffer): Buffer => ({ ...b, cursor: nextBoundary(b.text, b.cursor) });

/** Line and column (in UTF-16 units) of the cursor. */
export function position(b: Buffer): { line: number; col: number; lines: string[] } {
  const lines = b.text.split('\n');
  let rest = b.cursor;
  for (let i = 0; i < lines.length; i++) {
    if (rest <= lines[i].length) return { line: i, col: rest, lines };
    rest -= lines[i].length + 1;
  }
  return { line: lines.length - 1, col: lines.at(-1)!.length, lines };
}

function indexOf(lines: string[], line: number, col: number): number {
  let i = 0;
  for (let l = 0; l < line; l++) i += lines[l].length + 1;
  return i + Math.min(col, lines[line].length);
}

export function lineStart(b: Buffer): Buffer {
  const p = position(b);
  return { ...b, cursor: indexOf(p.lines, p.line, 0) };
}

export function lineEnd(b: Buffer): Buffer {
  const p = position(b);
  return { ...b, cursor: indexOf(p.lines, p.line, Infinity) };
}

/** One row of the input box: `text.slice(start, end)`; `first` when it starts a line of the text. */
interface Row {
  start: number;
  end: number;
  first: boolean;
}

const isSpace = (g: string) => /^\s+$/.test(g);

/**
 * The text wrapped into rows of at most `width` columns, by grapheme and by display width (a CJK
 * character or an emoji takes two): a line breaks after the last space that fits, or inside a word
 * longer than the row. The last column is kept for the caret; a space reaching it stays on its row.
 */
export function layout(text: string, width: number): Row[] {
  const limit = Math.max(1, Math.floor(width) - 1);
  const rows: Row[] = [];
  let base = 0;
  for (const line of text.split('\n')) {
    let start = 0;
    let col = 0;
    let lastBreak = -1;
    let first = true;
    const push = (end: number) => {
      rows.push({ start: base + start, end: base + end, first });
      first = false;
      start = end;
    };
    for (const { segment: g, index: i } of graphemes.segment(line)) {
      const w = stringWidth(g);
      if (col > 0 && col + w > limit) {
        if (isSpace(g)) {
          push(i + g.length);
          col = 0;
          lastBreak = -1;
          continue;
        }
        const cut = lastBreak > start ? lastBreak : i;
        push(cut);
        col = stringWidth(line.slice(cut, i));
        lastBreak = -1;
      }
      col += w;
      if (isSpace(g)) lastBreak = i + g.length;
    }
    push(line.length);
    base += line.length + 1;
  }
  return rows;
}

/** The row the cursor is drawn on and its column there (the start of the next row at a wrap). */
export function caret(rows: Row[], text: string, cursor: number): { row: number; col: number } {
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k];
    const lastOfLine = k === rows.length - 1 || rows[k + 1].first;
    if (cursor >= r.start && (cursor < r.end || (cursor === r.end && lastOfLine)))
      return { row: k, col: stringWidth(text.slice(r.start, cursor)) };
  }
  return { row: rows.length - 1, col: 0 };
}

/** The index in row `k` nearest to column `col` (never past a wrapped row's end, which is the next row's start). */
function indexAtColumn(rows: Row[], text: string, k: number, col: number): number {
  const r = rows[k];
  const lastOfLine = k === rows.length - 1 || rows[k + 1].first;
  let at = r.start;
  let used = 0;
  for (const { segment: g } of graphemes.segment(text.slice(r.start, r.end))) {
    const w = stringWidth(g);
    if (used + w > col) break;
    if (!lastOfLine && at + g.length === r.end) break;
    used += w;
    at += g.length;
  }
  return at;
}

/**
 * Moves up a row of the box (a wrapped line's rows count, at `width` columns); undefined when
 * already on the first row (↑ then walks the history).
 */
export function up(b: Buffer, width = Infinity): Buffer | undefined {
  const rows = layout(b.text, width);
  const c = caret(rows, b.text, b.cursor);
  if (c.row === 0) return undefined;
  return { ...b, cursor: indexAtColumn(rows, b.text, c.row - 1, c.col) };
}

/** Moves down a row of the box; undefined when already on the last row. */
export function down(b: Buffer, width = Infinity): Buffer | undefined {
  const rows = layout(b.text, width);
  const c = caret(rows, b.text, b.cursor);
  if (c.row >= rows.length - 1) return undefined;
  return { ...b, cursor: indexAtColumn(rows, b.text, c.row + 1, c.col) };
}

/** Ctrl-U: deletes from the start of the line to the cursor. */
export function killToStart(b: Buffer): Buffer {
  const start = lineStart(b).cursor;
  return { text: b.text.slice(0, start) + b.text.slice(b.cursor), cursor: start };
}

/** Ctrl-K: deletes from the cursor to the end of the line. */
export function killToEnd(b: Buffer): Buffer {
  const end = lineEnd(b).cursor;
  return { text: b.text.slice(0, b.cursor) + b.text.slice(end), cursor: b.cursor };
}

/** Scripts written without spaces between words: a word there is what the word segmenter finds. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * Ctrl-W / Meta-Backspace: deletes the word before the cursor (and the spaces after it). A word
 * ends at whitespace; in Chinese or Japanese text, at the word the segmenter finds (你好世界 → 世界).
 */
export function deleteWord(b: Buffer): Buffer {
  const before = b.text.slice(0, b.cursor);
  const m = /(\S+\s*|\s+)$/.exec(before);
  let start = m ? before.length - m[0].length : 0;
  const run = before.slice(start).trimEnd();
  if (UNSPACED.test(run)) {
    const last = [...words.segment(run)].at(-1);
    if (last) start += last.index;
  }
  return { text: before.slice(0, start) + b.text.slice(b.cursor), cursor: start };
}

/** The word under the cursor (up to it), with where it starts: the thing Tab completes. */
export function currentToken(b: Buffer): { token: string; start: number } {
  const before = b.text.slice(0, b.cursor);
  const m = /(?:^|\s)(\S*)$/.exec(before);
  const token = m ? m[1] : '';
  return { token, start: b.cursor - token.length };
}

export function replaceToken(b: Buffer, start: number, replacement: string): Buffer {
  return { text: b.text.slice(0, start) + replacement + b.text.slice(b.cursor), cursor: start + replacement.length };
}
