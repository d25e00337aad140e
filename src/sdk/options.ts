import { z } from 'zod';
import { SETTINGS_MODE_NAMES } from '../permissions/mode-names.ts';
import { HOOK_EVENTS } from '../hooks/schema.ts';
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
    hooks: z.partialRecord(z.enum(HOOK_EVENTS), z.array(HookMatcher)).optional(),
    abortController: z.custom<AbortController>((v) => v instanceof AbortController, 'must be an AbortController').optional(),
    signal: z.custom<AbortSignal>((v) => v instanceof AbortSignal, 'must be an AbortSignal').optional(),
  })
  .strict();

/**
 * Claude Agent SDK options with another name here (SPEC §15: code ports with a rename, so the old
 * name keeps working), and those with no effect here: accepted, each named in a warning.
 */
const RENAMED: Record<string, keyof Options> = { additionalDirectories: 'addDirs' };
const NO_EFFECT = new Set([
  'settingSources',
  'includePartialMessages',
  'pathToClaudeCodeExecutable',
  'executable',
  'executableArgs',
  'extraArgs',
  'stderr',
  'fallbackModel',
  'permissionPromptToolName',
  'strictMcpConfig',
  'forkSession',
  'maxThinkingTokens',
  'agents',
]);

/** Claude Agent SDK names mapped to ours, and warnings for options that do nothing here. */
export function portOptions(options: unknown): { options: unknown; notes: string[] } {
  if (!options || typeof options !== 'object' || Array.isArray(options)) return { options, notes: [] };
  const out: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  const notes: string[] = [];
  for (const [from, to] of Object.entries(RENAMED)) {
    if (!(from in out)) continue;
    if (!(to in out)) out[to] = out[from];
    delete out[from];
  }
  for (const k of Object.keys(out)) {
    if (!NO_EFFECT.has(k)) continue;
    delete out[k];
    notes.push(`query() option ${k} (Claude Agent SDK) has no effect here and was ignored.`);
  }
  return { options: out, notes };
}

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
