import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { closest } from '../text/did-you-mean.ts';
import { ConfigError, lineColumn } from './errors.ts';
import { pathKey, scanJson, type JsonPath, type JsonScan } from './json-scan.ts';
import { SettingsSchema, type Settings } from './schema.ts';
import { mergeSandboxSettings } from '../sandbox/settings.ts';
import { showPath, unknownKeys } from './unknown-keys.ts';

export interface SettingsSource {
  file: string;
  scope: 'user' | 'project' | 'local' | 'flag';
  settings: Settings;
  /** Where a key or list item is written in the file (rules' line and column); 1:1 when unknown. */
  locate?: (path: JsonPath) => { line: number; column: number };
}

export interface LoadedSettings {
  sources: SettingsSource[];
  merged: Settings;
  warnings: string[];
}

/** Settings files in precedence order, lowest first (SPEC §2). */
export function settingsFiles(home: string, projectRoot: string): Array<{ file: string; scope: SettingsSource['scope'] }> {
  return [
    { file: join(home, '.assistant', 'settings.json'), scope: 'user' },
    { file: join(projectRoot, '.assistant', 'settings.json'), scope: 'project' },
    { file: join(projectRoot, '.assistant', 'settings.local.json'), scope: 'local' },
  ];
}

type Locate = NonNullable<SettingsSource['locate']>;

/** Where a key path is written (the nearest written ancestor when the path itself is not). */
function locator(text: string, positions: Map<string, number>): Locate {
  return (path) => {
    for (let n = path.length; n > 0; n--) {
      const offset = positions.get(pathKey(path.slice(0, n)));
      if (offset !== undefined) return lineColumn(text, offset);
    }
    return { line: 1, column: 1 };
  };
}

const HINTS: Record<string, string> = {
  if: ' (the hook runs for every call its matcher selects)',
};

/**
 * Parses one settings text; throws ConfigError naming file, line, column and the fix. Warnings
 * (unknown keys, duplicate keys, an empty file) are added to `warnings` as `file:line:col: …`.
 */
export function parseSettings(file: string, text: string, warnings: string[]): Settings {
  return parseSettingsSource(file, text, warnings).settings;
}

/** parseSettings, with a locator for the keys and list items of the text (rules' positions). */
function parseSettingsSource(file: string, raw: string, warnings: string[]): { settings: Settings; locate: Locate } {
  const { value, locate } = parseJsonSource(file, raw, warnings, SettingsSchema, 'the settings');
  return { settings: value, locate };
}

/**
 * Parses a JSON file of the given zod schema (settings, `.mcp.json`) with the same care: syntax
 * errors and schema errors as ConfigError with line, column and fix; unknown and duplicate keys
 * and an empty file as warnings. `what` names the whole value in messages ("the settings").
 */
export function parseJsonSource<S extends z.ZodType<Record<string, unknown>>>(
  file: string,
  raw: string,
  warnings: string[],
  schema: S,
  what: string,
): { value: z.infer<S>; locate: Locate } {
  // A leading byte-order mark is dropped silently, as Node's require, TypeScript and VS Code do;
  // columns are then counted as editors show them.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.trim() === '') {
    warnings.push(`${file}: the file is empty and is read as {} (put {} in it, or delete it)`);
    return { value: schema.parse({}), locate: () => ({ line: 1, column: 1 }) };
  }
  const scan = scanJson(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    if (scan.error) {
      const { line, column } = lineColumn(text, scan.error.offset);
      throw new ConfigError(file, line, column, `not valid JSON: ${scan.error.problem}`, scan.error.fix);
    }
    const msg = (e as Error).message.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position.*$/s, '');
    throw new ConfigError(file, 1, 1, `not valid JSON (${msg})`, 'correct the JSON syntax');
  }
  const locate = locator(text, scan.positions);
  const where = (path: JsonPath) => {
    const { line, column } = locate(path);
    return `${file}:${line}:${column}`;
  };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ConfigError(file, 1, 1, `${what} must be a JSON object`, `wrap ${what} in { … }`);
  }
  guardDuplicates(file, text, scan.duplicates);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const { line, column } = locate(issue.path as JsonPath);
    const subject = issue.path.length ? `"${showPath(issue.path as JsonPath)}"` : what;
    throw new ConfigError(file, line, column, `${subject}: ${issue.message}`, fixFor(issue));
  }
  for (const d of scan.duplicates) {
    const { line, column } = lineColumn(text, d.offset);
    if (GUARDED.has(String(d.path[0]))) continue;
    warnings.push(`${file}:${line}:${column}: "${showPath(d.path)}" is written twice in the same object; only this last one counts`);
  }
  for (const u of unknownKeys(json, schema)) {
    const key = String(u.path[u.path.length - 1]);
    const guess = closest(key, u.known);
    const hint = guess ? ` (did you mean "${guess}"?)` : (HINTS[key] ?? ` (known keys here: ${u.known.join(', ')})`);
    warnings.push(`${where(u.path)}: unknown key "${showPath(u.path)}" is ignored${hint}`);
  }
  return { value: parsed.data as z.infer<S>, locate };
}

