import type { z } from 'zod';
import type { JsonPath } from './json-scan.ts';

interface UnknownKey {
  /** The key's full path, the key last. */
  path: JsonPath;
  /** The keys that object may hold. */
  known: string[];
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Every key of `value` that its zod schema does not declare, at any depth (objects, records'
 * values, list items, the object branch of a union). zod itself drops such keys silently (or keeps
 * them, for `.loose()` objects): a misspelt `"denny"` would be ignored without a word (SPEC §2).
 */
export function unknownKeys(value: unknown, schema: z.ZodType, path: JsonPath = []): UnknownKey[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return unknownKeys(value, def.innerType!, path);
    case 'pipe':
      return unknownKeys(value, def.in!, path);
    case 'union':
      // The branch of the value's own shape: `verify` is a string or { command }.
      for (const option of def.options!) {
        const t = defOf(option).type;
        if ((t === 'object' || t === 'record') === isObject(value) && (t !== 'array' || Array.isArray(value)))
          return unknownKeys(value, option, path);
      }
      return [];
    case 'object': {
      if (!isObject(value)) return [];
      const shape = def.shape!;
      const known = Object.keys(shape);
      const out: UnknownKey[] = [];
      for (const [k, v] of Object.entries(value)) {
        if (k in shape) out.push(...unknownKeys(v, shape[k], [...path, k]));
        else out.push({ path: [...path, k], known });
      }
      return out;
    }
    case 'record':
      return isObject(value) ? Object.entries(value).flatMap(([k, v]) => unknownKeys(v, def.valueType!, [...path, k])) : [];
    case 'array':
      return Array.isArray(value) ? value.flatMap((v, n) => unknownKeys(v, def.element!, [...path, n])) : [];
    default:
      return [];
  }
}

/** `hooks.PreToolUse.0.hooks.1.iff`: zod's own spelling of a path, which messages have always used. */
export function showPath(path: JsonPath): string {
  return path.join('.');
}
