import { z } from 'zod';

/**
 * The shape of one transcript line (transcript.ts), checked on every read: a line that is valid
 * JSON but not an entry (`null`, a message without a body, a string where parts are expected) is
 * skipped and counted, never handed to code that would trip over it. Objects are `loose`: fields
 * added later (or by providers' metadata) pass through untouched.
 */

const Usage = z
  .object({ inputTokens: z.number(), outputTokens: z.number(), cacheReadTokens: z.number(), cacheWriteTokens: z.number() })
  .loose();
const ProviderOptions = z.record(z.string(), z.unknown()).optional();

const Text = z.object({ type: z.literal('text'), text: z.string() }).loose();
const File = z.object({ type: z.literal('file'), data: z.unknown(), mediaType: z.string().optional() }).loose();
const Reasoning = z.object({ type: z.literal('reasoning'), text: z.string() }).loose();
const ToolCall = z.object({ type: z.literal('tool-call'), toolCallId: z.string(), toolName: z.string(), input: z.unknown() }).loose();
const ToolResult = z
  .object({
    type: z.literal('tool-result'),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.object({ type: z.string() }).loose(),
  })
  .loose();
/** Part kinds the AI SDK defines that this program never writes itself: accepted as they are. */
const Other = (type: string) => z.object({ type: z.literal(type) }).loose();

const MessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string(), providerOptions: ProviderOptions }).loose(),
  z
    .object({ role: z.literal('user'), content: z.array(z.discriminatedUnion('type', [Text, File])), providerOptions: ProviderOptions })
    .loose(),
  z
    .object({
      role: z.literal('assistant'),
      content: z.array(
        z.discriminatedUnion('type', [Text, File, Reasoning, ToolCall, ToolResult, Other('custom'), Other('reasoning-file')]),
      ),
      providerOptions: ProviderOptions,
    })
    .loose(),
  z
    .object({
      role: z.literal('tool'),
      content: z.array(z.discriminatedUnion('type', [ToolResult, Other('tool-approval-response')])),
      providerOptions: ProviderOptions,
    })
    .loose(),
]);

const stamp = { timestamp: z.string() };

export const TranscriptEntrySchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('session'),
      sessionId: z.string(),
      cwd: z.string(),
      model: z.string(),
      version: z.string(),
      resumed: z.boolean().optional(),
      ...stamp,
    })
    .loose(),
  z.object({ type: z.literal('message'), message: MessageSchema, usage: Usage.optional(), ...stamp }).loose(),
  z
    .object({
      type: z.literal('checkpoint'),
      prompt: z.number().int(),
      path: z.string(),
      backup: z.string().nullable(),
      mode: z.number().int().optional(),
      ...stamp,
    })
    .loose(),
  z.object({ type: z.literal('compact'), trigger: z.enum(['manual', 'auto']), summary: z.string(), ...stamp }).loose(),
  z.object({ type: z.literal('rewind'), prompt: z.number().int().nonnegative(), ...stamp }).loose(),
  z
    .object({
      type: z.literal('result'),
      status: z.string(),
      turns: z.number(),
      usage: Usage,
      costUsd: z.number(),
      error: z.string().optional(),
      ...stamp,
    })
    .loose(),
  z.object({ type: z.literal('tool-result'), result: ToolResult, ...stamp }).loose(),
  z.object({ type: z.literal('file-state'), path: z.string(), mtimeMs: z.number(), size: z.number(), ...stamp }).loose(),
  z
    .object({
      type: z.literal('verify'),
      command: z.string(),
      attempt: z.number(),
      passed: z.boolean(),
      exitCode: z.number().nullable(),
      durationMs: z.number(),
      output: z.string(),
      ...stamp,
    })
    .loose(),
  z
    .object({
      type: z.literal('subagent'),
      toolUseId: z.string(),
      agent: z.string(),
      agentId: z.string(),
      path: z.string(),
      status: z.string(),
      turns: z.number(),
      usage: Usage,
      ...stamp,
    })
    .loose(),
  z
    .object({
      type: z.literal('hook'),
      event: z.string(),
      command: z.string(),
      source: z.string(),
      exitCode: z.number().nullable(),
      outcome: z.enum(['ok', 'block', 'failed']),
      durationMs: z.number(),
      message: z.string().optional(),
      ...stamp,
    })
    .loose(),
]);
