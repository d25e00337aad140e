/**
 * Where Markdown puts code: fenced blocks (``` or ~~~) and inline code spans. `@path` inside them
 * is text, not a reference or an import. Close to CommonMark: an unclosed fence runs to the end,
 * a backtick run without a matching run of the same length is literal, and a code span does not
 * cross a blank line (so one stray backtick in a prompt cannot hide the rest of it).
 */

/** Half-open [start, end) offsets of code, in order. */
type CodeRanges = Array<[number, number]>;

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

interface Line {
  start: number;
  end: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    out.push({ start, end, text: text.slice(start, end) });
    if (nl === -1) return out;
    start = nl + 1;
  }
}

function spansIn(text: string, from: number, to: number, out: CodeRanges): void {
  let i = from;
  while (i < to) {
    const open = text.indexOf('`', i);
    if (open === -1 || open >= to) return;
    let n = 0;
    while (text[open + n] === '`') n++;
    let j = open + n;
    let close = -1;
    while (j < to) {
      const k = text.indexOf('`', j);
      if (k === -1 || k >= to) break;
      let m = 0;
      while (text[k + m] === '`') m++;
      if (m === n) {
        close = k;
        break;
      }
      j = k + m;
    }
    if (close === -1) {
      i = open + n;
      continue;
    }
    out.push([open, close + n]);
    i = close + n;
  }
}

export function codeRanges(text: string): CodeRanges {
  const out: CodeRanges = [];
  const lines = linesOf(text);
  let para = -1; // start offset of the current run of prose lines, or -1
  const endPara = (end: number) => {
    if (para !== -1) spansIn(text, para, end, out);
    para = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE_OPEN.exec(line.text);
    if (fence && !(fence[1][0] === '`' && line.text.slice(fence[0].length).includes('`'))) {
      endPara(line.start);
      const ch = fence[1][0];
      const close = new RegExp(`^ {0,3}${ch === '`' ? '`' : '~'}{${fence[1].length},}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j].text)) j++;
      const last = lines[Math.min(j, lines.length - 1)];
      out.push([line.start, last.end]);
      i = j;
      continue;
    }
    if (line.text.trim() === '') endPara(line.start);
    else if (para === -1) para = line.start;
  }
  endPara(text.length);
  return out.sort((a, b) => a[0] - b[0]);
}

export function inCode(ranges: CodeRanges, offset: number): boolean {
  for (const [s, e] of ranges) {
    if (offset < s) return false;
    if (offset < e) return true;
  }
  return false;
}
