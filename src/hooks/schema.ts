import { z } from 'zod';

/** The events hooks can listen to (SPEC §4). Tool events take a matcher; the others ignore it. */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'PreCompact'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse']);

export const HookHandlerSchema = z.object({
  type: z.literal('command').describe('Only "command" hooks are supported'),
  command: z.string().min(1).describe('Shell command; runs in the project root with the event JSON on standard input'),
  timeout: z.number().positive().optional().describe('Seconds before the hook is killed (default 60)'),
  failClosed: z.boolean().optional().describe('A crash, timeout or any exit but 0 blocks instead of warning'),
}).loose();

export const HookGroupSchema = z.object({
  matcher: z.string().optional().describe('Tool name, A|B, or a regular expression matching the whole name; omitted, "" or "*" for all'),
  hooks: z.array(HookHandlerSchema),
}).loose();

/** Unknown event names are kept and reported as warnings by the loader, not errors. */
export const HooksSchema = z.record(z.string(), z.array(HookGroupSchema));

/** One hook as the runner sees it: flattened, with the file it came from. */
export interface HookSpec {
  event: HookEvent;
  matcher: string | undefined;
  command: string;
  timeoutMs: number;
  failClosed: boolean;
  source: string;
}

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
