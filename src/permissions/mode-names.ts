/**
 * The one table of permission-mode names (SPEC §5): our name of each mode, Claude Code's (hook
 * input `permission_mode`, stream-json `system/init`, the Agent SDK) and the other spellings the
 * command line takes. Everything that names a mode — parsing, the settings and SDK schemas, what
 * hooks are told — derives from it. A leaf (no imports), so schemas can use it; gate.ts exports it.
 */
const MODE_TABLE = {
  plan: { claude: 'plan', aliases: [] },
  normal: { claude: 'default', aliases: [] },
  'auto-accept': { claude: 'acceptEdits', aliases: ['autoAccept', 'accept-edits'] },
  bypass: { claude: 'bypassPermissions', aliases: [] },
} as const satisfies Record<string, { claude: string; aliases: readonly string[] }>;

export type PermissionMode = keyof typeof MODE_TABLE;

/** Our names, in the order they are listed to people. */
export const MODES = Object.keys(MODE_TABLE) as PermissionMode[];

/** The names Claude Code uses (hook input `permission_mode`, and accepted on the command line). */
export const CLAUDE_MODE_NAMES = Object.fromEntries(MODES.map((m) => [m, MODE_TABLE[m].claude])) as {
  readonly [M in PermissionMode]: (typeof MODE_TABLE)[M]['claude'];
};

/** The names settings (`permissions.defaultMode`) and the SDK's `permissionMode` take: ours, then Claude Code's. */
export const SETTINGS_MODE_NAMES = [...new Set<string>([...MODES, ...MODES.map((m) => MODE_TABLE[m].claude)])] as [string, ...string[]];

/** Every spelling `--permission-mode` takes, each with its mode. */
const SPELLINGS = new Map<string, PermissionMode>(
  MODES.flatMap((m) => [[m, m], [MODE_TABLE[m].claude, m], ...MODE_TABLE[m].aliases.map((a): [string, PermissionMode] => [a, m])]),
);

/** The mode a name spells (blanks around it ignored); undefined when it names none. */
export function parseMode(raw: string): PermissionMode | undefined {
  return SPELLINGS.get(raw.trim());
}

/** Every accepted spelling, for messages and tests. */
export const MODE_SPELLINGS: readonly string[] = [...SPELLINGS.keys()];
