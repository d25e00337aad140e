import { randomUUID } from 'node:crypto';
import type { AgentEvent, RunOutcome } from '../agent/events.ts';
import type { Denial } from '../agent/session.ts';
import type { Message, Usage } from '../providers/types.ts';

/**
 * Claude Code's usage field names, so scripts that read `-p --output-format json` keep working.
 * As in Anthropic's API, `input_tokens` excludes the cached tokens counted in the two cache fields
 * (our `inputTokens` is the total); scripts add the three.
 */
function usageJson(u: Usage) {
  return {
    input_tokens: Math.max(0, u.inputTokens - (u.cacheReadTokens ?? 0) - (u.cacheWriteTokens ?? 0)),
    output_tokens: u.outputTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
  };
}

/** Our message format → the Anthropic-style content Claude Code prints in stream-json. */
function messageJson(m: Message, meta: { model?: string; usage?: Usage } = {}): { type: 'user' | 'assistant'; message: unknown } {
  if (m.role === 'assistant') {
    const calls = m.content.some((p) => p.type === 'tool-call');
    return {
      type: 'assistant',
      message: {
        id: `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
        type: 'message',
        role: 'assistant',
        ...(meta.model ? { model: meta.model } : {}),
        stop_reason: calls ? 'tool_use' : 'end_turn',
        ...(meta.usage ? { usage: usageJson(meta.usage) } : {}),
        content: m.content.map((p) =>
          p.type === 'tool-call'
            ? { type: 'tool_use', id: p.toolCallId, name: p.toolName, input: p.input }
            : p.type === 'text'
              ? { type: 'text', text: p.text }
              : p.type === 'reasoning'
                ? thinkingJson(p)
                : { type: p.type },
        ),
      },
    };
  }
  if (m.role === 'tool') {
    return {
      type: 'user',
      message: {
        role: 'user',
        content: m.content.map((p) => {
          if (p.type !== 'tool-result') return { type: p.type };
          const out = p.output as { type: string; value?: unknown };
          const content =
            out.type === 'content' && Array.isArray(out.value)
              ? out.value.map(partJson)
              : typeof out.value === 'string'
                ? out.value
                : JSON.stringify(out.value ?? '');
          return { type: 'tool_result', tool_use_id: p.toolCallId, content, is_error: out.type.startsWith('error') };
        }),
      },
    };
  }
  const content = m.role === 'system' ? [{ type: 'text', text: m.content }] : m.content.map(partJson);
  return { type: 'user', message: { role: 'user', content } };
}

/** Claude Code's thinking block: the text, and the signature when the provider gave one. */
function thinkingJson(p: { text: string; providerOptions?: Record<string, Record<string, unknown> | undefined> }) {
  const signature = p.providerOptions?.anthropic?.signature;
  return { type: 'thinking', thinking: p.text, ...(typeof signature === 'string' ? { signature } : {}) };
}

/** A text or image part, in Anthropic's shape (an image as a base64 source). */
function partJson(p: { type: string; text?: string; mediaType?: string; data?: unknown }) {
  if (p.type === 'text') return { type: 'text', text: p.text };
  const data = p.data as { type?: string; data?: unknown } | string | undefined;
  const b64 = typeof data === 'string' ? data : data?.type === 'data' && typeof data.data === 'string' ? data.data : undefined;
  if (p.type === 'file' && p.mediaType?.startsWith('image/') && b64 !== undefined)
    return { type: 'image', source: { type: 'base64', media_type: p.mediaType, data: b64 } };
  return { type: p.type };
}

/** One stream-json line for an event, or undefined for events that stream-json does not show. */
export function streamJsonEvent(ev: AgentEvent, sessionId: string, model?: string): Record<string, unknown> | undefined {
  switch (ev.type) {
    // The prompt itself is not echoed (Claude Code does so only with --replay-user-messages).
    case 'message':
      return ev.message.role === 'user'
        ? undefined
        : { ...messageJson(ev.message, { model, usage: ev.usage }), parent_tool_use_id: null, session_id: sessionId, uuid: randomUUID() };
    case 'retry':
      return {
        type: 'system',
        subtype: 'api_retry',
        attempt: ev.attempt,
        max_retries: ev.maxRetries,
        retry_delay_ms: ev.delayMs,
        error: ev.message,
        session_id: sessionId,
      };
    // A call that runs inside the OS sandbox (SPEC §13); `auto_allowed`: the sandbox is why it was not asked about.
    case 'tool-start':
      return ev.sandboxed
        ? {
            type: 'system',
            subtype: 'sandboxed',
            tool_name: ev.name,
            tool_use_id: ev.id,
            auto_allowed: ev.reason !== undefined,
            ...(ev.reason ? { reason: ev.reason } : {}),
            session_id: sessionId,
          }
        : undefined;
    case 'tool-denied':
      return {
        type: 'system',
        subtype: 'permission_denied',
        tool_name: ev.name,
        tool_use_id: ev.id,
        reason: ev.reason,
        session_id: sessionId,
      };
    case 'warning':
      return { type: 'warning', message: ev.message, session_id: sessionId };
    case 'hook':
      return {
        type: 'system',
        subtype: 'hook_response',
        hook_event: ev.event,
        command: ev.command,
        source: ev.source,
        exit_code: ev.exitCode,
        duration_ms: ev.durationMs,
        outcome: ev.outcome,
        ...(ev.message ? { message: ev.message } : {}),
        session_id: sessionId,
      };
    case 'verify-start':
      return { type: 'system', subtype: 'verification', phase: 'start', command: ev.command, attempt: ev.attempt, session_id: sessionId };
    case 'verify-end':
      return {
        type: 'system',
        subtype: 'verification',
        phase: 'end',
        command: ev.command,
        attempt: ev.attempt,
        passed: ev.passed,
        exit_code: ev.exitCode,
        duration_ms: ev.durationMs,
        output: ev.output,
        session_id: sessionId,
      };
    // A subagent's events, marked with the Task call that started it (SPEC §14).
    case 'subagent': {
      const inner = streamJsonEvent(ev.event, sessionId, model);
      return inner && { ...inner, parent_tool_use_id: ev.parentToolUseId };
    }
    case 'hook-running':
      return { type: 'system', subtype: 'hook_running', hook_event: ev.event, command: ev.command, session_id: sessionId };
    default:
      return undefined;
  }
}

/** The first stream-json line: what the session runs with (`mode`: Claude Code's name of it). */
export function initJson(
  session: {
    id: string;
    tools: ReadonlyArray<{ name: string }>;
    conversation: { transcript: { path: string } };
    /** The tools offered now, MCP tools included (Session.allTools). */
    allTools?: () => ReadonlyArray<{ name: string }>;
    /** The session's MCP servers, when any is configured. */
    mcp?: { statuses(): ReadonlyArray<{ name: string; state: string }> };
  },
  info: { cwd: string; model: string; mode: string },
) {
  return {
    type: 'system' as const,
    subtype: 'init' as const,
    session_id: session.id,
    cwd: info.cwd,
    model: info.model,
    permissionMode: info.mode,
    tools: (session.allTools?.() ?? session.tools).map((t) => t.name),
    transcript_path: session.conversation.transcript.path,
    // Claude Code's field: each MCP server and its state now (servers start in the background:
    // `pending`); an empty list when none is configured, as Claude Code writes it.
    mcp_servers: (session.mcp?.statuses() ?? []).map((s) => ({ name: s.name, status: s.state === 'starting' ? 'pending' : s.state })),
    uuid: randomUUID(),
  };
}

interface ResultInfo {
  outcome: RunOutcome;
  sessionId: string;
  durationMs: number;
  durationApiMs: number;
  costUsd: number;
  denials: Denial[];
}

export function resultJson(r: ResultInfo): Record<string, unknown> {
  const { outcome } = r;
  const ok = outcome.status === 'done' || outcome.status === 'stopped';
  const subtype = ok
    ? 'success'
    : outcome.status === 'max-turns'
      ? 'error_max_turns'
      : outcome.status === 'verify-failed'
        ? 'error_verification'
        : 'error_during_execution';
  const isError = !ok;
  return {
    type: 'result',
    subtype,
    is_error: isError,
    duration_ms: Math.round(r.durationMs),
    duration_api_ms: Math.round(r.durationApiMs),
    num_turns: outcome.turns,
    result: isError && outcome.error ? outcome.error : outcome.text,
    ...(outcome.status === 'stopped' ? { stop_reason: outcome.error } : {}),
    session_id: r.sessionId,
    total_cost_usd: r.costUsd,
    usage: usageJson(outcome.usage),
    permission_denials: r.denials,
    uuid: randomUUID(),
    ...(outcome.error && isError ? { error: outcome.error } : {}),
  };
}
