import { z } from 'zod';
import { SETTINGS_MODE_NAMES } from '../permissions/mode-names.ts';
import { AssistantError } from './errors.ts';
import type { Options } from './public.ts';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'must be a function');
const strings = z.array(z.string());

const HookMatcher = z
  .object({
    matcher: z.string().optional(),
    hooks: z.array(fn),
    timeout: z.number().positive().optional(),
    failClosed: z.boolean().optional(),
  })
  .strict();

/** The options of query(), checked before anything runs: a mistake is an AssistantError naming the option. */
export const OptionsSchema = z
  .object({
    cwd: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    // Claude Agent SDK's names are accepted too, as on the command line.
    permissionMode: z.enum(SETTINGS_MODE_NAMES).optional(),
    allowedTools: strings.optional(),
    disallowedTools: strings.optional(),
    maxTurns: z.number().int().positive().optional(),
    settings: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    addDirs: strings.optional(),
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    verify: z.string().optional(),
    resume: z.string().min(1).optional(),
    continue: z.boolean().optional(),
    appendSystemPrompt: z.string().optional(),
    env: z.record(z.string(), z.string()).optional(),
    sandbox: z.boolean().optional(),
    thinking: z.enum(['off', 'low', 'medium', 'high']).optional(),
    canUseTool: fn.optional(),
    hooks: z
      .partialRecord(
        z.enum([
          'PreToolUse',
          'PostToolUse',
          'Notification',
          'Stop',
          'UserPromptSubmit',
          'SessionStart',
          'SessionEnd',
          'PreCompact',
          'SubagentStop',
        ]),
        z.array(HookMatcher),
      )
      .optional(),
    abortController: z.custom<AbortController>((v) => v instanceof AbortController, 'must be an AbortController').optional(),
    signal: z.custom<AbortSignal>((v) => v instanceof AbortSignal, 'must be an AbortSignal').optional(),
  })
  .strict();

/** Checks query()'s options; throws AssistantError (kind `options`) listing every problem. */
export function checkOptions(options: unknown): Options {
  const r = OptionsSchema.safeParse(options ?? {});
  if (r.success) return (options as Options) ?? {};
  const issues = r.error.issues.map((i) => ({
    path: i.path.join('.') || '(options)',
    message: i.code === 'unrecognized_keys' ? `unknown option${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}` : i.message,
  }));
  throw new AssistantError('options', `Bad query() options: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, 2, issues);
}
