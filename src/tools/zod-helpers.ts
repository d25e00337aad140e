import { posix } from 'node:path';
import { z } from 'zod';

// Models send `"10"` for numbers, `"true"` for booleans and `null` for "not given". These helpers
// accept those harmless variants and still reject real nonsense with a clear message.

const blankToUndefined = (v: unknown): unknown => (v === null || v === '' ? undefined : v);

function toNumber(v: unknown): unknown {
  v = blankToUndefined(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return v;
}

function toBoolean(v: unknown): unknown {
  v = blankToUndefined(v);
  if (v === 'true') return true;
  if (v === 'false') return false;
  return v;
}

/** An optional integer ≥ `min` that also accepts a numeric string. */
export function optionalInt(description: string, min = 0) {
  return z.preprocess(toNumber, z.number().int().min(min).optional()).describe(description);
}

/** An optional boolean that also accepts "true"/"false". */
export function optionalBool(description: string) {
  return z.preprocess(toBoolean, z.boolean().optional()).describe(description);
}

/** An optional string where `null` and "" mean "not given". */
export function optionalString(description: string) {
  return z.preprocess(blankToUndefined, z.string().optional()).describe(description);
}

/**
 * An optional path: as `optionalString`, with blanks around it removed, as the tool resolves it
 * (fs/paths.ts): hooks and the permission decision see the path the tool uses.
 */
export function optionalPath(description: string) {
  return z.preprocess((v) => blankToUndefined(typeof v === 'string' ? normalToolPath(v) : v), z.string().optional()).describe(description);
}

/**
 * A path as the tool will open it, written the shortest way: blanks around it, `.` and `..`
 * segments, doubled and trailing slashes removed (`.env/.` → `.env`, `src/../.env` → `.env`),
 * relative or absolute as given, `~/` kept. Hooks and the permission decision then see the file
 * the tool opens, not another spelling of it.
 */
export function normalToolPath(raw: string): string {
  const p = raw.trim();
  if (p === '' || p === '~') return p;
  const home = p.startsWith('~/');
  const rest = home ? p.slice(2) : p;
  if (!/(^|\/)\.\.?(\/|$)|\/\/|.\/$/.test(rest)) return p;
  let n = posix.normalize(rest);
  if (n.length > 1) n = n.replace(/\/+$/, '');
  return home ? (n === '.' ? '~' : `~/${n}`) : n;
}

/**
 * A required path (`file_path` of Read, Write, Edit; `path` of LS), as `normalToolPath` writes it.
 * A file to write (`file`) may not end in "/": that names a directory, and normalising would drop it.
 */
export function toolPath(description: string, kind: 'file' | 'any' = 'any') {
  const names = (v: string) => kind === 'file' && /[/\\]$/.test(v);
  const checked = z
    .string()
    .min(1)
    .refine((v) => !names(v), 'ends in "/", so it names a directory; give the path of a file');
  return z.preprocess((v) => (typeof v === 'string' && !names(v) ? normalToolPath(v) : v), checked).describe(description);
}
