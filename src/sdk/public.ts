/**
 * The SDK's public types (`import { query, type Options } from 'assistant-code'`). This file has no
 * imports, so the build emits it as one self-contained dist/sdk.d.ts (scripts/build.mjs); the
 * implementation (query.ts) is checked against it, and the message types against the stream-json
 * schemas (headless/stream-schema.ts) by the type checker. Docs: docs/sdk.md.
 */

export type PermissionMode = 'plan' | 'normal' | 'auto-accept' | 'bypass';

// ── messages: the lines of `-p --output-format stream-json` (schema/stream-json.schema.json) ──

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** The blocks of a message (a line may carry a block of another type, which a reader skips). */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'tool_result'; tool_use_id: string; content: string | Array<{ type: string; [k: string]: unknown }>; is_error: boolean }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

/** The first message: what the session runs with. */
export interface SDKSystemInitMessage {
  type: 'system';
  subtype: 'init';
  session_id: string;
  cwd: string;
  model: string;
  /** Claude Code's names: `default` (normal), `plan`, `acceptEdits` (auto-accept), `bypassPermissions`. */
  permissionMode: 'default' | 'plan' | 'acceptEdits' | 'bypassPermissions';
  tools: string[];
  transcript_path: string;
  /** Each configured MCP server and its state then (they start in the background); absent when none is configured. */
  mcp_servers?: Array<{ name: string; status: 'pending' | 'connected' | 'failed' | 'disabled' | 'needs-approval' }>;
  uuid: string;
}

/** A model reply (text, thinking, tool calls), in Anthropic's shape. */
export interface SDKAssistantMessage {
  type: 'assistant';
  message: {
    id: string;
    type: 'message';
    role: 'assistant';
    model?: string;
    stop_reason: 'tool_use' | 'end_turn';
    usage?: Usage;
    content: ContentBlock[];
  };
  parent_tool_use_id: string | null;
  session_id: string;
  uuid: string;
}

/** Tool results going back to the model. */
export interface SDKUserMessageEvent {
  type: 'user';
  message: { role: 'user'; content: ContentBlock[] };
  parent_tool_use_id: string | null;
  session_id: string;
  uuid: string;
}

/** A retry, a sandboxed call, a refused call, a hook run, a slow hook, a verification step. */
export type SDKSystemEventMessage = { type: 'system'; session_id: string; uuid: string } & (
  | { subtype: 'api_retry'; attempt: number; max_retries: number; retry_delay_ms: number; error: string }
  | { subtype: 'sandboxed'; tool_name: string; tool_use_id: string; auto_allowed: boolean; reason?: string }
  | { subtype: 'permission_denied'; tool_name: string; tool_use_id: string; reason: string }
  | {
      subtype: 'hook_response';
      hook_event: string;
      command: string;
      source: string;
      exit_code: number | null;
      duration_ms: number;
      outcome: 'ok' | 'block' | 'failed';
      message?: string;
    }
  | { subtype: 'hook_running'; hook_event: string; command: string }
  | {
      subtype: 'verification';
      phase: 'start' | 'end';
      command: string;
      attempt: number;
      passed?: boolean;
      exit_code?: number | null;
      duration_ms?: number;
      output?: string;
    }
);

export interface SDKWarningMessage {
  type: 'warning';
  message: string;
  session_id: string;
  uuid: string;
}

/** The last message of each prompt. */
export interface SDKResultMessage {
  type: 'result';
  subtype: 'success' | 'error_max_turns' | 'error_verification' | 'error_during_execution';
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  /** The answer, or the error. */
  result: string;
  /** A hook said `continue: false`: its reason. */
  stop_reason?: string;
  session_id: string;
  total_cost_usd: number;
  usage: Usage;
  permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
  uuid: string;
  error?: string;
}

export type SDKMessage =
  | SDKSystemInitMessage
  | SDKSystemEventMessage
  | SDKAssistantMessage
  | SDKUserMessageEvent
  | SDKWarningMessage
  | SDKResultMessage;

// ── input ──

/** One user message of a streamed (multi-turn) prompt. */
export interface SDKUserMessage {
  type: 'user';
  message: { role: 'user'; content: string | Array<{ type: 'text'; text: string }> };
  parent_tool_use_id?: string | null;
  session_id?: string;
}

// ── callbacks ──

export type PermissionResult = { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string };

/** Called where a terminal would ask (SPEC §5). `reason`: why it asks. */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: { signal: AbortSignal; reason: string; remedy?: string },
) => Promise<PermissionResult> | PermissionResult;

export type HookEvent =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'Notification'
  | 'Stop'
  | 'UserPromptSubmit'
  | 'SessionStart'
  | 'SessionEnd'
  | 'PreCompact'
  | 'SubagentStop';

