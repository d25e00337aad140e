import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Message, Usage } from '../providers/types.ts';

type ToolResultPart = Extract<Message, { role: 'tool' }>['content'][number] & { type: 'tool-result' };
import { summaryMessage } from './compact.ts';
import { TranscriptEntrySchema } from './transcript-schema.ts';

/** `~/.assistant/projects/<cwd with every non-alphanumeric replaced by '-'>/` (Claude Code's scheme). */
export function projectDir(home: string, cwd: string): string {
  return join(home, '.assistant', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}

/** What the screen showed of one tool call, beyond the conversation: kept so -c, -r and /rewind redraw it (agent/view-notes.ts). */
export interface ToolNote {
  durationMs?: number;
  sandboxed?: boolean;
  denied?: string;
}

/** One line of a transcript; transcript-schema.ts checks this shape on every read. */
export type TranscriptEntry =
  | { type: 'session'; sessionId: string; cwd: string; model: string; version: string; timestamp: string; resumed?: boolean }
  /** `shown`: a prompt as the terminal UI showed it; `tools`: each tool call's time, sandbox, refusal (for a redraw, agent/view-notes.ts). */
  | { type: 'message'; message: Message; usage?: Usage; shown?: string; tools?: Record<string, ToolNote>; timestamp: string }
  /** A file's content before prompt `prompt` changed it: `backup` names the copy; null if it did not exist. */
  /** `mode`: its permission bits then, to put back on a file that was deleted since. */
  | { type: 'checkpoint'; prompt: number; path: string; backup: string | null; mode?: number; timestamp: string }
  /** The conversation was compacted: from here on the model sees `summary` instead of what came before. */
  | { type: 'compact'; trigger: 'manual' | 'auto'; summary: string; timestamp: string }
  /**
   * `/rewind` of the conversation: from here on the conversation is what it was just before prompt
   * `prompt` (0-based position among the transcript's prompts, see `replayTranscript`).
   */
  | { type: 'rewind'; prompt: number; timestamp: string }
  | { type: 'result'; status: string; turns: number; usage: Usage; costUsd: number; error?: string; timestamp: string }
  /**
   * One tool call of a batch finished (its result as the model will get it), written before the
   * batch's `tool` message: a crash mid-batch keeps the results of the calls that had finished.
   */
  | { type: 'tool-result'; result: ToolResultPart; timestamp: string }
  /** The session read (or wrote) this file as it was then: a resumed session may edit it while it is unchanged. */
  | { type: 'file-state'; path: string; mtimeMs: number; size: number; timestamp: string }
  /** A verification run (SPEC §8), so a resumed session knows whether it passed. `output`: its last lines. */
  | {
      type: 'verify';
      command: string;
      attempt: number;
      passed: boolean;
      exitCode: number | null;
      durationMs: number;
      output: string;
      timestamp: string;
    }
  /** A hook ran: what it was and how it ended (the event's input is not repeated). */
  /** A subagent a Task call started (SPEC §14): its own transcript is at `path`. */
  | {
      type: 'subagent';
      toolUseId: string;
      agent: string;
      agentId: string;
      path: string;
      status: string;
      turns: number;
      usage: Usage;
      timestamp: string;
    }
  | {
      type: 'hook';
      event: string;
      command: string;
      source: string;
      exitCode: number | null;
      outcome: 'ok' | 'block' | 'failed';
      durationMs: number;
      message?: string;
      timestamp: string;
    };

/**
 * Appends one JSON line per entry, synchronously, as things happen: a crash loses at most the
 * entry in flight, and a reader never sees half a line from us.
 */
export class Transcript {
  readonly path: string;
  /** The file ends in a torn line (a crash mid-write): the next entry starts on a line of its own. */
  private torn: boolean;
  constructor(
    dir: string,
    readonly sessionId: string,
  ) {
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, `${sessionId}.jsonl`);
    this.torn = endsTorn(this.path);
  }
  write(entry: TranscriptEntry): void {
    appendFileSync(this.path, `${this.torn ? '\n' : ''}${JSON.stringify(onDisk(entry))}\n`);
    this.torn = false;
  }
}

