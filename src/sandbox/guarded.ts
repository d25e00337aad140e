import { join } from 'node:path';

const SHELL_STARTUP = ['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.config/fish/config.fish'];

/**
 * The protected paths of SPEC §11.16 that stay read-only inside the sandbox, even where the
 * sandbox lets commands write (the project): the settings files that hold hooks and rules (and
 * the project's whole `.assistant/` folder, where hook scripts and commands usually live), the
 * hook scripts they name, `.mcp.json`, `.git/hooks/`, `.git/config`, the shell start-up files.
 * A path ending in `/` is a directory.
 *
 * This mirrors `protectedFile` in permissions/modes.ts, which answers the same question one path
 * at a time for the permission decision; the two lists are meant to become one (the permission
 * side can take its list from here, or hand its list to `Sandbox` through `extra`).
 */
export function guardedPaths(projectRoot: string, home: string, extra: readonly string[] = []): string[] {
  const settings = [projectRoot, home].flatMap((d) => ['settings.json', 'settings.local.json'].map((f) => join(d, '.assistant', f)));
  return [
    // The whole folder: the settings, and the hook scripts and commands that usually live beside them.
    `${join(projectRoot, '.assistant')}/`,
    ...settings,
    join(projectRoot, '.mcp.json'),
    `${join(projectRoot, '.git', 'hooks')}/`,
    join(projectRoot, '.git', 'config'),
    ...SHELL_STARTUP.map((f) => join(home, f)),
    ...extra,
  ];
}