/** What every hook input has (the shell hooks' standard input, docs/hooks.md). */
export interface BaseHookInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  /** Claude Code's name of the mode (`default`, `plan`, `acceptEdits`, `bypassPermissions`); the tool and prompt events. */
  permission_mode?: string;
  prompt_id?: string;
  /** Inside a subagent (SPEC §14): which one (tool events and SubagentStop). */
  agent_id?: string;
  agent_type?: string;
}
export interface PreToolUseHookInput extends BaseHookInput {
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input: Record<string, any>;
  tool_use_id: string;
}
export interface PostToolUseHookInput extends BaseHookInput {
  hook_event_name: 'PostToolUse';
  tool_name: string;
  tool_input: Record<string, any>;
  tool_use_id: string;
  tool_response: any;
}
export interface NotificationHookInput extends BaseHookInput {
  hook_event_name: 'Notification';
  message: string;
  notification_type: string;
}
export interface StopHookInput extends BaseHookInput {
  hook_event_name: 'Stop';
  stop_hook_active: boolean;
}
export interface UserPromptSubmitHookInput extends BaseHookInput {
  hook_event_name: 'UserPromptSubmit';
  prompt: string;
}
export interface SessionStartHookInput extends BaseHookInput {
  hook_event_name: 'SessionStart';
  source: 'startup' | 'resume' | 'clear' | 'compact';
}
export interface SessionEndHookInput extends BaseHookInput {
  hook_event_name: 'SessionEnd';
  reason: string;
}
export interface PreCompactHookInput extends BaseHookInput {
  hook_event_name: 'PreCompact';
  trigger: 'manual' | 'auto';
  custom_instructions: string;
}
export interface SubagentStopHookInput extends BaseHookInput {
  hook_event_name: 'SubagentStop';
  stop_hook_active: boolean;
  agent_id: string;
  agent_type: string;
  agent_transcript_path: string;
  last_assistant_message?: string;
}
export type HookInput =
  | PreToolUseHookInput
  | PostToolUseHookInput
  | NotificationHookInput
  | StopHookInput
  | UserPromptSubmitHookInput
  | SessionStartHookInput
  | SessionEndHookInput
  | PreCompactHookInput
  | SubagentStopHookInput;

/**
 * What a shell hook prints as JSON with exit 0 (docs/hooks.md); `{ exitCode: 2, reason }` is a
 * shell hook's exit 2 (blocks, `reason` as its stderr). Nothing returned: exit 0, no output.
 */
export interface HookOutput {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  decision?: 'block' | 'approve';
  reason?: string;
  exitCode?: 2;
  hookSpecificOutput?: {
    hookEventName?: string;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    additionalContext?: string;
    updatedInput?: Record<string, unknown>;
  };
}

/** A hook as a function: the event's input (typed per event), what a shell hook would print as JSON out. */
export type HookCallback<E extends HookEvent = HookEvent> = (
  input: Extract<HookInput, { hook_event_name: E }>,
  toolUseId: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookOutput | void> | HookOutput | void;

export interface HookCallbackMatcher<E extends HookEvent = HookEvent> {
  /** As in settings: a tool name, `A|B`, a regular expression, or omitted for all (tool events only). */
  matcher?: string;
  hooks: HookCallback<E>[];
  /** Seconds before a hook's wait ends (default 60). */
  timeout?: number;
  /** A hook that throws or times out blocks instead of warning. */
  failClosed?: boolean;
}

// ── options ──

export interface Options {
  /** The project directory (default: the process's). The process's own directory is never changed. */
  cwd?: string;
  /** `PROVIDER:MODEL`, e.g. `anthropic:claude-sonnet-4-5`. */
  model?: string;
  /** Claude Agent SDK's `default`, `acceptEdits`, `bypassPermissions` are taken too. */
  permissionMode?: PermissionMode | 'default' | 'acceptEdits' | 'bypassPermissions';
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  /** A settings file path, inline JSON text, or an object (as `--settings`). */
  settings?: string | Record<string, unknown>;
  addDirs?: string[];
  /** MCP servers, as settings' `mcpServers`. */
  mcpServers?: Record<string, unknown>;
  /** The verification command (`--verify`). */
  verify?: string;
  /** A session id (or prefix) to resume. */
  resume?: string;
  /** Continue the newest session of the project. */
  continue?: boolean;
  appendSystemPrompt?: string;
  /** Variables for the model provider, tools and hooks, over the process's (API keys, base URLs; `HOME` chooses where sessions are kept). */
  env?: Record<string, string>;
  /** `--sandbox` / `--no-sandbox`. */
  sandbox?: boolean;
  thinking?: 'off' | 'low' | 'medium' | 'high';
  canUseTool?: CanUseTool;
  hooks?: { [E in HookEvent]?: HookCallbackMatcher<E>[] };
  abortController?: AbortController;
  signal?: AbortSignal;
}

/** The running query: its messages, and a way to stop it. */
export interface Query extends AsyncGenerator<SDKMessage, void> {
  /** Stops the run as Ctrl-C would: the tool in flight is killed, the result says `aborted`. */
  interrupt(): Promise<void>;
  /** The session id, once the session is open. */
  readonly sessionId: string | undefined;
}

/** A bad option (`kind: 'options'`), bad configuration (`'config'`, the CLI's exit 2) or set-up failure (`'setup'`). */
export declare class AssistantError extends Error {
  readonly kind: 'options' | 'config' | 'setup';
  /** The exit code the CLI would use (2: bad usage or configuration). */
  readonly exitCode: number;
  /** For `kind: 'options'`: each problem, with the option's path. */
  readonly issues: Array<{ path: string; message: string }>;
}

export declare function query(args: { prompt: string | AsyncIterable<SDKUserMessage>; options?: Options }): Query;
