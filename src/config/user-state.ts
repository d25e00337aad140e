import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { replaceFileSync } from '../fs/atomic-write.ts';

/**
 * The user's own state, `~/.assistant/state.json`: what the program remembers for the user across
 * sessions and projects (trusted folders, notices already shown). Never kept in a project, so a
 * cloned repository cannot change it. Not settings: nothing here is meant to be edited by hand.
 */
const StateSchema = z.looseObject({
  trustedFolders: z.array(z.string()).optional(),
  /** Notices that are shown once (per text, which names the project file concerned). */
  shownNotices: z.array(z.string()).optional(),
});
type UserState = z.infer<typeof StateSchema>;

export const statePath = (home: string) => join(home, '.assistant', 'state.json');

/** The state; an unreadable or malformed file counts as empty. */
export function readState(home: string): UserState {
  try {
    const parsed = StateSchema.safeParse(JSON.parse(readFileSync(statePath(home), 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Applies `change` to the state and writes it atomically (keys it does not know are kept). */
export function updateState(home: string, change: (s: UserState) => UserState): void {
  const file = statePath(home);
  mkdirSync(dirname(file), { recursive: true });
  replaceFileSync(file, `${JSON.stringify(change(readState(home)), null, 2)}\n`);
}

/** The notices not shown before, which are now remembered as shown. Never throws (a read-only HOME shows them again). */
export function firstTimeNotices(home: string, notices: readonly string[]): string[] {
  if (notices.length === 0) return [];
  const seen = new Set(readState(home).shownNotices ?? []);
  const fresh = notices.filter((n) => !seen.has(n));
  if (fresh.length) {
    try {
      updateState(home, (s) => ({ ...s, shownNotices: [...seen, ...fresh] }));
    } catch {
      /* shown again next time */
    }
  }
  return fresh;
}
