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
 * (tools/paths.ts): hooks and the permission decision see the path the tool uses.
 */
export function optionalPath(description: string) {
  return z.preprocess((v) => blankToUndefined(typeof v === 'string' ? v.trim() : v), z.string().optional()).describe(description);
}
