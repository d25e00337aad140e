import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';
import { lineColumn } from './errors.ts';

/** The first syntax error of a JSON text: where it is, what it is, and how to fix it. */
interface JsonSyntaxError {
  offset: number;
  problem: string;
  fix: string;
}

export type JsonPath = ReadonlyArray<string | number>;

export interface JsonScan {
  error?: JsonSyntaxError;
  /** Where each member's key (or each array element) is written, by `pathKey(path)`. */
  positions: Map<string, number>;
  /** Keys written twice in one object (JSON.parse keeps the last, silently): where, and where first. */
  duplicates: Array<{ path: JsonPath; offset: number; first: number }>;
}

export const pathKey = (path: ReadonlyArray<PropertyKey>): string =>
  JSON.stringify(path.map((p) => (typeof p === 'number' ? p : String(p))));

const VALUE_FIX = 'a value is a "string" in double quotes, a number, true, false, null, an object { … } or a list [ … ]';
const NUMBER_FIX = 'write numbers like 30, 0.5 or -1 (no leading zeros, hex, or trailing dot)';
const TRAILING_COMMA = { problem: 'a trailing comma', fix: 'remove the comma after the last item (JSON allows none)' };

function describe(c: string): string {
  if (c === '\uFEFF') return 'a byte-order mark (U+FEFF)';
  const code = c.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x20 || code === 0x7f) return `the control character ${hex}`;
  return /\s/u.test(c) ? `the space character ${hex} (not a plain space)` : `"${c}"`;
}

