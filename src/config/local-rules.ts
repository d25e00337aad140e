import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings } from './load.ts';

/**
 * Changes `.assistant/settings.local.json` through `edit` (given the file's JSON, changed in place),
 * keeping what the file holds. When the file is created, it is added to the project's `.gitignore`
 * (SPEC §2). Throws ConfigError if the existing file is broken: it is never overwritten blindly.
 * Returns the file.
 */
export function updateLocalSettings(projectRoot: string, edit: (json: Record<string, unknown>) => void): string {
  const file = join(projectRoot, '.assistant', 'settings.local.json');
  const existed = existsSync(file);
  const text = existed ? readFileSync(file, 'utf8') : '{}';
  parseSettings(file, text, []);
  const body = text.replace(/^\uFEFF/, '');
  const json = JSON.parse(body.trim() === '' ? '{}' : body) as Record<string, unknown>;
  edit(json);
  mkdirSync(join(projectRoot, '.assistant'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  if (!existed) {
    const gitignore = join(projectRoot, '.gitignore');
    const entry = '.assistant/settings.local.json';
    const current = existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '';
    if (!current.split('\n').some((l) => l.trim() === entry || l.trim() === `/${entry}`)) {
      appendFileSync(gitignore, `${current === '' || current.endsWith('\n') ? '' : '\n'}${entry}\n`);
    }
  }
  return file;
}

/** Adds allow rules to `.assistant/settings.local.json` (the "allow always" answer). */
export function addLocalAllowRules(projectRoot: string, rules: string[]): string {
  return updateLocalSettings(projectRoot, (json) => {
    const permissions = (json.permissions ??= {}) as { allow?: string[] };
    const allow = (permissions.allow ??= []);
    for (const r of rules) if (!allow.includes(r)) allow.push(r);
  });
}
