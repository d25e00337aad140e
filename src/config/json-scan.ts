import { lineColumn } from './errors.ts';

/** The first syntax error of a JSON text: where it is, what it is, and how to fix it. */
export interface JsonSyntaxError { offset: number; problem: string; fix: string }

export type JsonPath = ReadonlyArray<string | number>;

export interface JsonScan {
  error?: JsonSyntaxError;
  /** Where each member's key (or each array element) is written, by `pathKey(path)`. */
  positions: Map<string, number>;
  /** Keys written twice in one object: JSON.parse keeps the last, silently. */
  duplicates: Array<{ path: JsonPath; offset: number }>;
}

export const pathKey = (path: ReadonlyArray<PropertyKey>): string => JSON.stringify(path.map((p) => (typeof p === 'number' ? p : String(p))));

class Stop {
  constructor(readonly error: JsonSyntaxError) {}
}

const VALUE_FIX = 'a value is a "string" in double quotes, a number, true, false, null, an object { … } or a list [ … ]';
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function describe(c: string): string {
  if (c === '\uFEFF') return 'a byte-order mark (U+FEFF)';
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
}

/**
 * Scans a JSON text strictly (RFC 8259). Never throws. V8's JSON.parse often gives no position
 * ("Unexpected token '/', … is not valid JSON"), so this finds the first offending character
 * itself, and names the common hand-written mistakes: comments, single quotes, unquoted keys,
 * trailing commas, a missing comma, Windows paths with single backslashes.
 */
export function scanJson(text: string): JsonScan {
  const positions = new Map<string, number>();
  const duplicates: JsonScan['duplicates'] = [];
  let i = 0;
  const fail = (offset: number, problem: string, fix: string): never => { throw new Stop({ offset, problem, fix }); };
  const at = (offset: number) => { const { line, column } = lineColumn(text, offset); return `${line}:${column}`; };

  const space = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
      if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
        fail(i, 'a comment', 'JSON allows no comments: delete it (settings files are plain JSON, not JSONC)');
      }
      return;
    }
  };

  const word = (): string => /[A-Za-z_$][\w$]*/y.exec(text.slice(i, i + 64))?.[0] ?? '';

  const string = (): string => {
    const start = i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail(start, 'a string that is never closed', 'add the closing double quote "');
      if (c === '"') { i++; return JSON.parse(text.slice(start, i)) as string; }
      if (c === '\n' || c === '\r') fail(start, 'a string that is not closed on its line', 'close it with " (a line break inside a string is written \\n)');
      if (c < ' ') fail(i, `${describe(c)} inside a string`, c === '\t' ? 'write a tab as \\t' : 'remove it, or write it as a \\u escape');
      if (c === '\\') {
        const n = text[i + 1];
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i, 'a \\u escape without four hex digits', 'write \\u followed by four hex digits, e.g. \\u00e9');
          i += 6;
          continue;
        }
        if (n === undefined || !'"\\/bfnrt'.includes(n)) {
          fail(i, `the escape "\\${n ?? ''}" (a single backslash)`, 'write a backslash as \\\\ (e.g. "C:\\\\Users\\\\me"), or use forward slashes');
        }
        i += 2;
        continue;
      }
      i++;
    }
  };

  const value = (path: JsonPath): void => {
    space();
    const c = text[i];
    if (c === '{') return object(path);
    if (c === '[') return array(path);
    if (c === '"') { string(); return; }
    if (c === "'") fail(i, 'a string in single quotes', 'use double quotes: JSON strings are written "like this"');
    if (c === undefined) fail(i, 'the text ends where a value should be', 'add the value, or remove what leads to it');
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m && !/[\w.]/.test(text[i + m[0].length] ?? '')) { i += m[0].length; return; }
      fail(i, 'a malformed number', 'write numbers like 30, 0.5 or -1 (no leading zeros, hex, or trailing dot)');
    }
    if (c === '+' || c === '.') fail(i, 'a malformed number', 'write numbers like 30, 0.5 or -1 (no leading + or .)');
    const w = word();
    if (w === 'true' || w === 'false' || w === 'null') { i += w.length; return; }
    if (w) {
      const lower = w.toLowerCase();
      const fix = lower === 'true' || lower === 'false' || lower === 'null' ? `write it in lower case: ${lower}`
        : lower === 'none' ? 'write null'
          : w === 'undefined' ? 'JSON has no undefined: remove the key, or write null'
            : w === 'NaN' || w === 'Infinity' ? 'JSON has no NaN or Infinity: write a number'
              : `if it is text, put it in double quotes: "${w}" (${VALUE_FIX})`;
      fail(i, `the word ${w} where a value should be`, fix);
    }
    fail(i, `${describe(c)} where a value should be`, c === '}' || c === ']' || c === ',' ? 'a value is missing here' : VALUE_FIX);
  };

  const object = (path: JsonPath): void => {
    const open = i++;
    const seen = new Set<string>();
    let comma = -1;
    for (;;) {
      space();
      const c = text[i];
      if (c === '}') {
        if (comma >= 0) fail(comma, 'a trailing comma', 'remove the comma after the last item (JSON allows none)');
        i++;
        return;
      }
      if (c === undefined) fail(i, `the text ends inside the object opened at ${at(open)}`, 'add the missing }');
      if (c === "'") fail(i, 'a key in single quotes', 'use double quotes: "key": value');
      const w = word();
      if (w) fail(i, `the key ${w} is not in double quotes`, `write "${w}"`);
      if (c !== '"') fail(i, `${describe(c)} where a key in double quotes should be`, 'write each entry as "key": value, separated by commas');
      const keyAt = i;
      const key = string();
      const p = [...path, key];
      if (seen.has(key)) duplicates.push({ path: p, offset: keyAt });
      seen.add(key);
      positions.set(pathKey(p), keyAt);
      space();
      if (text[i] !== ':') fail(i, `no colon after the key "${key}"`, `write "${key}": value`);
      i++;
      value(p);
      space();
      const d = text[i];
      if (d === ',') { comma = i++; continue; }
      if (d === '}') { i++; return; }
      if (d === undefined) fail(i, `the text ends inside the object opened at ${at(open)}`, 'add the missing }');
      fail(i, "Expected ',' or '}' after property value", 'add a comma between the two entries, or close the object with }');
    }
  };

  const array = (path: JsonPath): void => {
    const open = i++;
    let comma = -1;
    for (let n = 0; ; n++) {
      space();
      const c = text[i];
      if (c === ']') {
        if (comma >= 0) fail(comma, 'a trailing comma', 'remove the comma after the last item (JSON allows none)');
        i++;
        return;
      }
      if (c === undefined) fail(i, `the text ends inside the list opened at ${at(open)}`, 'add the missing ]');
      positions.set(pathKey([...path, n]), i);
      value([...path, n]);
      space();
      const d = text[i];
      if (d === ',') { comma = i++; continue; }
      if (d === ']') { i++; return; }
      if (d === undefined) fail(i, `the text ends inside the list opened at ${at(open)}`, 'add the missing ]');
      fail(i, "Expected ',' or ']' after array element", 'add a comma between the two items, or close the list with ]');
    }
  };

  try {
    value([]);
    space();
    if (i < text.length) fail(i, 'more text after the end of the settings', 'a settings file holds one { … } object: remove what follows it, or move it inside');
    return { positions, duplicates };
  } catch (e) {
    if (e instanceof Stop) return { error: e.error, positions, duplicates };
    throw e;
  }
}
