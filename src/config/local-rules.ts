import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFileSync } from '../fs/atomic-write.ts';
import { parseSettings } from './load.ts';

/** How long a session waits for another one's change of the file, and when a lock left by a crash is taken over. */
const LOCK_WAIT_MS = 5000;
const LOCK_STALE_MS = 10_000;

/**
 * Runs `fn` holding `<file>.lock` (created exclusively), so two sessions changing the file at once
 * take turns: each reads what the other wrote (no rule lost). A lock older than LOCK_STALE_MS was
 * left by a crash and is taken over.
 */
function withLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) unlinkSync(lock);
      else if (Date.now() > deadline) throw new Error(`${file} is being changed by another session (${lock} exists); try again`);
      else Atomics.wait(pause, 0, 0, 10);
    }
  }
  try {
    return fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {}
  }
}

/** Replaces `file` whole (temp file beside it, fsync, rename; a symlink's target is written, the mode kept): never half written. */

/**
 * Changes `.assistant/settings.local.json` through `edit` (given the file's JSON, changed in place),
 * keeping what the file holds. When the file is created, it is added to the project's `.gitignore`
 * (SPEC §2). Throws ConfigError if the existing file is broken: it is never overwritten blindly.
 * Sessions changing it at once take turns (a lock file), and it is replaced whole, never torn.
 * Returns the file.
 */
export function updateLocalSettings(projectRoot: string, edit: (json: Record<string, unknown>) => void): string {
  const file = join(projectRoot, '.assistant', 'settings.local.json');
  mkdirSync(join(projectRoot, '.assistant'), { recursive: true });
  return withLock(file, () => changeLocked(projectRoot, file, edit));
}

function changeLocked(projectRoot: string, file: string, edit: (json: Record<string, unknown>) => void): string {
  const existed = existsSync(file);
  const text = existed ? readFileSync(file, 'utf8') : '{}';
  parseSettings(file, text, []);
  const body = text.replace(/^\uFEFF/, '');
  const json = JSON.parse(body.trim() === '' ? '{}' : body) as Record<string, unknown>;
  edit(json);
  replaceFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
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
