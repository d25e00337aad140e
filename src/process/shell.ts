import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

let shellPath: string | undefined;

/**
 * The shell every child command runs in (the Bash tool, hooks, `` !`cmd` ``, verification): bash
 * from /bin, /usr/bin or PATH, else /bin/sh. Looked up once per process.
 */
export function findShell(): string {
  if (shellPath) return shellPath;
  const dirs = ['/bin', '/usr/bin', ...(process.env.PATH ?? '').split(':').filter(Boolean)];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, 'bash'), constants.X_OK);
      return (shellPath = join(dir, 'bash'));
    } catch {
      /* keep looking */
    }
  }
  return (shellPath = '/bin/sh');
}
