import { join } from 'node:path';
import { guardedPaths as protectedPaths, type GuardedPath } from '../permissions/protected.ts';

/**
 * The protected paths of SPEC §11.16 that stay read-only inside the sandbox, even where the
 * sandbox lets commands write (the project): the one list the permission decision uses
 * (permissions/protected.ts: settings files, hook scripts, `.mcp.json`, `.git/hooks/`,
 * `.git/config`, shell start-up files…), plus the project's whole `.assistant/` folder, where hook
 * scripts and commands usually live. `extra`: the session's own (protected.ts `sessionGuards`).
 * A path ending in `/` is a directory.
 */
export function guardedPaths(projectRoot: string, home: string, extra: readonly GuardedPath[] = []): string[] {
  return [
    `${join(projectRoot, '.assistant')}/`,
    ...protectedPaths({ projectRoot, home, extra: [...extra] }).map((g) => (g.dir ? `${g.path}/` : g.path)),
  ];
}
