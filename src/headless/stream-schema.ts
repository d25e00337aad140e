import { z } from 'zod';

/**
 * The lines of `-p --output-format stream-json` (SPEC §10), one schema for the headless printer,
 * the SDK (src/sdk/) and callers in other languages (`npm run docs` writes
 * schema/stream-json.schema.json from it). Objects are open (`loose`): a line may gain fields, a
 * reader ignores what it does not know. Built by headless/format.ts.
 */

const sid = z.string().describe('The session id (also the transcript file name)');
const uuid = z.string().describe('A unique id of this line');

const UsageJson = z
  .object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    cache_read_input_tokens: z.number().optional(),
    cache_creation_input_tokens: z.number().optional(),
  })
  .loose();

const ImageSource = z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }).loose();
const TextBlock = z.object({ type: z.literal('text'), text: z.string() }).loose();
const ImageBlock = z.object({ type: z.literal('image'), source: ImageSource }).loose();
const ToolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }).loose();
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }).loose();
const ToolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(z.union([TextBlock, ImageBlock, z.object({ type: z.string() }).loose()]))]),
    is_error: z.boolean(),
  })
  .loose();
const OtherBlock = z.object({ type: z.string() }).loose();

export const SystemInitLine = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('init'),
    session_id: sid,
    cwd: z.string(),
    model: z.string(),
    permissionMode: z.enum(['default', 'plan', 'acceptEdits', 'bypassPermissions']).describe("Claude Code's name of the mode"),
    tools: z.array(z.string()),
    transcript_path: z.string(),
    mcp_servers: z
      .array(z.object({ name: z.string(), status: z.enum(['pending', 'connected', 'failed', 'disabled', 'needs-approval']) }))
      .optional()
      .describe(
        'Each configured MCP server and its state when the line was written (servers start in the background); an empty list when none is configured',
      ),
    uuid,
  })
  .loose()
  .describe('The first line: what the session runs with');

const AssistantLine = z
  .object({
    type: z.literal('assistant'),
    message: z
      .object({
        id: z.string(),
        type: z.literal('message'),
        role: z.literal('assistant'),
        model: z.string().optional(),
        stop_reason: z.enum(['tool_use', 'end_turn']),
        usage: UsageJson.optional(),
        content: z.array(z.union([TextBlock, ToolUseBlock, ThinkingBlock, OtherBlock])),
      })
      .loose(),
    parent_tool_use_id: z.string().nullable(),
    session_id: sid,
    uuid,
  })
  .loose()
  .describe("A model reply: text, thinking and tool calls, in Anthropic's shape");

const UserLine = z
  .object({
    type: z.literal('user'),
    message: z.object({ role: z.literal('user'), content: z.array(z.union([ToolResultBlock, TextBlock, ImageBlock, OtherBlock])) }).loose(),
    parent_tool_use_id: z.string().nullable(),
    session_id: sid,
    uuid,
  })
  .loose()
  .describe('Tool results (and, resumed, a user message) going back to the model');

const RetryLine = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('api_retry'),
    attempt: z.number(),
    max_retries: z.number(),
    retry_delay_ms: z.number(),
    error: z.string(),
    session_id: sid,
    uuid,
  })
  .loose();
const SandboxedLine = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('sandboxed'),
    tool_name: z.string(),
    tool_use_id: z.string(),
    auto_allowed: z.boolean(),
    reason: z.string().optional(),
    session_id: sid,
    uuid,
  })
  .loose();
const DeniedLine = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('permission_denied'),
    tool_name: z.string(),
    tool_use_id: z.string(),
    reason: z.string(),
    session_id: sid,
    uuid,
  })
  .loose();
const HookResponseLine = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('hook_response'),
    hook_event: z.string(),
    command: z.string(),
    source: z.string(),
    exit_code: z.number().nullable(),
    duration_ms: z.number(),
    outcome: z.enum(['ok', 'block', 'failed']),
    message: z.string().optional(),
    session_id: sid,
    uuid,
  })
  .loose();
const HookRunningLine = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('hook_running'),
    hook_event: z.string(),
    command: z.string(),
    session_id: sid,
    uuid,
  })
  .loose();
const VerificationLine = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('verification'),
    phase: z.enum(['start', 'end']),
    command: z.string(),
    attempt: z.number(),
    passed: z.boolean().optional(),
    exit_code: z.number().nullable().optional(),
    duration_ms: z.number().optional(),
    output: z.string().optional(),
    session_id: sid,
    uuid,
  })
  .loose();

const SystemEventLine = z
  .discriminatedUnion('subtype', [RetryLine, SandboxedLine, DeniedLine, HookResponseLine, HookRunningLine, VerificationLine])
  .describe('A retry, a sandboxed call, a refusal, a hook run or a verification step');

export const WarningLine = z
  .object({ type: z.literal('warning'), message: z.string(), session_id: sid, uuid })
  .loose()
  .describe('A warning (a failing hook, settings changed during the run…), also on standard error');

export const ResultLine = z
  .object({
    type: z.literal('result'),
    subtype: z.enum(['success', 'error_max_turns', 'error_verification', 'error_during_execution']),
    is_error: z.boolean(),
    duration_ms: z.number(),
    duration_api_ms: z.number(),
    num_turns: z.number(),
    result: z.string().describe('The answer, or the error'),
    stop_reason: z.string().optional(),
    session_id: sid,
    total_cost_usd: z.number(),
    usage: UsageJson,
    permission_denials: z.array(z.object({ tool_name: z.string(), tool_use_id: z.string(), tool_input: z.unknown() }).loose()),
    uuid,
    error: z.string().optional(),
  })
  .loose()
  .describe('The last line of a run (the SDK: of each prompt)');

/** Any stream-json line. */
export const StreamJsonLine = z.union([SystemInitLine, SystemEventLine, AssistantLine, UserLine, WarningLine, ResultLine]);

/** The JSON Schema of one line (schema/stream-json.schema.json). */
export function streamJsonSchema(): string {
  const schema = z.toJSONSchema(StreamJsonLine, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  const out = {
    $schema: schema.$schema,
    title: 'assistant stream-json line',
    description: "One line of `assistant -p --output-format stream-json`, and one message of the SDK's query() (docs/sdk.md).",
    ...schema,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
