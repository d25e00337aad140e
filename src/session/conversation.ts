import type { Message, ModelHandle, Usage } from '../providers/types.ts';
import type { ToolContext } from '../tools/types.ts';

type FileStateMap = ToolContext['fileState'];
import { FileHistory } from './checkpoints.ts';
import { contextReport, estimateTokens, summarise, summaryMessage } from './compact.ts';
import { loadFileState, loadMessages, projectDir, Transcript, type ToolNote } from './transcript.ts';

/** What a compaction gives: how many messages the summary replaced and what it cost, or why it failed. Never thrown. */
export type Compaction = { ok: true; before: number; usage: Usage } | { ok: false; error: string };

interface ConversationOptions {
  home: string;
  cwd: string;
  id: string;
  /** Transcript to continue (`-c`, `-r`): its messages and the files it had read come back. */
  resume?: { sessionId: string; path: string };
  /** For the transcript's `session` entry, which opens each run of the session. */
  model: string;
  version: string;
}

/** How automatic compaction is tried before a request (SPEC §6, §11.14). */
interface AutoCompact {
  model: ModelHandle;
  threshold: number;
  /** What every request carries besides the conversation (system prompt and tool definitions). */
  fixed(): string;
  /** The full compaction (hooks included), as `/compact` does it. */
  compact(signal: AbortSignal): Promise<Compaction>;
  warn(message: string): void;
}

/**
 * One conversation's record: its messages, its transcript, the files it has read and the files'
 * checkpoints; rewinding and compacting it. No model calls of its own beyond the summary.
 */
export class Conversation {
  readonly transcript: Transcript;
  readonly messages: Message[];
  readonly fileState: FileStateMap;
  readonly history: FileHistory;
  /** Prompts run so far, and the last automatic compaction: in which prompt, and the model turns since (SPEC §11.14). */
  private runs = 0;
  private lastAutoCompact?: { run: number; turnsAfter: number };

  constructor(o: ConversationOptions) {
    this.transcript = new Transcript(projectDir(o.home, o.cwd), o.id);
    this.messages = o.resume ? loadMessages(o.resume.path) : [];
    this.fileState = recordedFileState(this.transcript, o.resume ? loadFileState(o.resume.path) : undefined);
    this.history = new FileHistory(this.transcript, this.messages.filter((m) => m.role === 'user').length);
    this.transcript.write({
      type: 'session',
      sessionId: o.id,
      cwd: o.cwd,
      model: o.model,
      version: o.version,
      timestamp: new Date().toISOString(),
      ...(o.resume ? { resumed: true } : {}),
    });
  }

  /** A new prompt runs: its file checkpoints start, and it counts for the compaction guard. */
  startPrompt(): void {
    this.history.startPrompt();
  }
  countRun(): void {
    this.runs++;
  }

  /** Adds a message to the conversation and the transcript (`notes`: how it was shown). */
  append(message: Message, usage: Usage | undefined, notes: { shown?: string; tools?: Record<string, ToolNote> }): void {
    if (message.role === 'assistant' && this.lastAutoCompact) this.lastAutoCompact.turnsAfter++;
    this.messages.push(message);
    this.transcript.write({ type: 'message', message, ...(usage ? { usage } : {}), ...notes, timestamp: new Date().toISOString() });
  }

  /** One call of a batch of tool calls finished: its result is recorded at once (kept should the session crash mid-batch). */
  settled(result: Extract<Message, { role: 'tool' }>['content'][number]): void {
    if (result.type !== 'tool-result') return;
    this.transcript.write({ type: 'tool-result', result, timestamp: new Date().toISOString() });
  }

  /** A prompt ended: its result closes it in the transcript (where the next prompt starts, for `/rewind` and `-c`). */
  endPrompt(r: { status: string; turns: number; usage: Usage; costUsd: number; error?: string }): void {
    this.transcript.write({
      type: 'result',
      status: r.status,
      turns: r.turns,
      usage: r.usage,
      costUsd: r.costUsd,
      ...(r.error ? { error: r.error } : {}),
      timestamp: new Date().toISOString(),
    });
  }