/** Keys whose silent loss would drop guards: deny rules, hooks. */
const GUARDED = new Set(['permissions', 'hooks']);

/**
 * A key written twice under `permissions` or `hooks` is an error (SPEC §2: never silently ignore
 * what may hold the guards): JSON.parse keeps the last one, so a second `"permissions"` drops the
 * first one's deny rules without a word. Elsewhere a duplicate is a warning.
 */
function guardDuplicates(file: string, text: string, duplicates: JsonScan['duplicates']): void {
  const d = duplicates.find((x) => GUARDED.has(String(x.path[0])));
  if (!d) return;
  const { line, column } = lineColumn(text, d.offset);
  const first = lineColumn(text, d.first).line;
  const key = showPath(d.path);
  const what = d.path[0] === 'hooks' ? 'its hooks' : 'its rules (deny rules too)';
  throw new ConfigError(
    file,
    line,
    column,
    `"${key}" is written twice in the same object (lines ${first} and ${line}); JSON keeps only the last, which would silently drop the first and ${what}`,
    `merge the two into one "${String(d.path.at(-1))}" (line ${first} and line ${line})`,
  );
}

function fixFor(issue: z.core.$ZodIssue): string {
  const path = showPath(issue.path as JsonPath);
  if (issue.code === 'invalid_value' && 'values' in issue) return `use one of: ${(issue.values as unknown[]).map(String).join(', ')}`;
  if (issue.code === 'invalid_type')
    return `make ${path || 'it'} ${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${issue.expected}`;
  const doc =
    issue.path[0] === 'hooks'
      ? 'hooks.md'
      : issue.path[0] === 'permissions'
        ? 'permissions.md'
        : /mcp/i.test(String(issue.path[0]))
          ? 'mcp.md'
          : 'configuration.md';
  return `see docs/${doc} for the settings format`;
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(file, 1, 1, `cannot be read: ${(e as Error).message}`, 'check the file permissions');
  }
}

/** Lists concatenate; single values: later files win (SPEC §2). */
export function mergeSettings(list: Settings[]): Settings {
  const out: Settings = {};
  for (const s of list) {
    if (s.model !== undefined) out.model = s.model;
    if (s.env) out.env = { ...out.env, ...s.env };
    if (s.verify !== undefined) out.verify = s.verify;
    if (s.permissions) {
      const p = (out.permissions ??= {});
      for (const k of ['allow', 'deny', 'ask', 'additionalDirectories'] as const) {
        if (s.permissions[k]) p[k] = [...(p[k] ?? []), ...s.permissions[k]!];
      }
      if (s.permissions.defaultMode) p.defaultMode = s.permissions.defaultMode;
    }
    if (s.compaction) out.compaction = { ...out.compaction, ...s.compaction };
    if (s.modelContextWindow !== undefined) out.modelContextWindow = s.modelContextWindow;
    if (s.mcpServers) out.mcpServers = { ...out.mcpServers, ...s.mcpServers };
    if (s.sandbox) out.sandbox = mergeSandboxSettings(out.sandbox, s.sandbox);
    if (s.ui) out.ui = { ...out.ui, ...s.ui };
  }
  return out;
}

/** Loads every settings file and `--settings` (a file, or inline JSON starting with `{`). */
export function loadSettings(home: string, projectRoot: string, flag: string | undefined, cwd: string): LoadedSettings {
  const warnings: string[] = [];
  const sources: SettingsSource[] = [];
  for (const { file, scope } of settingsFiles(home, projectRoot)) {
    const text = readIfExists(file);
    if (text !== undefined) sources.push({ file, scope, ...parseSettingsSource(file, text, warnings) });
  }
  if (flag !== undefined) {
    if (flag.trim().startsWith('{')) {
      sources.push({ file: '--settings', scope: 'flag', ...parseSettingsSource('--settings (inline JSON)', flag, warnings) });
    } else {
      const file = resolve(cwd, flag);
      const text = readIfExists(file);
      if (text === undefined) throw new ConfigError(file, 1, 1, 'the --settings file does not exist', 'check the path given to --settings');
      sources.push({ file, scope: 'flag', ...parseSettingsSource(file, text, warnings) });
    }
  }
  return { sources, merged: mergeSettings(sources.map((s) => s.settings)), warnings };
}
