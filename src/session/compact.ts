import type { Message, ModelHandle, Usage } from '../providers/types.ts';

import instructions from './compact.md';

/** The first message of a compacted conversation. */
export const SUMMARY_PREFIX = 'This session continues an earlier conversation that was compacted. Summary of it:\n\n';

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}\n[… ${s.length - n} characters left out]` : s;
}

/** The conversation as plain text for the summariser; long tool outputs are clipped. */
export function conversationText(messages: readonly Message[]): string {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    for (const p of m.content) {
      if (p.type === 'text') out.push(`${m.role === 'user' ? 'USER' : 'ASSISTANT'}: ${p.text}`);
      else if (p.type === 'tool-call') out.push(`ASSISTANT called ${p.toolName} ${clip(JSON.stringify(p.input), 2000)}`);
      else if (p.type === 'tool-result') {
        const o = p.output as { type: string; value?: unknown };
        out.push(`RESULT of ${p.toolName}${o.type.startsWith('error') ? ' (error)' : ''}: ${clip(typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? ''), 4000)}`);
      }
    }
  }
  return out.join('\n\n');
}

export type CompactResult = { ok: true; summary: string; usage: Usage } | { ok: false; error: string };

/**
 * Asks the model for a summary of the conversation in the sections of compact.md (SPEC §6): the
 * user's instructions and corrections, files changed, decisions and open tasks each get their own.
 * `ASSISTANT.md` is not part of the messages (it lives in the system prompt), so it is never
 * summarised. Never throws.
 */
export async function summarise(model: ModelHandle, messages: readonly Message[], extra: string | undefined, signal: AbortSignal): Promise<CompactResult> {
  const request = {
    system: instructions.trim(),
    tools: [],
    messages: [{
      role: 'user' as const,
      content: [{ type: 'text' as const, text: `${extra ? `Additional instructions for this summary: ${extra}\n\n` : ''}The conversation:\n\n${conversationText(messages)}` }],
    }],
  };
  let text = '';
  for await (const ev of model.stream(request, signal)) {
    if (ev.type === 'text') text += ev.delta;
    if (ev.type === 'retry') text = '';
    if (ev.type === 'error') return { ok: false, error: ev.error.message };
    if (ev.type === 'aborted') return { ok: false, error: 'interrupted' };
    if (ev.type === 'finish') return text.trim() ? { ok: true, summary: text.trim(), usage: ev.usage } : { ok: false, error: 'the model returned an empty summary' };
  }
  return { ok: false, error: 'the summary stream ended early' };
}

export function summaryMessage(summary: string): Message {
  return { role: 'user', content: [{ type: 'text', text: `${SUMMARY_PREFIX}${summary}` }] };
}

/** Rough token count of a conversation (4 characters a token), for the auto-compaction check. */
export function estimateTokens(system: string, messages: readonly Message[]): number {
  return Math.ceil((system.length + JSON.stringify(messages).length) / 4);
}

