import type { GuardedPath } from '../permissions/protected.ts';
import type { RuleSet } from '../permissions/rules.ts';
import { checkSandbox, type Availability } from './availability.ts';
import { sandboxConfig } from './config.ts';
import { guardedPaths } from './guarded.ts';
import { Sandbox } from './sandbox.ts';
import type { SandboxSettings } from './settings.ts';

interface OpenInput {
  /** `--sandbox` (true), `--no-sandbox` (false), neither (undefined). */
  flag: boolean | undefined;
  settings: SandboxSettings | undefined;
  projectRoot: string;
  home: string;
  additionalDirs: readonly string[];
  rules: RuleSet;
  /** The session's protected paths (hook scripts the settings name, `--settings FILE`, git's directories). */
  protectedExtra?: readonly GuardedPath[];
  env?: NodeJS.ProcessEnv;
  /** For tests: a known answer instead of probing this machine. */
  availability?: Availability;
}

type OpenResult =
  | { kind: 'off' }
  | { kind: 'on'; sandbox: Sandbox; warnings: string[] }
  /** Asked for and impossible here: `fatal` for `--sandbox` and `failIfUnavailable` (exit 2), else one warning and no sandbox. */
  | { kind: 'unavailable'; fatal: boolean; message: string };

/**
 * Whether this session's Bash commands run in the sandbox (SPEC §13): `--sandbox` / `--no-sandbox`
 * over `sandbox.enabled`. When it is asked for and cannot run here, `--sandbox` stops the start
 * (and so does `failIfUnavailable`); the setting alone gives one warning and a session that asks
 * for every Bash command as before, never one that auto-allows unsandboxed.
 */
export async function openSandbox(o: OpenInput): Promise<OpenResult> {
  const wanted = o.flag ?? o.settings?.enabled ?? false;
  if (!wanted) return { kind: 'off' };
  const byFlag = o.flag === true;
  const avail = o.availability ?? (await checkSandbox(o.env));
  if (!avail.ok) {
    return byFlag || o.settings?.failIfUnavailable
      ? {
          kind: 'unavailable',
          fatal: true,
          message: `${byFlag ? '--sandbox' : 'sandbox.failIfUnavailable'}: the sandbox cannot run here: ${avail.problem}. To fix: ${avail.fix}.`,
        }
      : {
          kind: 'unavailable',
          fatal: false,
          message: `sandbox.enabled is set, but the sandbox cannot run here: ${avail.problem}. Bash commands run without it and ask for permission as usual. To fix: ${avail.fix}.`,
        };
  }
  const config = sandboxConfig({
    settings: o.settings,
    projectRoot: o.projectRoot,
    home: o.home,
    additionalDirs: o.additionalDirs,
    rules: o.rules,
  });
  const guarded = guardedPaths(o.projectRoot, o.home, o.protectedExtra);
  return {
    kind: 'on',
    sandbox: new Sandbox(config, avail, { projectRoot: o.projectRoot, home: o.home, guarded }),
    warnings: config.problems,
  };
}
