import { isCompactionSummary, readReplay, recordedSpend } from '../agent/transcripts.ts';
import type { Message, Usage } from '../providers/types.ts';
import type { ToolNote, TranscriptEntry } from '../session/transcript.ts';
import { pastesBehind } from './pastes.ts';
import { groupTools, type NewItem } from './state.ts';

/** In place of the summary a compaction left (it is for the model, not a prompt of the user's). */
const COMPACTED = '── Conversation compacted: what came before is summarised for the model ──';
/** What the loop appends to an answer cut short by Esc (for the model); the screen shows a notice instead. */
const CUT = '\n[interrupted by the user]';

/** The notice the screen shows after a prompt that did not end normally (live and redrawn alike). */
export function outcomeNotice(status: string, error?: string): NewItem | undefined {
  switch (status) {
    case 'aborted':
      return { kind: 'notice', tone: 'warning', text: 'Interrupted · what should assistant do instead?' };
    case 'error':
      return { kind: 'notice', tone: 'error', text: `Error: ${error ?? 'the run failed'}` };
    case 'max-turns':
      return { kind: 'notice', tone: 'warning', text: error ?? 'Reached the turn limit.' };
    case 'blocked':
      return { kind: 'notice', tone: 'warning', text: `Prompt blocked by a UserPromptSubmit hook: ${error ?? ''}` };
    case 'stopped':
      return { kind: 'notice', tone: 'warning', text: `Stopped by a hook: ${error ?? ''}` };
    case 'verify-failed':
      return { kind: 'notice', tone: 'error', text: `Verification still fails: ${error ?? ''}` };
    default:
      return undefined;
  }
}

/**
 * The conversation of a resumed session as history items, so `-c` / `-r` shows where it left off:
 * prompts, answers, and each tool call with its result; a compaction's summary as a notice that
 * the conversation was compacted. Attachments and hook context (extra text parts of a user
 * message) are not repeated; runs of reads and searches are grouped as in the live session. Pure.
 */
export function replayItems(messages: readonly Message[]): NewItem[] {
  return groupTools(
    itemsOf(
      messages.map((message) => ({ type: 'message', message, timestamp: '' })),
      new Set(),
    ),
  );
}

/** A conversation redrawn from its transcript: the items, and the status line's figures. */
interface Redraw {
  items: NewItem[];
  /** Tokens the last request of the conversation held (the status line's context), 0 when none. */
  contextUsed: number;
  /** What the earlier runs of this session cost, and their tokens (runs of other processes). */
  costUsd: number;
  usage: Usage;
}

/**
 * The conversation of a transcript as the screen showed it (-c, -r, /resume, /rewind): what the
 * model sees (compactions and rewinds applied), plus what the live screen had beyond the
 * messages: a prompt as it was typed (`[Pasted text #1 +40 lines]`, `/command args`), each tool
 * call's time and refusal, interrupted and failed runs, verification runs, thinking, and the
 * context and cost of the status line. Never throws (an unreadable file redraws nothing).
 */
export function redrawTranscript(path: string): Redraw {
  const { entries, prompts } = readReplay(path);
  const promptAt = new Set(prompts.map((p) => p.at));
  const shown = visible(
    entries,
    entries.length,
    prompts.map((p) => p.at),
  );
  const { costUsd, usage } = recordedSpend(entries);
  const last = [...shown].reverse().find((x) => x.e.type === 'message' && x.e.usage);
  const u = last?.e.type === 'message' ? last.e.usage : undefined;
  return {
    items: groupTools(
      itemsOf(
        shown.map((x) => x.e),
        new Set(shown.filter((x) => promptAt.has(x.i)).map((x) => x.e)),
        entries,
      ),
    ),
    contextUsed: u ? u.inputTokens + u.outputTokens : 0,
    costUsd,
    usage,
  };
}

/** The entries (with their position) the conversation holds at `end`: replayTranscript's rules, keeping results and verifications. */
function visible(entries: readonly TranscriptEntry[], end: number, promptAt: readonly number[]): Array<{ e: TranscriptEntry; i: number }> {
  let out: Array<{ e: TranscriptEntry; i: number }> = [];
  for (let i = 0; i < end; i++) {
    const e = entries[i];
    if (e.type === 'message' || e.type === 'result' || e.type === 'verify') out.push({ e, i });
    if (e.type === 'compact') out = [{ e, i }];
    if (e.type === 'rewind' && promptAt[e.prompt] !== undefined) out = visible(entries, promptAt[e.prompt], promptAt);
  }
  return out;
}

