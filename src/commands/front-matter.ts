/**
 * A small front-matter reader for command files: the subset of YAML that command files use.
 * `key: value` lines, "double" or 'single' quoted values, block lists (`- item` lines under
 * `key:`), block scalars (`key: |` or `key: >` with indented lines), blank lines and `#` comment
 * lines. Flow lists (`[a, b]`) and everything else stay plain text for the schema to read. A `#`
 * after a value is part of the value (`description: Fix issue #12`). Never throws: what it cannot
 * read becomes a problem with its line.
 */
export type FrontValue = string | string[];
export interface FrontEntry { key: string; value: FrontValue; line: number }
export interface FrontProblem { line: number; message: string }
export interface FrontMatter {
  entries: FrontEntry[];
  body: string;
  problems: FrontProblem[];
}

const KEY_LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;
const LIST_ITEM = /^[ \t]+-(?:[ \t]+(.*)|[ \t]*)$|^-(?:[ \t]+(.*)|[ \t]*)$/;
const BLOCK_SCALAR = /^([|>])[+-]?$/;
const isFence = (line: string) => line.trimEnd() === '---';

/** Removes the quotes of a quoted scalar; a string when malformed. */
function scalar(raw: string): { value: string } | { error: string } {
  const s = raw.trim();
  if (s.startsWith('"')) {
    if (s.length < 2 || !s.endsWith('"') || s.endsWith('\\"') && !s.endsWith('\\\\"')) return { error: 'the quoted value has no closing "' };
    const map: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', '/': '/' };
    return { value: s.slice(1, -1).replace(/\\(.)/g, (_m, c: string) => map[c] ?? `\\${c}`) };
  }
  if (s.startsWith("'")) {
    if (s.length < 2 || !s.endsWith("'")) return { error: "the quoted value has no closing '" };
    return { value: s.slice(1, -1).replace(/''/g, "'") };
  }
  return { value: s };
}

export function parseFrontMatter(source: string): FrontMatter {
  const text = source.replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  if (!isFence(lines[0] ?? '')) return { entries: [], body: text, problems: [] };
  const end = lines.findIndex((l, i) => i > 0 && isFence(l));
  if (end < 0) {
    return {
      entries: [],
      body: text,
      problems: [{ line: 1, message: 'the front matter opened by "---" is never closed by a "---" line; the whole file is used as the prompt' }],
    };
  }
  const entries: FrontEntry[] = [];
  const problems: FrontProblem[] = [];
  const seen = new Map<string, number>();
  let i = 1;
  while (i < end) {
    const line = lines[i];
    const lineNo = i + 1;
    i++;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const m = KEY_LINE.exec(line);
    if (!m) {
      problems.push({ line: lineNo, message: `"${line.trim()}" is not "key: value"` });
      continue;
    }
    const key = m[1];
    const raw = (m[2] ?? '').trim();
    let value: FrontValue | undefined;
    if (raw === '') {
      const items: string[] = [];
      while (i < end) {
        const item = LIST_ITEM.exec(lines[i]);
        if (!item) break;
        const parsed = scalar(item[1] ?? item[2] ?? '');
        if ('error' in parsed) problems.push({ line: i + 1, message: `${key}: ${parsed.error}` });
        else if (parsed.value !== '') items.push(parsed.value);
        i++;
      }
      if (items.length) value = items;
    } else if (BLOCK_SCALAR.test(raw)) {
      const parts: string[] = [];
      while (i < end && (lines[i].trim() === '' || /^[ \t]/.test(lines[i]))) parts.push(lines[i++].trim());
      while (parts.length && parts[parts.length - 1] === '') parts.pop();
      value = raw.startsWith('|') ? parts.join('\n') : parts.join(' ').replace(/ {2,}/g, ' ');
    } else {
      const parsed = scalar(raw);
      if ('error' in parsed) {
        problems.push({ line: lineNo, message: `${key}: ${parsed.error}` });
        continue;
      }
      value = parsed.value;
    }
    if (value === undefined || value === '') continue; // `key:` with nothing is YAML's null: as if absent
    const before = seen.get(key);
    if (before !== undefined) problems.push({ line: lineNo, message: `"${key}" is also set on line ${before}; this later one is used` });
    seen.set(key, lineNo);
    const at = entries.findIndex((e) => e.key === key);
    if (at >= 0) entries.splice(at, 1);
    entries.push({ key, value, line: lineNo });
  }
  return { entries, body: lines.slice(end + 1).join('\n'), problems };
}
