import { open } from 'node:fs/promises';

const MAX_LINE_CHARS = 2000;

export interface Page {
  /** The page's lines: trailing `\r` removed, long lines cut to MAX_LINE_CHARS (see `cut`). */
  lines: string[];
  /** Indexes (into `lines`) of lines that were cut. */
  cut: Set<number>;
  /** Lines in the whole file; a lower bound when `counted` is false. */
  totalLines: number;
  /** False when counting stopped early in a huge file. */
  counted: boolean;
}

/** Lines of a text, as `cat` counts them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function clean(line: string, cut: Set<number>, index: number): string {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.length > MAX_LINE_CHARS) {
    cut.add(index);
    return line.slice(0, MAX_LINE_CHARS);
  }
  return line;
}

/** A page of an in-memory text: lines [first, first + limit), 0-based. */
export function pageOfText(text: string, first: number, limit: number): Page {
  const all = splitLines(text);
  const cut = new Set<number>();
  const lines = all.slice(first, first + limit).map((l, i) => clean(l, cut, i));
  return { lines, cut, totalLines: all.length, counted: true };
}

/**
 * A page of a file read in 64 KB chunks: memory stays bounded whatever the file's size or line
 * length. Lines after the page are only counted, and counting stops after `countLimitBytes`.
 */
export async function pageOfFile(
  path: string,
  first: number,
  limit: number,
  signal: AbortSignal,
  countLimitBytes = 512 * 1024 * 1024,
  decode: (line: Buffer) => string = (b) => b.toString('utf8'),
): Promise<Page> {
  const fh = await open(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 16);
  const maxLineBytes = MAX_LINE_CHARS * 4 + 4;
  const end = first + limit;
  const lines: string[] = [];
  const cut = new Set<number>();
  let lineNo = 0; // index of the line being read
  let parts: Buffer[] = [];
  let partBytes = 0;
  let lineOverflow = false;
  let lastByte = -1;
  let bytes = 0;
  let counted = true;

  const finishLine = () => {
    if (lineNo >= first && lineNo < end) {
      const text = decode(Buffer.concat(parts));
      const index = lines.length;
      lines.push(clean(text, cut, index));
      if (lineOverflow) cut.add(index);
    }
    parts = [];
    partBytes = 0;
    lineOverflow = false;
    lineNo++;
  };

  try {
    for (;;) {
      signal.throwIfAborted();
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      bytes += bytesRead;
      lastByte = chunk[bytesRead - 1];
      let pos = 0;
      while (pos < bytesRead) {
        if (lineNo >= end) {
          // Past the page: just count newlines.
          for (let nl = chunk.indexOf(10, pos); nl !== -1; nl = chunk.indexOf(10, nl + 1)) lineNo++;
          break;
        }
        const nl = chunk.indexOf(10, pos);
        const stop = nl === -1 ? bytesRead : nl;
        if (lineNo >= first && partBytes < maxLineBytes) {
          const take = Math.min(stop - pos, maxLineBytes - partBytes);
          parts.push(Buffer.from(chunk.subarray(pos, pos + take)));
          partBytes += take;
          if (take < stop - pos) lineOverflow = true;
        } else if (lineNo >= first && stop > pos) {
          lineOverflow = true;
        }
        if (nl === -1) break;
        finishLine();
        pos = nl + 1;
      }
      if (lineNo >= end && bytes > countLimitBytes) {
        counted = false;
        break;
      }
    }
    // An unterminated last line still counts.
    if (lastByte !== -1 && lastByte !== 10 && counted) {
      if (lineNo < end) finishLine();
      else lineNo++;
    }
  } finally {
    await fh.close();
  }
  return { lines, cut, totalLines: lineNo, counted };
}

/**
 * Rows numbered as Read shows them (`cat -n`: the number right-aligned to 6, a tab, the line),
 * stopping before the output passes `max` — counted in characters, or in UTF-8 bytes.
 */
export function numberedRows(
  page: Page,
  startLine: number,
  max: number,
  unit: 'chars' | 'bytes' = 'chars',
): { text: string; shown: number } {
  const rows: string[] = [];
  let used = 0;
  for (let i = 0; i < page.lines.length; i++) {
    let line = page.lines[i];
    if (i === 0 && startLine === 1 && line.startsWith('\uFEFF')) line = line.slice(1);
    const row = `${String(startLine + i).padStart(6)}\t${line}${page.cut.has(i) ? ' … [line truncated]' : ''}`;
    const size = (unit === 'bytes' ? Buffer.byteLength(row) : row.length) + 1;
    if (i > 0 && used + size > max) break;
    rows.push(row);
    used += size;
  }
  return { text: rows.join('\n'), shown: rows.length };
}