/**
 * History items of transcript entries. `prompts`: the user messages that are prompts (others, such
 * as a Stop hook's follow-up, were never shown); empty: every user message is one.
 * `all`: every entry, where tool results and notes are looked up (an id is unique in a session).
 */
function itemsOf(
  entries: readonly TranscriptEntry[],
  prompts: ReadonlySet<TranscriptEntry>,
  all: readonly TranscriptEntry[] = entries,
): NewItem[] {
  const out: NewItem[] = [];
  const results = new Map<string, { text: string; isError: boolean }>();
  const notes = new Map<string, ToolNote>();
  for (const e of all) {
    if (e.type !== 'message' || e.message.role !== 'tool') continue;
    for (const [id, n] of Object.entries(e.tools ?? {})) notes.set(id, n);
    for (const p of e.message.content) {
      if (p.type !== 'tool-result') continue;
      const o = p.output as { type: string; value?: unknown };
      results.set(p.toolCallId, {
        text: typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? ''),
        isError: o.type === 'error-text' || o.type === 'error-json',
      });
    }
  }
  for (const e of entries) {
    if (e.type === 'compact') out.push({ kind: 'notice', tone: 'info', text: COMPACTED });
    if (e.type === 'result') {
      const n = outcomeNotice(e.status, e.error);
      if (n && e.status !== 'blocked') out.push(n);
    }
    if (e.type === 'verify') {
      const secs = (e.durationMs / 1000).toFixed(1);
      const tail = e.output.trimEnd().split('\n').slice(-8).join('\n');
      out.push(
        e.passed
          ? { kind: 'notice', tone: 'success', text: `Verification passed: ${e.command} (${secs}s)` }
          : {
              kind: 'notice',
              tone: 'error',
              text: `Verification failed: ${e.command} (exit ${e.exitCode ?? '?'}, ${secs}s)${tail ? `\n${tail}` : ''}`,
            },
      );
    }
    if (e.type !== 'message') continue;
    const m = e.message;
    if (m.role === 'user') {
      const first = m.content.find((p) => p.type === 'text');
      if (first && first.type === 'text' && isCompactionSummary(first.text)) out.push({ kind: 'notice', tone: 'info', text: COMPACTED });
      else if (first && first.type === 'text' && (prompts.size === 0 || prompts.has(e)))
        out.push({ kind: 'user', text: e.shown ?? first.text });
    } else if (m.role === 'assistant') {
      for (const p of m.content) {
        if (p.type === 'reasoning' && p.text.trim()) out.push({ kind: 'thinking', text: p.text.trim() });
        if (p.type === 'text' && p.text.trim())
          out.push({ kind: 'assistant', text: p.text.endsWith(CUT) ? p.text.slice(0, -CUT.length) : p.text });
        if (p.type === 'tool-call') {
          const r = results.get(p.toolCallId);
          const n = notes.get(p.toolCallId);
          if (n?.denied !== undefined) {
            out.push({ kind: 'tool', name: p.toolName, input: p.input, status: 'denied', reason: n.denied });
            continue;
          }
          out.push({
            kind: 'tool',
            name: p.toolName,
            input: p.input,
            status: r?.isError ? 'error' : 'ok',
            result: r ? { output: r.text, isError: r.isError } : undefined,
            ...(n?.durationMs !== undefined ? { durationMs: n.durationMs } : {}),
            ...(n?.sandboxed ? { sandboxed: true } : {}),
          });
        }
      }
    }
  }
  return out;
}

/**
 * Prompt `index` of a transcript as the input showed it, for putting it back there (`/rewind`): the
 * text as typed (a command as typed, a paste as its mark) and the pastes behind its marks.
 * Undefined when the transcript did not record how it was shown.
 */
export function promptAsShown(path: string, index: number): { text: string; pastes?: Map<number, string> } | undefined {
  const { entries, prompts } = readReplay(path);
  const p = prompts[index];
  const e = p && entries[p.at];
  if (e?.type !== 'message' || e.shown === undefined) return undefined;
  const pastes = pastesBehind(e.shown, p.text);
  return { text: e.shown, ...(pastes ? { pastes } : {}) };
}
