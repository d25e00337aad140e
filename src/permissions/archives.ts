import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import type { SimpleCommand } from './shell/types.ts';

/**
 * The names an archive or a patch on disk will write (SPEC §11.16: `tar -xf t.tar` may hold
 * `.git/hooks/pre-commit`). Reads tar (plain or gzip), zip and unified-diff files; anything else,
 * or a file over ARCHIVE_LIMIT, gives undefined (not known). Used through `PathLookup.archiveNames`.
 */

/** Archives larger than this are not read (their names are left unknown). */
const ARCHIVE_LIMIT = 64 * 1024 * 1024;
/** At most this many names from one archive. */
const NAMES_LIMIT = 20_000;

function readAll(path: string): Buffer | undefined {
  try {
    const size = statSync(path).size;
    if (size > ARCHIVE_LIMIT) return undefined;
    const buf = Buffer.alloc(size);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buf, 0, size, 0);
    } finally {
      closeSync(fd);
    }
    return buf;
  } catch {
    return undefined;
  }
}

const cstr = (b: Buffer, from: number, len: number) => {
  const s = b.subarray(from, from + len);
  const z = s.indexOf(0);
  return s.subarray(0, z < 0 ? s.length : z).toString('utf8');
};

function tarNames(b: Buffer): string[] | undefined {
  const names: string[] = [];
  let long: string | undefined;
  for (let off = 0; off + 512 <= b.length && names.length < NAMES_LIMIT; ) {
    const h = b.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    const size = parseInt(cstr(h, 124, 12).trim() || '0', 8);
    if (Number.isNaN(size)) return undefined;
    const type = String.fromCharCode(h[156]);
    const body = b.subarray(off + 512, off + 512 + size);
    if (type === 'L') long = cstr(body, 0, body.length);
    else if (type === 'x' || type === 'g') {
      const m = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (m && type === 'x') long = m[1];
    } else {
      const prefix = cstr(h, 257, 5) === 'ustar' ? cstr(h, 345, 155) : '';
      names.push(long ?? (prefix ? `${prefix}/${cstr(h, 0, 100)}` : cstr(h, 0, 100)));
      long = undefined;
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

function zipNames(b: Buffer): string[] | undefined {
  for (let eocd = b.length - 22; eocd >= Math.max(0, b.length - 65_557); eocd--) {
    if (b.readUInt32LE(eocd) !== 0x06054b50) continue;
    const count = b.readUInt16LE(eocd + 10);
    let off = b.readUInt32LE(eocd + 16);
    const names: string[] = [];
    for (let i = 0; i < count && off + 46 <= b.length && names.length < NAMES_LIMIT; i++) {
      if (b.readUInt32LE(off) !== 0x02014b50) return undefined;
      const n = b.readUInt16LE(off + 28);
      names.push(b.subarray(off + 46, off + 46 + n).toString('utf8'));
      off += 46 + n + b.readUInt16LE(off + 30) + b.readUInt16LE(off + 32);
    }
    return names;
  }
  return undefined;
}

/** `--- a/x`, `+++ b/x`, `diff --git a/x b/x`, `rename to x`: every name a patch touches, as written. */
function patchNames(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^(?:\+\+\+|---) ("?)([^\t\n"]+)\1/.exec(line) ?? /^(?:rename|copy) (?:to|from) (.+)$/.exec(line);
    if (m) out.add((m[2] ?? m[1]).trim());
    const g = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (g) {
      out.add(`a/${g[1]}`);
      out.add(`b/${g[2]}`);
    }
  }
  out.delete('/dev/null');
  return [...out];
}

/** The names an archive or patch file holds, or undefined when it cannot be read. */
export function archiveNames(path: string): string[] | undefined {
  const raw = readAll(path);
  if (!raw) return undefined;
  let b = raw;
  if (b[0] === 0x1f && b[1] === 0x8b) {
    try {
      b = gunzipSync(b, { maxOutputLength: ARCHIVE_LIMIT });
    } catch {
      return undefined;
    }
  }
  if (b.readUInt32LE?.(0) === 0x04034b50 || (b.length >= 22 && b.readUInt32LE(b.length - 22) === 0x06054b50)) return zipNames(b);
  if (b.length >= 512 && cstr(b, 257, 5) === 'ustar') return tarNames(b);
  const text = b.subarray(0, 4 * 1024 * 1024).toString('utf8');
  if (/^(\+\+\+|---) /m.test(text)) return patchNames(text);
  return undefined;
}

/** A patch name with 0…4 leading components stripped (`-pN`): every file it may write. */
const stripped = (name: string) => {
  const segs = name.split('/').filter((s) => s !== '');
  return [0, 1, 2, 3, 4].filter((k) => k < segs.length).map((k) => segs.slice(k).join('/'));
};

/**
 * The files an extracting part (`tar -x`, `unzip`, `patch`, `git apply`) writes, from the archive
 * or patch it reads, absolute; undefined when there is none to read or it cannot be read.
 */
export function extractedFiles(
  c: SimpleCommand,
  dirs: string[],
  home: string,
  names: (path: string) => string[] | undefined,
): string[] | undefined {
  const abs = (p: string, d: string) => (p === '~' || p.startsWith('~/') ? resolve(home, p.slice(2)) : resolve(d, p));
  const args = c.args;
  let archive: string | undefined;
  let into: string | undefined;
  let patch = false;
  if (c.program === 'tar') {
    const first = args[0] && !args[0].startsWith('-') ? `-${args[0]}` : args[0];
    const words = [first, ...args.slice(1)];
    for (const [i, a] of words.entries()) {
      if (a === undefined) continue;
      if (a === '-C' || a === '--directory') into = words[i + 1];
      else if (a.startsWith('--directory=')) into = a.slice(12);
      else if (a.startsWith('--file=')) archive = a.slice(7);
      else if (a === '--file') archive = words[i + 1];
      else if (/^-[A-Za-z]*f/.test(a) && !a.startsWith('--')) archive = a.slice(a.indexOf('f') + 1) || words[i + 1];
      else if (/^-[A-Za-z]*C./.test(a) && !a.startsWith('--')) into = a.slice(a.indexOf('C') + 1);
    }
  } else if (c.program === 'unzip') {
    const ops = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-d');
    archive = ops[0];
    const d = args.indexOf('-d');
    if (d >= 0) into = args[d + 1];
  } else if (c.program === 'patch' || (c.program === 'git' && ['apply', 'am'].includes(args.find((a) => !a.startsWith('-')) ?? ''))) {
    patch = true;
    const i = args.findIndex((a) => a === '-i' || a === '--input');
    archive = i >= 0 ? args[i + 1] : args.find((a) => a.startsWith('--input='))?.slice(8);
    if (c.program === 'git') archive = args.filter((a) => !a.startsWith('-')).slice(1)[0];
    archive ??= c.redirects.find((r) => r.reads && r.op.endsWith('<'))?.target;
    const d = args.findIndex((a) => a === '-d' || a === '--directory');
    if (c.program === 'patch' && d >= 0) into = args[d + 1];
  } else return undefined;
  if (!archive || archive === '-' || /[$`]/.test(archive)) return undefined;
  const out: string[] = [];
  for (const d of dirs) {
    const held = names(abs(archive, d));
    if (!held) return undefined;
    const base = into ? abs(into, d) : d;
    // `tar -P` keeps absolute member names; without it tar drops the leading `/`.
    const absolute = c.program === 'tar' && args.some((a) => a === '--absolute-names' || (/^-?[A-Za-z]*P/.test(a) && !a.startsWith('--')));
    for (const n of held) for (const s of patch ? stripped(n) : [n]) out.push(absolute && s.startsWith('/') ? s : join(base, s));
  }
  return out;
}
