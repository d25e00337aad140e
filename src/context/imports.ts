import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { looksBinary } from '../fs/binary.ts';
import { resolvePath } from '../fs/paths.ts';
import { type AtCandidate, looksLikePath, packageScope, scanAtTokens } from './at-tokens.ts';

/** Hops from a memory file to the deepest file it may pull in (Claude Code: 5). */
const MAX_IMPORT_DEPTH = 5;

interface ImportOptions {
  home: string;
  /** Whether a file (real path) may be imported; a refusal is a warning that says `remedy`. Default: any file. */
  mayImport?(realPath: string): boolean;
  /** Told to the user when `mayImport` refuses. */
  remedy?: string;
  maxDepth?: number;
}

/** Files read while expanding, for callers that want to watch them (real paths). */
interface ImportResult {
  text: string;
  warnings: string[];
  imported: string[];
}

const kindOf = (abs: string) => {
  const s = statSync(abs, { throwIfNoEntry: false });
  return s?.isFile() ? 'file' : s?.isDirectory() ? 'dir' : s ? 'other' : undefined;
};

const realOf = (abs: string) => {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
};

/** Reads a text file for inlining; a string is the text, else the reason it cannot be. */
export function readText(abs: string): { text: string } | { error: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    return { error: (e as Error).message };
  }
  if (looksBinary(bytes)) return { error: 'it looks like a binary file' };
  const text = bytes.toString('utf8');
  return { text: text.startsWith('\uFEFF') ? text.slice(1) : text };
}

/**
 * Inlines `@path` imports in `content` (the text of `file`), recursively. Paths are relative to
 * the importing file's directory, or `~/…`, or absolute. Not inside code blocks or code spans; an
 * e-mail address is not an import. A missing, unreadable, too-deep or cyclic import stays as text
 * and gives a warning; a word that names nothing and does not look like a path (`@team`) is left
 * alone silently. Never throws.
 */
export function expandImports(content: string, file: string, opts: ImportOptions): ImportResult {
  const warnings: string[] = [];
  const imported: string[] = [];
  const maxDepth = opts.maxDepth ?? MAX_IMPORT_DEPTH;

  const expand = (text: string, from: string, stack: string[]): string => {
    let out = '';
    let pos = 0;
    for (const tok of scanAtTokens(text)) {
      if (tok.index < pos) continue;
      const plain = tok.candidates.filter((c) => c.start === undefined);
      const resolve = (c: AtCandidate) => resolvePath(c.path, dirname(from), opts.home);
      const hit = plain.find((c) => kindOf(resolve(c)) === 'file');
      const warn = (msg: string) => warnings.push(`${from}: ${msg}`);
      if (!hit) {
        const scope = packageScope(tok);
        const meant = scope === undefined ? looksLikePath(tok) : kindOf(resolve({ ref: '', path: scope })) === 'dir';
        if (!meant) continue;
        const exists = plain.some((c) => kindOf(resolve(c)) !== undefined);
        warn(`${tok.fallback.ref}: ${exists ? 'not a file, so not imported' : 'no such file to import'} (left as text)`);
        continue;
      }
      const abs = resolve(hit);
      const real = realOf(abs);
      let inline: string | undefined;
      if (stack.includes(real)) {
        warn(`${hit.ref}: import cycle (${[...stack, real].join(' → ')}); not imported again`);
      } else if (stack.length > maxDepth) {
        warn(`${hit.ref}: imports nest more than ${maxDepth} deep; not imported (left as text)`);
      } else if (opts.mayImport && !opts.mayImport(real)) {
        warn(`${hit.ref}: ${abs} is outside the project, so it is not imported${opts.remedy ? `; ${opts.remedy}` : ''}`);
      } else {
        const r = readText(abs);
        if ('error' in r) warn(`${hit.ref}: cannot import ${abs}: ${r.error}`);
        else {
          imported.push(real);
          inline = expand(r.text, abs, [...stack, real]).replace(/\n+$/, '');
        }
      }
      if (inline === undefined) continue;
      out += text.slice(pos, tok.index) + inline;
      pos = tok.index + hit.ref.length;
    }
    return out + text.slice(pos);
  };

  const text = expand(content, file, [realOf(file)]);
  return { text, warnings, imported };
}
