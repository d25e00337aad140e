import { MODES, parseMode, type PermissionMode } from '../permissions/gate.ts';
import { MODE_NAMES } from '../recipes/schema.ts';

export { CLAUDE_MODE_NAMES } from '../permissions/gate.ts';

/** The modes a person may switch to: bypass only in a session started in it (never switched on mid-session). */
export function selectableModes(startedInBypass: boolean): PermissionMode[] {
  return MODES.filter((m) => m !== 'bypass' || startedInBypass);
}

/** `/mode NAME`: the mode it names, or why it cannot be switched to. */
export function modeNamed(name: string, startedInBypass: boolean): { mode: PermissionMode } | { error: string } {
  const mode = parseMode(name);
  if (!mode) return { error: `"${name}" is not a mode. Use one of: ${MODES.join(', ')}.` };
  if (mode === 'bypass' && !startedInBypass)
    return {
      error: 'Bypass mode is not switched on during a session. Start one in it: assistant --permission-mode bypass (for sandboxes and CI).',
    };
  return { mode };
}

/** How a recipe names the mode it runs in (SPEC §7). */
export function recipeModeName(mode: PermissionMode): string {
  return MODE_NAMES[mode as keyof typeof MODE_NAMES];
}
