/** Non-overlapping occurrences of `needle` in `text`, as start offsets. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/**
 * Where `oldString` occurs in `original`, and the strings to replace with. A CRLF file edited with
 * LF strings is matched and written in the file's own line endings.
 */
export function matchEdit(original: string, oldString: string, newString: string): { starts: number[]; oldS: string; newS: string } {
  const starts = occurrences(original, oldString);
  if (starts.length === 0 && original.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    const oldS = oldString.replace(/\n/g, '\r\n');
    return { starts: occurrences(original, oldS), oldS, newS: newString.replace(/\r?\n/g, '\r\n') };
  }
  return { starts, oldS: oldString, newS: newString };
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Replaces the given occurrences (from `occurrences`) of a needle of length `len`. */
export function replaceAt(text: string, starts: number[], len: number, replacement: string): string {
  let out = '';
  let from = 0;
  for (const s of starts) {
    out += text.slice(from, s) + replacement;
    from = s + len;
  }
  return out + text.slice(from);
}

const normaliseLine = (line: string) =>
  line
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Where `needle` would match `text` if whitespace (indentation, tabs, trailing spaces) and curly
 * quotes were ignored, line by line: the 1-based line range of the first such match, or undefined.
 */
export function looseMatch(text: string, needle: string): { from: number; to: number } | undefined {
  const want = needle.split('\n').map(normaliseLine);
  while (want.length > 1 && want[0] === '') want.shift();
  while (want.length > 1 && want[want.length - 1] === '') want.pop();
  if (want.every((l) => l === '')) return undefined;
  const have = text.split('\n').map(normaliseLine);
  for (let i = 0; i + want.length <= have.length; i++) {
    let ok = true;
    for (let j = 0; j < want.length && ok; j++) {
      // The first and last lines of old_string may be partial lines.
      if (want.length === 1) ok = have[i].includes(want[0]);
      else if (j === 0) ok = have[i].endsWith(want[0]);
      else if (j === want.length - 1) ok = have[i + j].startsWith(want[j]);
      else ok = have[i + j] === want[j];
    }
    if (ok) return { from: i + 1, to: i + want.length };
  }
  return undefined;
}