/** Why a string token is not valid JSON, at the offending character. */
function stringProblem(text: string, start: number): JsonSyntaxError {
  for (let i = start + 1; ; i++) {
    const c = text[i];
    if (c === undefined) return { offset: start, problem: 'a string that is never closed', fix: 'add the closing double quote "' };
    if (c === '"') break;
    if (c === '\n' || c === '\r')
      return {
        offset: start,
        problem: 'a string that is not closed on its line',
        fix: 'close it with " (a line break inside a string is written \\n)',
      };
    if (c < ' ')
      return {
        offset: i,
        problem: `${describe(c)} inside a string`,
        fix: c === '\t' ? 'write a tab as \\t' : 'remove it, or write it as a \\u escape',
      };
    if (c !== '\\') continue;
    const n = text[i + 1];
    if (n === 'u' && !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
      return { offset: i, problem: 'a \\u escape without four hex digits', fix: 'write \\u followed by four hex digits, e.g. \\u00e9' };
    if (n === undefined || !'"\\/bfnrtu'.includes(n)) {
      return {
        offset: i,
        problem: `the escape "\\${n ?? ''}" (a single backslash)`,
        fix: 'write a backslash as \\\\ (e.g. "C:\\\\Users\\\\me"), or use forward slashes',
      };
    }
    i++;
  }
  return { offset: start, problem: 'a malformed string', fix: 'write strings as "text" in double quotes' };
}

/** A bare word where a value should be, with the fix for the usual slips. */
function wordProblem(w: string): { problem: string; fix: string } {
  const lower = w.toLowerCase();
  const fix =
    lower === 'true' || lower === 'false' || lower === 'null'
      ? `write it in lower case: ${lower}`
      : lower === 'none'
        ? 'write null'
        : w === 'undefined'
          ? 'JSON has no undefined: remove the key, or write null'
          : w === 'NaN' || w === 'Infinity'
            ? 'JSON has no NaN or Infinity: write a number'
            : `if it is text, put it in double quotes: "${w}" (${VALUE_FIX})`;
  return { problem: `the word ${w} where a value should be`, fix };
}

interface Context {
  /** The innermost object or list open at the error. */
  open?: { kind: 'object' | 'list'; offset: number };
  /** The last key read in that object. */
  key?: string;
  /** An object or list the text ended inside (jsonc-parser ends it before it reports the error). */
  unclosed?: { kind: 'object' | 'list'; offset: number };
}

/** The first error jsonc-parser reports, said the way a person fixes it. */
function explain(text: string, code: ParseErrorCode, offset: number, ctx: Context): JsonSyntaxError {
  const at = (o: number) => {
    const { line, column } = lineColumn(text, o);
    return `${line}:${column}`;
  };
  const c = text[offset];
  const before = text.slice(0, offset).trimEnd();
  const prev = before.at(-1);
  const where = (problem: string, fix: string, o = offset): JsonSyntaxError => ({ offset: o, problem, fix });
  const endsInside = (open = ctx.unclosed ?? ctx.open) =>
    open
      ? where(`the text ends inside the ${open.kind} opened at ${at(open.offset)}`, `add the missing ${open.kind === 'object' ? '}' : ']'}`)
      : where('the text ends where a value should be', 'add the value, or remove what leads to it');
  // A token glued to a number (`01`, `0x1`, `1e`): the number itself is malformed.
  if (c !== undefined && /[\w.+-]/.test(c) && /[\d.]/.test(text[offset - 1] ?? '')) {
    const start = /-?[\d.eE+-]*$/.exec(text.slice(0, offset))!.index;
    return where('a malformed number', NUMBER_FIX, start);
  }
  const keyExpected = ctx.open?.kind === 'object' && (prev === '{' || prev === ',');
  const name = printParseErrorCode(code);
  switch (name) {
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return where('a comment', 'JSON allows no comments: delete it (settings files are plain JSON, not JSONC)');
    case 'UnexpectedEndOfString':
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
    case 'InvalidCharacter':
      if (c === '"') return stringProblem(text, offset);
      break;
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return where('a malformed number', NUMBER_FIX);
    case 'InvalidSymbol': {
      if (c === "'")
        return keyExpected
          ? where('a key in single quotes', 'use double quotes: "key": value')
          : where('a string in single quotes', 'use double quotes: JSON strings are written "like this"');
      if (c === '+' || c === '.') return where('a malformed number', 'write numbers like 30, 0.5 or -1 (no leading + or .)');
      if (c === '-' || (c >= '0' && c <= '9')) return where('a malformed number', NUMBER_FIX);
      const w = /^[A-Za-z_$][\w$]*/.exec(text.slice(offset, offset + 64))?.[0];
      if (w && keyExpected) return where(`the key ${w} is not in double quotes`, `write "${w}"`);
      if (w) {
        const p = wordProblem(w);
        return where(p.problem, p.fix);
      }
      if (keyExpected)
        return where(`${describe(c)} where a key in double quotes should be`, 'write each entry as "key": value, separated by commas');
      return where(`${describe(c)} where a value should be`, /\s/u.test(c) ? 'replace it with a plain space, or delete it' : VALUE_FIX);
    }
    case 'ValueExpected':
    case 'PropertyNameExpected':
      if (c === undefined)
        return prev === ':' ? where('the text ends where a value should be', 'add the value, or remove what leads to it') : endsInside();
      if ((c === '}' || c === ']') && prev === ',') return where(TRAILING_COMMA.problem, TRAILING_COMMA.fix, before.length - 1);
      if (name === 'PropertyNameExpected' || keyExpected)
        return where(`${describe(c)} where a key in double quotes should be`, 'write each entry as "key": value, separated by commas');
      return where(`${describe(c)} where a value should be`, c === '}' || c === ']' || c === ',' ? 'a value is missing here' : VALUE_FIX);
    case 'ColonExpected':
      return where(`no colon after the key "${ctx.key ?? ''}"`, `write "${ctx.key ?? 'key'}": value`);
    case 'CommaExpected':
    case 'CloseBraceExpected':
    case 'CloseBracketExpected':
      if (c === undefined) return endsInside();
      return ctx.open?.kind === 'list'
        ? where("Expected ',' or ']' after array element", 'add a comma between the two items, or close the list with ]')
        : where("Expected ',' or '}' after property value", 'add a comma between the two entries, or close the object with }');
    case 'EndOfFileExpected':
      return where(
        'more text after the end of the settings',
        'a settings file holds one { … } object: remove what follows it, or move it inside',
      );
  }
  return c === undefined ? endsInside() : where(`${describe(c)} is not valid here`, VALUE_FIX);
}

/**
 * Reads a JSON text strictly (RFC 8259) with jsonc-parser, which gives what V8's JSON.parse does not:
 * the position of every key and list item, keys written twice, and the first error's offset
 * ("Unexpected token '/', … is not valid JSON" has none). The first error is then said the way a
 * person fixes it: comments, single quotes, unquoted keys, trailing commas, a missing comma,
 * Windows paths with single backslashes. Never throws.
 */
export function scanJson(text: string): JsonScan {
  const positions = new Map<string, number>();
  const duplicates: JsonScan['duplicates'] = [];
  const stack: Array<{ kind: 'object' | 'list'; offset: number; keys?: Map<string, number>; key?: string }> = [];
  let error: JsonSyntaxError | undefined;
  let unclosed: Context['unclosed'];
  const end = (offset: number, close: string) => {
    const top = stack.pop();
    if (top && text[offset] !== close) unclosed ??= { kind: top.kind, offset: top.offset };
  };
  const element = (offset: number, path: JsonPath) => {
    if (typeof path.at(-1) === 'number') positions.set(pathKey(path), offset);
  };
  visit(
    text,
    {
      onObjectBegin: (offset, _l, _sl, _sc, path) => {
        element(offset, path());
        stack.push({ kind: 'object', offset, keys: new Map() });
      },
      onObjectEnd: (offset) => end(offset, '}'),
      onArrayBegin: (offset, _l, _sl, _sc, path) => {
        element(offset, path());
        stack.push({ kind: 'list', offset });
      },
      onArrayEnd: (offset) => end(offset, ']'),
      onLiteralValue: (_v, offset, _l, _sl, _sc, path) => element(offset, path()),
      onObjectProperty: (key, offset, _l, _sl, _sc, path) => {
        const p = [...path(), key];
        const top = stack.at(-1);
        const first = top?.keys?.get(key);
        if (first !== undefined) duplicates.push({ path: p, offset, first });
        else top?.keys?.set(key, offset);
        if (top) top.key = key;
        positions.set(pathKey(p), offset);
      },
      onError: (code, offset) => {
        if (error) return;
        const top = stack.at(-1);
        error = explain(text, code, offset, { open: top && { kind: top.kind, offset: top.offset }, key: top?.key, unclosed });
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return { ...(error ? { error } : {}), positions, duplicates };
}
