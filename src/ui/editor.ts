/**
 * The input line's text and cursor, as pure functions: every edit returns a new buffer. Multi-line:
 * `text` may hold newlines; `cursor` is an index into `text` (0…length).
 */
export interface Buffer { text: string; cursor: number }

export const emptyBuffer = (): Buffer => ({ text: '', cursor: 0 });
export const bufferOf = (text: string): Buffer => ({ text, cursor: text.length });

export function insert(b: Buffer, s: string): Buffer {
  const clean = s.replace(/\r\n?/g, '\n').replace(/\t/g, '  ');
  return { text: b.text.slice(0, b.cursor) + clean + b.text.slice(b.cursor), cursor: b.cursor + clean.length };
}

export function backspace(b: Buffer): Buffer {
  if (b.cursor === 0) return b;
  return { text: b.text.slice(0, b.cursor - 1) + b.text.slice(b.cursor), cursor: b.cursor - 1 };
}

export function del(b: Buffer): Buffer {
  if (b.cursor >= b.text.length) return b;
  return { text: b.text.slice(0, b.cursor) + b.text.slice(b.cursor + 1), cursor: b.cursor };
}

export const left = (b: Buffer): Buffer => ({ ...b, cursor: Math.max(0, b.cursor - 1) });
export const right = (b: Buffer): Buffer => ({ ...b, cursor: Math.min(b.text.length, b.cursor + 1) });

/** Line and column of the cursor. */
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

/** Moves up a line; undefined when already on the first line (↑ then walks the history). */
export function up(b: Buffer): Buffer | undefined {
  const p = position(b);
  if (p.line === 0) return undefined;
  return { ...b, cursor: indexOf(p.lines, p.line - 1, p.col) };
}

/** Moves down a line; undefined when already on the last line. */
export function down(b: Buffer): Buffer | undefined {
  const p = position(b);
  if (p.line >= p.lines.length - 1) return undefined;
  return { ...b, cursor: indexOf(p.lines, p.line + 1, p.col) };
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

/** Ctrl-W / Meta-Backspace: deletes the word before the cursor. */
export function deleteWord(b: Buffer): Buffer {
  const before = b.text.slice(0, b.cursor);
  const m = /(\S+\s*|\s+)$/.exec(before);
  const start = m ? before.length - m[0].length : 0;
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