/** Whether a file exists, is not empty, and does not end with a newline. */
function endsTorn(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] !== 10;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface SessionSummary {
  sessionId: string;
  path: string;
  mtimeMs: number;
  firstPrompt: string;
}

/** Sessions of a project, newest first. */
export function listSessions(dir: string): SessionSummary[] {
  if (!existsSync(dir)) return [];
  return (
    readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => {
        const path = join(dir, f);
        return { sessionId: f.slice(0, -6), path, mtimeMs: statSync(path).mtimeMs, firstPrompt: firstPrompt(path) };
      })
      // A session opened and left without a prompt has nothing to continue: -c and -r skip it.
      .filter((s): s is SessionSummary => s.firstPrompt !== undefined)
      .sort((a, b) => b.mtimeMs - a.mtimeMs)
  );
}

/** The first prompt's beginning; undefined when the session has no message at all. */
function firstPrompt(path: string): string | undefined {
  let any = false;
  for (const e of readEntries(path)) {
    if (e.type !== 'message') continue;
    any = true;
    if (e.message.role === 'user') {
      const part = e.message.content.find((p) => p.type === 'text');
      if (part && part.type === 'text') return part.text.slice(0, 80);
    }
  }
  return any ? '' : undefined;
}

/** A transcript as read: the entries that fit the schema, and the lines that did not. */
interface ReadTranscript {
  entries: TranscriptEntry[];
  /** Lines skipped: not JSON (a torn last line after a crash, an edit gone wrong) or not an entry. */
  skipped: number;
  /** The first skipped line: its 1-based number and why. */
  firstSkipped?: { line: number; why: string };
}

/**
 * Reads a transcript; every line is checked against the transcript's schema, and what does not fit
 * is skipped and counted (never passed on to trip up a resume). Throws only when the file cannot be read.
 */
/**
 * A message is kept as a line typed by who speaks, `user` or `assistant` (tool results count as the
 * user's), as Claude Code writes its transcripts, so a hook written for it (a Stop hook taking the
 * last `assistant` entry's text blocks from `transcript_path`) works unchanged. In memory the entry
 * is `type: "message"`; lines written as such before are read as they were.
 */
function onDisk(entry: TranscriptEntry): unknown {
  return entry.type === 'message' ? { ...entry, type: entry.message.role === 'assistant' ? 'assistant' : 'user' } : entry;
}

function fromDisk(json: unknown): unknown {
  if (json && typeof json === 'object' && 'message' in json) {
    const t = (json as { type?: unknown }).type;
    if (t === 'user' || t === 'assistant') (json as unknown as { type: string }).type = 'message';
  }
  return json;
}

export function readTranscript(path: string): ReadTranscript {
  const out: ReadTranscript = { entries: [], skipped: 0 };
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let why: string;
    try {
      const json: unknown = fromDisk(JSON.parse(lines[i]));
      const checked = TranscriptEntrySchema.safeParse(json);
      // The parsed JSON itself is kept (not zod's copy), so nothing is reshaped on the way.
      if (checked.success) {
        out.entries.push(json as TranscriptEntry);
        continue;
      }
      const issue = checked.error.issues[0];
      why = `not a transcript entry (${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message})`;
    } catch {
      why = 'not valid JSON';
    }
    out.skipped++;
    out.firstSkipped ??= { line: i + 1, why };
  }
  return out;
}

/** The entries of a transcript that fit its schema (see `readTranscript`). */
export function readEntries(path: string): TranscriptEntry[] {
  return readTranscript(path).entries;
}

/** A warning for a transcript with skipped lines (naming the file and the count), or undefined. */
export function transcriptWarning(path: string): string | undefined {
  let read: ReadTranscript;
  try {
    read = readTranscript(path);
  } catch (e) {
    return `${path} cannot be read: ${(e as Error).message}`;
  }
  if (read.skipped === 0) return undefined;
  const first = read.firstSkipped!;
  return (
    `${path}: ${read.skipped} ${read.skipped === 1 ? 'line was' : 'lines were'} skipped because ${read.skipped === 1 ? 'it does' : 'they do'} not fit the transcript format ` +
    `(the first, line ${first.line}: ${first.why}); the rest of the session was resumed.`
  );
}

