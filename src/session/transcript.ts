import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Message, Usage } from '../providers/types.ts';
import { summaryMessage } from './compact.ts';

/** `~/.assistant/projects/<cwd with every non-alphanumeric replaced by '-'>/` (Claude Code's scheme). */
export function projectDir(home: string, cwd: string): string {
  return join(home, '.assistant', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}

export type TranscriptEntry =
  | { type: 'session'; sessionId: string; cwd: string; model: string; version: string; timestamp: string; resumed?: boolean }
  | { type: 'message'; message: Message; usage?: Usage; timestamp: string }
  /** A file's content before prompt `prompt` changed it: `backup` names the copy; null if it did not exist. */
  | { type: 'checkpoint'; prompt: number; path: string; backup: string | null; timestamp: string }
  /** The conversation was compacted: from here on the model sees `summary` instead of what came before. */
  | { type: 'compact'; trigger: 'manual' | 'auto'; summary: string; timestamp: string }
  /**
   * `/rewind` of the conversation: from here on the conversation is what it was just before prompt
   * `prompt` (0-based position among the transcript's prompts, see `replayTranscript`).
   */
  | { type: 'rewind'; prompt: number; timestamp: string }
  | { type: 'result'; status: string; turns: number; usage: Usage; costUsd: number; error?: string; timestamp: string };

/**
 * Appends one JSON line per entry, synchronously, as things happen: a crash loses at most the
 * entry in flight, and a reader never sees half a line from us.
 */
export class Transcript {
  readonly path: string;
  constructor(dir: string, readonly sessionId: string) {
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, `${sessionId}.jsonl`);
  }
  write(entry: TranscriptEntry): void {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }
}

export interface SessionSummary { sessionId: string; path: string; mtimeMs: number; firstPrompt: string }

/** Sessions of a project, newest first. */
export function listSessions(dir: string): SessionSummary[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => {
      const path = join(dir, f);
      return { sessionId: f.slice(0, -6), path, mtimeMs: statSync(path).mtimeMs, firstPrompt: firstPrompt(path) };
    })
    // A session opened and left without a prompt has nothing to continue: -c and -r skip it.
    .filter((s): s is SessionSummary => s.firstPrompt !== undefined)
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
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

/** Reads a transcript, skipping a torn last line (a crash mid-write). */
export function readEntries(path: string): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try { out.push(JSON.parse(line) as TranscriptEntry); } catch { /* torn line: ignore */ }
  }
  return out;
}

/** One prompt of a transcript: the first user message after a `session`, `result` or `rewind` entry. */
export interface PromptMark {
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
export function replayTranscript(entries: readonly TranscriptEntry[], end = entries.length): { messages: Message[]; prompts: PromptMark[] } {
  let messages: Message[] = [];
  const prompts: PromptMark[] = [];
  let expectPrompt = true;
  for (let i = 0; i < end; i++) {
    const e = entries[i];
    if (e.type === 'session' || e.type === 'result') expectPrompt = true;
    if (e.type === 'message') {
      if (e.message.role === 'user' && expectPrompt) {
        const part = e.message.content.find((p) => p.type === 'text');
        prompts.push({ index: prompts.length, at: i, text: part && part.type === 'text' ? part.text : '', timestamp: e.timestamp, active: true });
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
 * (the session was interrupted or crashed mid-call) get an "interrupted" result.
 */
export function loadMessages(path: string): Message[] {
  const messages = replayTranscript(readEntries(path)).messages;
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
    const fill = missing.map((c) => ({
      type: 'tool-result' as const, toolCallId: c.toolCallId, toolName: c.toolName,
      output: { type: 'error-text' as const, value: 'Interrupted: the session ended before this tool call finished.' },
    }));
    if (next?.role === 'tool') { next.content.push(...fill); } else { repaired.push({ role: 'tool', content: fill }); }
  }
  return repaired;
}
