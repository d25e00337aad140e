import { z } from 'zod';
import { regexError } from './matcher.ts';

/** The events hooks can listen to (SPEC §4). Tool events take a matcher; the others ignore it. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'Notification',
  'Stop',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'SubagentStop',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse']);

const HookHandlerSchema = z
  .object({
    type: z.literal('command').describe('Only "command" hooks are supported'),
    command: z.string().min(1).describe('Shell command; runs in the project root with the event JSON on standard input'),
    timeout: z.number().positive().optional().describe('Seconds before the hook is killed (default 60)'),
    failClosed: z.boolean().optional().describe('A crash, timeout or any exit but 0 blocks instead of warning'),
  })
  .loose();

/**
 * An invalid regular expression is a settings error (exit 2 with file:line:column), not a warning:
 * the group would never run, and it may hold the guards (SPEC §2).
 */
const MatcherSchema = z.string().superRefine((matcher, ctx) => {
  const why = regexError(matcher);
  if (why !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `"${matcher}" is not a valid regular expression (${why}), so the hooks of this group could never run; write a tool name ("Bash"), names joined by | ("Edit|Write"), or a valid regular expression (escape a literal ( ) [ ] { } with \\)`,
    });
  }
});

const HookGroupSchema = z
  .object({
    matcher: MatcherSchema.optional().describe(
      'Tool name, A|B, or a regular expression matching the whole name; omitted, "" or "*" for all',
    ),
    failClosed: z.boolean().optional().describe('Every hook of the group is failClosed (as if each entry said so)'),
    hooks: z.array(HookHandlerSchema),
  })
  .loose();

/** Unknown event names are kept and reported as warnings by the loader, not errors. */
export const HooksSchema = z.record(z.string(), z.array(HookGroupSchema));
/** The `hooks` of one settings file. */
export type HooksSettings = z.infer<typeof HooksSchema>;

/** One hook as the runner sees it: flattened, with the file it came from. */
export interface HookSpec {
  event: HookEvent;
  matcher: string | undefined;
  command: string;
  timeoutMs: number;
  failClosed: boolean;
  source: string;
  /** A JavaScript hook of the SDK (hooks/function-runner.ts) instead of a shell command; `command` is its label. */
  fn?: HookFunction;
}

/** A hook as a function (the SDK): the event's input in, a hook's JSON output (or nothing) out. */
export type HookFunction = (input: Record<string, unknown>, toolUseId: string | undefined, options: { signal: AbortSignal }) => unknown;

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