  /**
   * `/rewind` of the conversation (SPEC §9): the conversation becomes what it was just before
   * prompt `index` (0-based position among the transcript's prompts, as `rewindPoints` numbers
   * them). The transcript records it, so `-c` resumes the rewound conversation. What the model had
   * read is forgotten (it must read files again before editing them). Files are not touched.
   */
  rewind(index: number): void {
    this.transcript.write({ type: 'rewind', prompt: index, timestamp: new Date().toISOString() });
    const kept = loadMessages(this.transcript.path);
    this.messages.length = 0;
    for (const m of kept) this.messages.push(m); // not push(...kept): a long conversation would overflow the stack
    this.fileState.clear();
  }

  /**
   * Replaces the conversation with `model`'s summary of it (SPEC §6); the transcript keeps the full
   * history and records the summary. Never throws.
   */
  async compact(
    model: ModelHandle,
    trigger: 'manual' | 'auto',
    instructions: string | undefined,
    signal: AbortSignal,
  ): Promise<Compaction> {
    const r = await summarise(model, this.messages, instructions, signal);
    if (!r.ok) return r;
    const before = this.messages.length;
    this.messages.splice(0, this.messages.length, summaryMessage(r.summary));
    this.transcript.write({ type: 'compact', trigger, summary: r.summary, timestamp: new Date().toISOString() });
    return { ok: true, before, usage: r.usage };
  }

  /**
   * Compacts when the conversation passes the threshold share of the context window (SPEC §6), and
   * never loops (SPEC §11.14): returns why the run must stop instead when compacting cannot help —
   * no model turn since the last compaction, one model turn of this run filled the context again
   * right after it, or the conversation is still over the threshold right after compacting (a
   * failed compaction included). Undefined: go on.
   */
  async autoCompact(a: AutoCompact, signal: AbortSignal): Promise<string | undefined> {
    if (this.messages.length === 0 || signal.aborted) return undefined;
    const limit = a.threshold * a.model.contextWindow;
    if (estimateTokens(a.fixed(), this.messages) <= limit) return undefined;
    const last = this.lastAutoCompact;
    if (last?.turnsAfter === 0)
      return this.compactionLoop(a, 'a second compaction would come with no new model turn since the first', limit);
    if (last?.run === this.runs && last.turnsAfter === 1)
      return this.compactionLoop(
        a,
        'a single model turn filled it again right after a compaction, so compacting again would only repeat that turn',
        limit,
      );
    const c = await a.compact(signal);
    if (signal.aborted) return undefined;
    this.lastAutoCompact = { run: this.runs, turnsAfter: 0 };
    if (!c.ok) return this.compactionLoop(a, `compaction failed (${c.error})`, limit);
    if (estimateTokens(a.fixed(), this.messages) > limit)
      return this.compactionLoop(a, 'it is still over the threshold right after a compaction', limit);
    a.warn(`The context was nearly full: the conversation (${c.before} messages) was compacted into a summary.`);
    return undefined;
  }

  /** The message that stops a run instead of compacting again (SPEC §11.14): why, and what fills the context. */
  private compactionLoop(a: AutoCompact, why: string, limit: number): string {
    const { contextWindow, contextSource } = a.model;
    const fixed = a.fixed();
    const used = estimateTokens(fixed, this.messages);
    return (
      `Stopped: the context is too full to go on (${why}). It holds about ${Math.round(used / 1000)}k tokens; ` +
      `compaction starts at ${Math.round(limit / 1000)}k of the model's ${Math.round(contextWindow / 1000)}k-token window (from ${contextSource ?? 'the provider'}). ` +
      `What fills it: ${contextReport(fixed, this.messages)}. ` +
      'Ask for less at a time (read parts of large files, write large files in pieces), start a new conversation, ' +
      "or set modelContextWindow in settings if the model's window is larger."
    );
  }
}

/**
 * The map of files read, which records each new snapshot in the transcript (`file-state`), so
 * `-c`/`-r` can bring it back; starts from what a resumed transcript recorded.
 */
function recordedFileState(transcript: Transcript, restored?: Map<string, { mtimeMs: number; size: number }>): FileStateMap {
  const map: FileStateMap = new Map(restored);
  const set = map.set.bind(map);
  map.set = (path, snap) => {
    transcript.write({ type: 'file-state', path, mtimeMs: snap.mtimeMs, size: snap.size, timestamp: new Date().toISOString() });
    return set(path, snap);
  };
  return map;
}
