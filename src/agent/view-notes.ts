import type { AgentEvent } from './events.ts';
import type { Message } from '../providers/types.ts';
import type { ToolNote, TranscriptEntry } from '../session/transcript.ts';

/**
 * Notes the transcript keeps for redrawing a conversation as it was shown (SPEC §9): a
 * prompt's text as the input showed it (a collapsed paste, a command as typed) and each tool
 * call's time, sandbox and refusal. The conversation itself is unchanged; these ride on its
 * `message` entries as extra fields (`shown`, `tools`), which readers that do not know them skip.
 */
export class ViewNotes {
  private shownNext?: string;
  private readonly tools = new Map<string, ToolNote>();

  /** The next prompt is shown as `shown` (undefined: as sent). */
  show(shown: string | undefined): void {
    this.shownNext = shown;
  }

  observe(ev: AgentEvent): void {
    if (ev.type === 'tool-start' && ev.sandboxed) this.note(ev.id, { sandboxed: true });
    if (ev.type === 'tool-end') this.note(ev.id, { durationMs: ev.durationMs });
    if (ev.type === 'tool-denied') this.note(ev.id, { denied: ev.reason });
  }

  private note(id: string, n: ToolNote): void {
    this.tools.set(id, { ...this.tools.get(id), ...n });
  }

  /** The extra fields of the `message` entry of `m` (consumed: each note is written once). */
  fields(m: Message): { shown?: string; tools?: Record<string, ToolNote> } {
    if (m.role === 'user' && this.shownNext !== undefined) {
      const shown = this.shownNext;
      this.shownNext = undefined;
      return { shown };
    }
    if (m.role !== 'tool') return {};
    const tools: Record<string, ToolNote> = {};
    for (const p of m.content) {
      if (p.type !== 'tool-result') continue;
      const n = this.tools.get(p.toolCallId);
      if (n) {
        tools[p.toolCallId] = n;
        this.tools.delete(p.toolCallId);
      }
    }
    return Object.keys(tools).length ? { tools } : {};
  }
}

/** What the transcript records of an event beyond the messages (SPEC §9): verification runs (their last lines) and hook outcomes. */
export function eventEntry(ev: AgentEvent): TranscriptEntry | undefined {
  const timestamp = new Date().toISOString();
  if (ev.type === 'verify-end') {
    const { type: _, output, ...v } = ev;
    return { type: 'verify', ...v, output: output.split('\n').slice(-40).join('\n'), timestamp };
  }
  if (ev.type === 'hook') {
    const { type: _, ...h } = ev;
    return { type: 'hook', ...h, timestamp };
  }
  return undefined;
}
