import { z } from 'zod';

const paths = (what: string) => z.array(z.string()).optional().describe(what);

/**
 * The `sandbox` key of a settings file (SPEC §13), in Claude Code's shape. Paths are written like
 * permission rule patterns: `//abs` from the filesystem root, `~/x` from the home directory, and
 * `x`, `./x`, `/x` from the project root (docs/sandbox.md).
 */
export const SandboxSettingsSchema = z.object({
  enabled: z
    .boolean()
    .optional()
    .describe('Run every Bash command inside the OS sandbox (docs/sandbox.md); --sandbox / --no-sandbox override it for one run'),
  failIfUnavailable: z
    .boolean()
    .optional()
    .describe('When the sandbox cannot run here, stop at start (exit 2) instead of warning and asking for every Bash command'),
  autoAllowBashIfSandboxed: z
    .boolean()
    .optional()
    .describe(
      'In Normal and Auto-Accept modes, run a Bash command that no rule denies or asks about inside the sandbox without asking (default true)',
    ),
  allowUnsandboxedCommands: z
    .boolean()
    .optional()
    .describe(
      'Let the model retry a command outside the sandbox (dangerouslyDisableSandbox), which asks the user as usual (default false)',
    ),
  excludedCommands: z
    .array(z.string())
    .optional()
    .describe(
      'Commands that always run outside the sandbox and ask as usual, written like Bash rules: "docker", "docker:*", "npm run e2e"',
    ),
  filesystem: z
    .object({
      allowWrite: paths(
        'More places sandboxed commands may write, beside the project, its additional directories and the session\'s temp directory, e.g. "~/.npm"',
      ),
      denyWrite: paths('Places sandboxed commands may not write even inside the project (gitignore-style patterns allowed)'),
      denyRead: paths(
        'Places sandboxed commands may not read, beside ~/.ssh, ~/.aws, ~/.gnupg and ~/.config/gcloud (gitignore-style patterns allowed)',
      ),
    })
    .optional()
    .describe('What sandboxed commands may read and write'),
  network: z
    .object({
      allowedDomains: paths(
        'Hosts sandboxed commands may reach through the sandbox\'s proxy: "example.com", "*.example.com", "localhost:3000"',
      ),
      allowUnixSockets: paths(
        'macOS only (accepted for Claude Code settings): Unix sockets to allow; Linux cannot tell sockets apart, see allowAllUnixSockets',
      ),
      allowAllUnixSockets: z
        .boolean()
        .optional()
        .describe('Let sandboxed commands open Unix sockets (off: the kernel refuses them, so no local daemon can be reached)'),
      allowLocalBinding: z
        .boolean()
        .optional()
        .describe('Accepted for Claude Code settings; on Linux a sandboxed command may always listen on its own loopback'),
    })
    .optional()
    .describe('Which hosts sandboxed commands may reach'),
});
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;

const cat = (a: string[] | undefined, b: string[] | undefined) => (a || b ? [...(a ?? []), ...(b ?? [])] : undefined);

/** Lists concatenate; single values: later files win (SPEC §2). */
export function mergeSandboxSettings(into: SandboxSettings | undefined, s: SandboxSettings): SandboxSettings {
  const a = into ?? {};
  const out: SandboxSettings = { ...a };
  for (const k of ['enabled', 'failIfUnavailable', 'autoAllowBashIfSandboxed', 'allowUnsandboxedCommands'] as const) {
    if (s[k] !== undefined) out[k] = s[k];
  }
  if (s.excludedCommands) out.excludedCommands = cat(a.excludedCommands, s.excludedCommands);
  if (s.filesystem) {
    const f = a.filesystem ?? {};
    out.filesystem = {
      allowWrite: cat(f.allowWrite, s.filesystem.allowWrite),
      denyWrite: cat(f.denyWrite, s.filesystem.denyWrite),
      denyRead: cat(f.denyRead, s.filesystem.denyRead),
    };
  }
  if (s.network) {
    const n = a.network ?? {};
    out.network = {
      allowedDomains: cat(n.allowedDomains, s.network.allowedDomains),
      allowUnixSockets: cat(n.allowUnixSockets, s.network.allowUnixSockets),
      allowAllUnixSockets: s.network.allowAllUnixSockets ?? n.allowAllUnixSockets,
      allowLocalBinding: s.network.allowLocalBinding ?? n.allowLocalBinding,
    };
  }
  return out;
}
