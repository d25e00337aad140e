import { readFile } from 'node:fs/promises';
import { headBytes, looksBinary } from './binary.ts';
import { SNAPSHOT_CONTENT_LIMIT } from './file-state.ts';
import { type Page, pageOfFile, pageOfText } from './read-lines.ts';

/**
 * The one place where a file's bytes become the text the model reads and edits, and back (Read,
 * Edit, Write, `@path` attachments). Whatever a tool did not change is written back byte for byte:
 * the encoding, a byte-order mark and CRLF line endings are kept (docs/decisions.md).
 *
 * - UTF-8 (with or without a BOM), and UTF-16 LE/BE with a BOM, are decoded as such.
 * - Any other text (not valid UTF-8, no NUL byte) is taken as Windows-1252, the superset of
 *   ISO-8859-1 (Latin-1) that browsers use for "latin1": every byte maps to its own character and
 *   back, so unchanged bytes survive even when the guess of the encoding is wrong. New text that
 *   Windows-1252 cannot hold is refused, never replaced.
 * - CRLF: when every line break of a file is CRLF, the text is LF (what Read shows and Edit
 *   matches) and is written back with CRLF. A file that mixes both is left as it is.
 */

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface TextFormat {
  encoding: Encoding;
  /** The file starts with a byte-order mark (kept on write). */
  bom: boolean;
  /** Every line break is CRLF: the text has LF, written back as CRLF. */
  crlf: boolean;
}

/** What a new file gets: UTF-8, no BOM, the text's own line breaks. */
export const NEW_FILE: TextFormat = { encoding: 'utf-8', bom: false, crlf: false };

interface DecodedText {
  text: string;
  format: TextFormat;
}

const BOMS: Array<[Encoding, number[]]> = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

function bomOf(bytes: Uint8Array): Encoding | undefined {
  for (const [enc, sig] of BOMS) if (bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b)) return enc;
  return undefined;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    fatalUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The encoding of a file's bytes, or 'binary' (a NUL byte in the first 8 KB, unless a UTF-16 BOM
 * says why). `complete` false: `bytes` is only the file's head, so a character cut at its end is not held against UTF-8.
 */
export function detectEncoding(bytes: Uint8Array, complete = true): { encoding: Encoding; bom: boolean } | 'binary' {
  const bom = bomOf(bytes);
  if (bom === 'utf-16le' || bom === 'utf-16be') return { encoding: bom, bom: true };
  if (looksBinary(bytes)) return 'binary';
  if (bom === 'utf-8') return { encoding: 'utf-8', bom: true };
  // A head may end inside a multi-byte character: judge it without its last three bytes.
  const judged = complete ? bytes : bytes.subarray(0, Math.max(0, bytes.length - 3));
  return { encoding: isUtf8(judged) ? 'utf-8' : 'windows-1252', bom: false };
}

// Windows-1252 bytes 0x80–0x9F; the five it leaves undefined map to the same code point (as in browsers).
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const CP1252_BACK = new Map([...CP1252_HIGH].map((c, i) => [c.codePointAt(0)!, 0x80 + i]));

function decodeCp1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    out += String.fromCharCode(...Array.from(chunk, (b) => (b >= 0x80 && b < 0xa0 ? CP1252_HIGH.charCodeAt(b - 0x80) : b)));
  }
  return out;
}

/** Decodes bytes of a known encoding (a BOM, if any, is dropped); line endings untouched. */
function decodeBytes(bytes: Uint8Array, encoding: Encoding): string {
  const bom = bomOf(bytes) === encoding ? BOMS.find(([e]) => e === encoding)![1].length : 0;
  const body = bytes.subarray(bom);
  if (encoding === 'windows-1252') return decodeCp1252(body);
  return new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
}

