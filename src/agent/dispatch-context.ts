import { join } from 'node:path';
import type { DispatchContext } from '../commands/dispatch.ts';
import { collectHooks } from '../hooks/config.ts';
import { HookEngine } from '../hooks/engine.ts';
import { CLAUDE_MODE_NAMES } from '../permissions/gate.ts';
import { projectDir } from '../session/transcript.ts';
import { bangCommandHook } from './hook-seams.ts';
import type { Session } from './session.ts';
import { rulesOf } from './settings-reload.ts';
import { SetupError, setupGuards, type Setup } from './setup.ts';

/**
 * The dispatcher's context in an open session (terminal UI, SDK): a command's `` !`cmd` `` is
 * decided under the session's mode, rules and protected paths, and meets its PreToolUse hooks.
 */
export function sessionDispatchContext(session: Session, setup: Setup, signal: AbortSignal): DispatchContext {
  return {
    cwd: setup.cwd,
    home: setup.home,
    signal,
    permissions: () => ({
      mode: session.gate.mode,
      additionalDirs: setup.additionalDirs,
      rules: session.gate.rules,
      guarded: session.gate.guarded,
    }),
    hook: (command, sig) => bangCommandHook(session.hooks, command, sig),
  };
}

/**
 * The dispatcher's context before the session opens (headless: what the line asks for decides how
 * the session is set up). The same permissions and hooks as `sessionDispatchContext`, read from
 * the set-up; `sessionId`: the id the session will have, which the hooks see; `warn`: the hooks' warnings.
 */
export function setupDispatchContext(
  setup: Setup,
  sessionId: string,
  signal: AbortSignal,
  warn: (message: string) => void = () => {},
): DispatchContext {
  const { cwd, home } = setup;
  let hooks: HookEngine | undefined;
  return {
    cwd,
    home,
    signal,
    permissions: () => {
      const built = rulesOf(setup.settings.sources, setup.opts);
      if (built.errors.length) throw new SetupError(2, `Bad permission rules:\n  ${built.errors.join('\n  ')}`);
      return { mode: setup.mode, additionalDirs: setup.additionalDirs, rules: built.rules, guarded: setupGuards(setup) };
    },
    hook: (command, sig) => {
      hooks ??= new HookEngine(collectHooks(setup.settings.sources).hooks, {
        projectDir: cwd,
        sessionId,
        transcriptPath: join(projectDir(home, cwd), `${sessionId}.jsonl`),
        env: setup.env,
        permissionMode: () => CLAUDE_MODE_NAMES[setup.mode],
        emit: (r) => {
          if (r.type === 'warning') warn(r.message);
        },
      });
      return bangCommandHook(hooks, command, sig);
    },
  };
}
