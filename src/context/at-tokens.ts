import { codeRanges, inCode } from './code-ranges.ts';

/**
 * The `@path` syntax shared by prompts (attachments) and ASSISTANT.md files (imports). Pure:
 * which reading of a token is meant depends on what exists, and that is the caller's business.
 */

/** One reading of a token: `ref` is the text it covers, from the `@`. `start`/`end`: 1-based lines. */
export interface AtCandidate {
  ref: string;
  path: string;
  start?: number;
  end?: number;
}

export interface AtToken {
  /** Offset of the `@`. */
  index: number;
  quoted: boolean;
  /** Readings to try against the disk, in order: the token as written first, then with trailing punctuation removed. */
  candidates: AtCandidate[];
  /** The reading meant when none of the candidates exists: trailing punctuation removed. */
  fallback: AtCandidate;
}

/** An `@` starts a reference only at the start of the text, after whitespace or an opening bracket or quote: `a@b.com` is an address. */
const BEFORE = /[\s([{<"']/;
const TRAILING = new Set([',', '.', ';', ':', '!', '?', ')', ']', '}', '>', '"', "'"]);
const ONLY_PUNCTUATION = /^[.,;:!?)\]}>"']*$/;
const RANGE = /^(.+):(\d+)(?:-(\d+))?$/;
const QUOTED_RANGE = /^:(\d+)(?:-(\d+))?/;

function lines(start: string, end: string | undefined): { start: number; end: number } {
  return { start: Number(start), end: Number(end ?? start) };
}

function quoted(text: string, i: number): AtToken | undefined {
  const q = text[i + 1];
  const close = text.indexOf(q, i + 2);
  const nl = text.indexOf('\n', i + 2);
  if (close === -1 || close === i + 2 || (nl !== -1 && nl < close)) return undefined;
  const path = text.slice(i + 2, close);
  const r = QUOTED_RANGE.exec(text.slice(close + 1));
  const ref = text.slice(i, close + 1 + (r ? r[0].length : 0));
  const c: AtCandidate = r ? { ref, path, ...lines(r[1], r[2]) } : { ref, path };
  return { index: i, quoted: true, candidates: [c], fallback: c };
}

function unquoted(text: string, i: number): AtToken | undefined {
  const word = /^[^\s`]+/.exec(text.slice(i + 1))?.[0];
  if (!word || word.startsWith('@')) return undefined;
  const candidates: AtCandidate[] = [];
  let fallback: AtCandidate | undefined;
  for (let t = word; t !== '' && !ONLY_PUNCTUATION.test(t); t = t.slice(0, -1)) {
    const plain: AtCandidate = { ref: `@${t}`, path: t };
    const m = RANGE.exec(t);
    const ranged: AtCandidate | undefined = m ? { ref: `@${t}`, path: m[1], ...lines(m[2], m[3]) } : undefined;
    candidates.push(plain);
    if (ranged) candidates.push(ranged);
    fallback = ranged ?? plain;
    if (!TRAILING.has(t[t.length - 1])) break;
  }
  if (!fallback) return undefined;
  // `@file.md#section`: the anchor is tolerated (tried last, so a file with `#` in its name wins).
  const hash = fallback.path.indexOf('#');
  if (hash > 0) candidates.push({ ...fallback, path: fallback.path.slice(0, hash) });
  return { index: i, quoted: false, candidates, fallback };
}

/** Every `@` token outside code, in order. */
export function scanAtTokens(text: string): AtToken[] {
  const code = codeRanges(text);
  const out: AtToken[] = [];
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) {
    if (i > 0 && !BEFORE.test(text[i - 1])) continue;
    if (inCode(code, i)) continue;
    const tok = text[i + 1] === '"' || text[i + 1] === "'" ? quoted(text, i) : unquoted(text, i);
    if (tok) out.push(tok);
  }
  return out;
}

const PACKAGE = /^[a-z0-9][\w-]*\/[a-z0-9][\w-]*$/i;

/**
 * `types` for `@types/node`: a missing token shaped like a scoped npm package (`@scope/name`, no
 * dot) is a path only when its first directory exists; otherwise it is the package, left alone.
 */
export function packageScope(tok: AtToken): string | undefined {
  return !tok.quoted && PACKAGE.test(tok.fallback.path) ? tok.fallback.path.split('/')[0] : undefined;
}

/**
 * Whether a token that names nothing on disk was meant as a path (and so is an error): it is
 * quoted, or contains `/` or `.`, or starts with `~`. `@team` is not; `@notes.md` is.
 */
export function looksLikePath(tok: AtToken): boolean {
  return tok.quoted || /[/.]/.test(tok.fallback.path) || tok.fallback.path.startsWith('~');
}