/** A file's bytes as text and the format to write it back in, or why it is not text. */
export function decodeText(bytes: Uint8Array): DecodedText | { binary: true } {
  const enc = detectEncoding(bytes);
  if (enc === 'binary') return { binary: true };
  let text = decodeBytes(bytes, enc.encoding);
  const breaks = count(text, '\n');
  const crlf = breaks > 0 && count(text, '\r\n') === breaks;
  if (crlf) text = text.replace(/\r\n/g, '\n');
  return { text, format: { ...enc, crlf } };
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * Text to bytes in `format` (its BOM and line endings), or the characters the encoding cannot
 * hold (never replaced: the caller refuses the change).
 */
export function encodeText(text: string, format: TextFormat): { bytes: Buffer } | { unencodable: string[] } {
  const body = format.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
  switch (format.encoding) {
    case 'utf-8':
      return { bytes: Buffer.concat([Buffer.from(format.bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(body, 'utf8')]) };
    case 'utf-16le':
    case 'utf-16be': {
      const b = Buffer.from(`\ufeff${body}`, 'utf16le');
      if (format.encoding === 'utf-16be') b.swap16();
      return { bytes: format.bom ? b : b.subarray(2) };
    }
    case 'windows-1252': {
      const out = Buffer.allocUnsafe(body.length);
      const bad = new Set<string>();
      for (let i = 0; i < body.length; i++) {
        const c = body.charCodeAt(i);
        const byte = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : CP1252_BACK.get(c);
        if (byte === undefined) {
          if (c < 0xdc00 || c > 0xdfff) bad.add(String.fromCodePoint(body.codePointAt(i)!));
        } else out[i] = byte;
      }
      return bad.size ? { unencodable: [...bad] } : { bytes: out };
    }
  }
}

/** How the encoding is named to the model and the user. */
export function encodingName(format: Pick<TextFormat, 'encoding' | 'bom'>): string {
  switch (format.encoding) {
    case 'utf-8':
      return format.bom ? 'UTF-8 with a byte-order mark' : 'UTF-8';
    case 'utf-16le':
      return 'UTF-16 little-endian';
    case 'utf-16be':
      return 'UTF-16 big-endian';
    case 'windows-1252':
      return 'Windows-1252 (Latin-1)';
  }
}

/** Read's note for a file that is not UTF-8, or undefined. */
export function encodingNote(format: Pick<TextFormat, 'encoding' | 'bom'>): string | undefined {
  if (format.encoding === 'utf-8') return undefined;
  const guess =
    format.encoding === 'windows-1252'
      ? 'it is not valid UTF-8 and looks like Windows-1252 / ISO-8859-1 (Latin-1); if it is another 8-bit encoding, some non-ASCII characters show wrongly here'
      : `it is ${encodingName(format)} (it starts with a byte-order mark)`;
  return `Note: this file is not UTF-8: ${guess}. It is shown decoded; Edit and Write keep its encoding and every byte they do not change.`;
}

/** The refusal of a change the file's encoding cannot hold. */
export function unencodableMessage(abs: string, format: TextFormat, chars: string[]): string {
  const shown = chars
    .slice(0, 8)
    .map((c) => `"${c}" (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`)
    .join(', ');
  const from = format.encoding === 'windows-1252' ? 'WINDOWS-1252' : 'UTF-16';
  return (
    `${abs} is ${encodingName(format)}, which cannot hold ${shown}${chars.length > 8 ? ', …' : ''}. Nothing was written. ` +
    `Use characters of that encoding (ASCII is always safe), or convert the file to UTF-8 first ` +
    `(e.g. \`iconv -f ${from} -t UTF-8 FILE > FILE.utf8 && mv FILE.utf8 FILE\`) and Read it again.`
  );
}

/** A text file read whole: its bytes (for backups), text and format. */
export type TextFile = { bytes: Buffer } & DecodedText;

/** Reads a file whole as text (`binary` when it is not text; its bytes either way, for backups). Throws fs errors. */
export async function readTextFile(abs: string, signal?: AbortSignal): Promise<TextFile | { binary: true; bytes: Buffer }> {
  const bytes = await readFile(abs, { signal });
  return { bytes, ...decodeText(bytes) };
}

/** A page of a text file, as Read and `@path` attachments show it. */
export type TextPage =
  | { kind: 'binary' }
  | { kind: 'unsupported'; why: string }
  /** `whole`: the file's text when it was read whole (small enough to keep in the file-state snapshot). */
  | { kind: 'text'; page: Page; whole?: string; format: Pick<TextFormat, 'encoding' | 'bom'> };

/**
 * Lines [first, first + limit) of a file of `size` bytes: read whole and decoded when small, else
 * streamed line by line (memory stays bounded) in the encoding its first 8 KB show. Throws fs errors.
 */
export async function readTextPage(abs: string, size: number, first: number, limit: number, signal: AbortSignal): Promise<TextPage> {
  if (size <= SNAPSHOT_CONTENT_LIMIT) {
    const file = await readTextFile(abs, signal);
    if ('binary' in file) return { kind: 'binary' };
    return { kind: 'text', page: pageOfText(file.text, first, limit), whole: file.text, format: file.format };
  }
  const enc = detectEncoding(await headBytes(abs), false);
  if (enc === 'binary') return { kind: 'binary' };
  if (enc.encoding !== 'utf-8' && enc.encoding !== 'windows-1252') {
    return {
      kind: 'unsupported',
      why: `it is ${encodingName(enc)} and larger than ${SNAPSHOT_CONTENT_LIMIT / 1024 / 1024} MB; large files are paged in UTF-8 or 8-bit encodings only. Convert it (iconv -f UTF-16 -t UTF-8) to read it`,
    };
  }
  return { kind: 'text', page: await pageOfFile(abs, first, limit, signal, undefined, (b) => decodeBytes(b, enc.encoding)), format: enc };
}
