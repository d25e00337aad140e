import type { HookRan } from '../hooks/engine.ts';
import type { Message, Usage } from '../providers/types.ts';
import type { ToolKinds, ToolResult } from '../tools/types.ts';
import type { TodoItem } from '../tools/todo-write.ts';

/** What the UI shows of a tool call and of the todo list: part of the event stream it consumes. */
export type { TodoItem, ToolKinds, ToolResult };

/** Everything the loop tells its consumer (terminal UI, headless printer, transcript). */
export type AgentEvent =
  /** A model request is about to be sent (turn = 1 for the first request of the run). */
  | { type: 'request'; turn: number }
  | { type: 'text-delta'; text: string }
  /** The model's reasoning as it streams (extended thinking, a reasoning summary); the whole of it is in the next `message`. */
  | { type: 'thinking-delta'; text: string }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; message: string }
  /** A complete message added to the conversation: user prompt, assistant reply, or tool results. */
  | { type: 'message'; message: Message; usage?: Usage }
  /** `sandboxed`: runs inside the OS sandbox (SPEC §13); `reason`: why it runs without a question, when the sandbox is why. */
  | { type: 'tool-start'; id: string; name: string; input: unknown; sandboxed?: boolean; reason?: string }
  | { type: 'tool-end'; id: string; name: string; input: unknown; result: ToolResult; durationMs: number }
  /** Output of a running tool (Bash) since the last such event, as it comes: for the terminal UI; headless and stream-json ignore it. */
  | { type: 'tool-progress'; id: string; name: string; output: string }
  /** A call refused before it ran (rule, mode, hook, or a question headless could not ask). */
  | { type: 'tool-denied'; id: string; name: string; input: unknown; reason: string }
  /** A hook ran (stream-json shows these as hook decisions). */
  | HookRan
  /** A hook has been running for over a second: show it by name. */
  | { type: 'hook-running'; event: string; command: string }
  /** The verification command starts (SPEC §8): attempt 0 is the first check, 1 and 2 follow fix attempts. */
  | { type: 'verify-start'; command: string; attempt: number }
  | { type: 'verify-end'; command: string; attempt: number; passed: boolean; exitCode: number | null; output: string; durationMs: number }
  /** An event of a subagent started by the Task call `parentToolUseId` (SPEC §14). */
  | { type: 'subagent'; parentToolUseId: string; agent: string; agentId: string; event: AgentEvent }
  | { type: 'warning'; message: string }
  | { type: 'error'; message: string };

export type EventSink = (event: AgentEvent) => void;

/** A question the loop needs a person to answer. The UI answers; headless refuses. */
export interface PermissionRequest {
  tool: string;
  input: Record<string, unknown>;
  reason: string;
  remedy?: string;
  /** No allow rule would stop this question (an ask rule, a guarded file): "always" is not offered. */
  firm?: boolean;
  /** The subagent whose call this is (SPEC §14); absent: the session's own. */
  agent?: string;
}
/** `updatedInput`: run the call with this input instead (the SDK's canUseTool); validated again before use. */
export type PermissionAnswer = { allow: true; updatedInput?: Record<string, unknown> } | { allow: false; message: string };
export type AskFn = (req: PermissionRequest, signal: AbortSignal) => Promise<PermissionAnswer>;

/**
 * `blocked`: a UserPromptSubmit hook erased the prompt; `stopped`: a hook said `continue: false`;
 * `verify-failed`: the model answered but verification still failed after the fix attempts.
 */
type RunStatus = 'done' | 'max-turns' | 'error' | 'aborted' | 'blocked' | 'stopped' | 'verify-failed';
export interface RunOutcome {
  status: RunStatus;
  /** The final assistant text (the answer). */
  text: string;
  /** Model requests made in this run. */
  turns: number;
  usage: Usage;
  error?: string;
}
