import type { Message } from '../providers/types.ts';
import { SUMMARY_PREFIX } from '../session/compact.ts';
import { groupTools, type NewItem } from './state.ts';

/** In place of the summary a compaction left (it is for the model, not a prompt of the user's). */
const COMPACTED = '── Conversation compacted: what came before is summarised for the model ──';

/**
 * The conversation of a resumed session as history items, so `-c` / `-r` shows where it left off:
 * prompts, answers, and each tool call with its result; a compaction's summary as a notice that
 * the conversation was compacted. Attachments and hook context (extra text parts of a user
 * message) are not repeated; runs of reads and searches are grouped as in the live session. Pure.
 */
export function replayItems(messages: readonly Message[]): NewItem[] {
  const out: NewItem[] = [];
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    for (const p of m.content) {
      if (p.type !== 'tool-result') continue;
      const o = p.output as { type: string; value?: unknown };
      results.set(p.toolCallId, { text: typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? ''), isError: o.type === 'error-text' || o.type === 'error-json' });
    }
  }
  for (const m of messages) {
    if (m.role === 'user') {
      const first = m.content.find((p) => p.type === 'text');
      if (first && first.type === 'text' && first.text.startsWith(SUMMARY_PREFIX)) out.push({ kind: 'notice', tone: 'info', text: COMPACTED });
      else if (first && first.type === 'text') out.push({ kind: 'user', text: first.text });
    } else if (m.role === 'assistant') {
      for (const p of m.content) {
        if (p.type === 'text' && p.text.trim()) out.push({ kind: 'assistant', text: p.text });
        if (p.type === 'tool-call') {
          const r = results.get(p.toolCallId);
          out.push({ kind: 'tool', name: p.toolName, input: p.input, status: r?.isError ? 'error' : 'ok', result: r ? { output: r.text, isError: r.isError } : undefined });
        }
      }
    }
  }
  return groupTools(out);
}