/** One prompt of a transcript: the first user message after a `session`, `result` or `rewind` entry. */
interface PromptMark {
  /** 0-based position among the transcript's prompts; never renumbered (rewind entries refer to it). */
  index: number;
  /** Position of its user message in the entries. */
  at: number;
  text: string;
  timestamp: string;
  /** False once a later `rewind` entry took the conversation back to before it (or before an earlier prompt). */
  active: boolean;
}

/**
 * Replays a transcript's entries (up to `end`, exclusive) into the conversation the model sees:
 * messages append, `compact` replaces everything with the summary, `rewind` puts back the
 * conversation as it was just before the named prompt. Also marks where each prompt starts.
 * Stop-hook follow-ups are user messages too, but not prompts: a prompt is the first user message
 * after the session (re)starts, after the previous prompt's `result`, or after a rewind.
 */
export function replayTranscript(
  entries: readonly TranscriptEntry[],
  end = entries.length,
): { messages: Message[]; prompts: PromptMark[] } {
  let messages: Message[] = [];
  const prompts: PromptMark[] = [];
  let expectPrompt = true;
  for (let i = 0; i < end; i++) {
    const e = entries[i];
    if (e.type === 'session' || e.type === 'result') expectPrompt = true;
    if (e.type === 'message') {
      if (e.message.role === 'user' && expectPrompt) {
        const part = e.message.content.find((p) => p.type === 'text');
        prompts.push({
          index: prompts.length,
          at: i,
          text: part && part.type === 'text' ? part.text : '',
          timestamp: e.timestamp,
          active: true,
        });
        expectPrompt = false;
      }
      messages.push(e.message);
    }
    if (e.type === 'compact') messages = [summaryMessage(e.summary)];
    if (e.type === 'rewind') {
      const target = prompts[e.prompt];
      if (!target) continue; // a rewind to a prompt this transcript does not have: ignored
      messages = replayTranscript(entries, target.at).messages;
      for (const p of prompts) if (p.index >= e.prompt) p.active = false;
      expectPrompt = true;
    }
  }
  return { messages, prompts };
}

/**
 * The conversation of a transcript, made safe to send again: tool calls left without results
 * (the session was interrupted or crashed mid-call) get the result recorded when the call
 * finished (`tool-result`), or an "interrupted" one when it never finished.
 */
export function loadMessages(path: string): Message[] {
  const entries = readEntries(path);
  const messages = replayTranscript(entries).messages;
  const finished = new Map<string, ToolResultPart>();
  for (const e of entries) if (e.type === 'tool-result') finished.set(e.result.toolCallId, e.result);
  const repaired: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    repaired.push(m);
    if (m.role !== 'assistant') continue;
    const calls = m.content.filter((p) => p.type === 'tool-call');
    if (calls.length === 0) continue;
    const next = messages[i + 1];
    const answered = new Set(next?.role === 'tool' ? next.content.map((p) => (p as { toolCallId: string }).toolCallId) : []);
    const missing = calls.filter((c) => !answered.has(c.toolCallId));
    if (missing.length === 0) continue;
    const fill = missing.map(
      (c): ToolResultPart =>
        finished.get(c.toolCallId) ?? {
          type: 'tool-result' as const,
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          output: { type: 'error-text' as const, value: 'Interrupted: the session ended before this tool call finished.' },
        },
    );
    if (next?.role === 'tool') {
      next.content.push(...fill);
    } else {
      repaired.push({ role: 'tool', content: fill });
    }
  }
  return repaired;
}

/**
 * What the session had read, as the transcript recorded it (`file-state`, forgotten at a `rewind`):
 * a resumed session may edit these files without reading them again while they are unchanged on
 * disk. No text is kept, so any change since, even a touch, means reading again.
 */
export function loadFileState(path: string): Map<string, { mtimeMs: number; size: number }> {
  const state = new Map<string, { mtimeMs: number; size: number }>();
  for (const e of readEntries(path)) {
    if (e.type === 'rewind') state.clear();
    if (e.type === 'file-state') state.set(e.path, { mtimeMs: e.mtimeMs, size: e.size });
  }
  return state;
}
