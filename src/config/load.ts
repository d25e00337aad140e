import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, lineColumn, locatePath } from './errors.ts';
import { KNOWN_KEYS, SettingsSchema, type Settings } from './schema.ts';

export interface SettingsSource { file: string; scope: 'user' | 'project' | 'local' | 'flag'; settings: Settings }

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

/** The offset of a comma right before `]` or `}` outside strings, the most common JSON mistake. */
function trailingComma(text: string): number | undefined {
  const masked = text.replace(/"(?:[^"\\\n]|\\.)*"/g, (s) => ' '.repeat(s.length));
  const m = /,(\s*)[\]}]/.exec(masked);
  return m ? m.index : undefined;
}

function jsonErrorOffset(message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** Parses one settings text; throws ConfigError naming file, line, column and the fix. */
export function parseSettings(file: string, text: string, warnings: string[]): Settings {
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    // V8 sometimes quotes the text instead of giving a position ("Unexpected token ']', "…" is not valid JSON").
    const msg = (e as Error).message.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position.*$/s, '');
    const trailing = trailingComma(text);
    if (trailing !== undefined) {
      const { line, column } = lineColumn(text, trailing);
      throw new ConfigError(file, line, column, 'not valid JSON: a trailing comma', 'remove the comma after the last item (JSON allows none)');
    }
    const full = (e as Error).message;
    const lc = /line (\d+) column (\d+)/.exec(full);
    const { line, column } = lc ? { line: Number(lc[1]), column: Number(lc[2]) } : lineColumn(text, jsonErrorOffset(full) ?? text.length);
    throw new ConfigError(file, line, column, `not valid JSON (${msg})`,
      'correct the JSON syntax there (a missing comma or quote, a trailing comma, or a comment, which JSON does not allow)');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ConfigError(file, 1, 1, 'the settings must be a JSON object', 'wrap the settings in { … }');
  }
  const parsed = SettingsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const { line, column } = locatePath(text, issue.path);
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'the settings';
    throw new ConfigError(file, line, column, `${where}: ${issue.message}`, fixFor(issue));
  }
  for (const key of Object.keys(json)) {
    if (!KNOWN_KEYS.has(key)) {
      const { line, column } = locatePath(text, [key]);
      warnings.push(`${file}:${line}:${column}: unknown key "${key}" is ignored`);
    }
  }
  return parsed.data;
}

function fixFor(issue: z.core.$ZodIssue): string {
  const path = issue.path.join('.');
  if (issue.code === 'invalid_value' && 'values' in issue) return `use one of: ${(issue.values as unknown[]).map(String).join(', ')}`;
  if (issue.code === 'invalid_type') return `make ${path || 'it'} a ${issue.expected}`;
  return 'see docs/configuration.md for the settings format';
}

function readIfExists(file: string): string | undefined {
  try { return readFileSync(file, 'utf8'); } catch (e) {
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
    if (s.mcpServers) out.mcpServers = { ...out.mcpServers, ...s.mcpServers };
  }
  return out;
}

/** Loads every settings file and `--settings` (a file, or inline JSON starting with `{`). */
export function loadSettings(home: string, projectRoot: string, flag: string | undefined, cwd: string): LoadedSettings {
  const warnings: string[] = [];
  const sources: SettingsSource[] = [];
  for (const { file, scope } of settingsFiles(home, projectRoot)) {
    const text = readIfExists(file);
    if (text !== undefined) sources.push({ file, scope, settings: parseSettings(file, text, warnings) });
  }
  if (flag !== undefined) {
    if (flag.trim().startsWith('{')) {
      sources.push({ file: '--settings', scope: 'flag', settings: parseSettings('--settings (inline JSON)', flag, warnings) });
    } else {
      const file = resolve(cwd, flag);
      const text = readIfExists(file);
      if (text === undefined) throw new ConfigError(file, 1, 1, 'the --settings file does not exist', 'check the path given to --settings');
      sources.push({ file, scope: 'flag', settings: parseSettings(file, text, warnings) });
    }
  }
  return { sources, merged: mergeSettings(sources.map((s) => s.settings)), warnings };
}
