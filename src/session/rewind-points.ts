import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEntries, type TranscriptEntry } from './transcript.ts';

/** One earlier prompt of a session, and the files changed from it onwards (for `/rewind`, SPEC §9). */
export interface RewindPoint {
  /** 0-based position among the session's prompts. */
  index: number;
  prompt: string;
  timestamp: string;
  /** Files this prompt itself changed. */
  files: string[];
}

/**
 * The prompts of a transcript in order. A prompt is the first user message after the start or
 * after the previous prompt's `result` entry (Stop-hook follow-ups are not prompts); checkpoint
 * entries belong to the prompt before them. Positions, not checkpoint numbers, tie the two
 * together, so compaction and resuming cannot shift them.
 */
export function rewindPoints(transcriptPath: string): RewindPoint[] {
  return walk(readEntries(transcriptPath)).points;
}

function walk(entries: TranscriptEntry[]) {
  const points: RewindPoint[] = [];
  const checkpoints: Array<{ point: number; path: string; backup: string | null }> = [];
  let expectPrompt = true;
  for (const e of entries) {
    if (e.type === 'result') expectPrompt = true;
    if (e.type === 'message' && e.message.role === 'user' && expectPrompt) {
      const part = e.message.content.find((p) => p.type === 'text');
      points.push({ index: points.length, prompt: part && part.type === 'text' ? part.text : '', timestamp: e.timestamp, files: [] });
      expectPrompt = false;
    }
    if (e.type === 'checkpoint' && points.length > 0) {
      const p = points[points.length - 1];
      if (!p.files.includes(e.path)) p.files.push(e.path);
      checkpoints.push({ point: p.index, path: e.path, backup: e.backup });
    }
  }
  return { points, checkpoints };
}

/**
 * Puts back every file changed by prompt `index` or later as it was before that prompt: the
 * earliest backup of each file wins; a file that did not exist then is removed. Returns the paths
 * restored. Files changed by Bash commands are not tracked (as in Claude Code).
 */
export function rewindFiles(transcriptPath: string, index: number): string[] {
  const dir = transcriptPath.replace(/\.jsonl$/, '.files');
  const earliest = new Map<string, string | null>();
  for (const c of walk(readEntries(transcriptPath)).checkpoints) {
    if (c.point >= index && !earliest.has(c.path)) earliest.set(c.path, c.backup);
  }
  for (const [path, backup] of earliest) {
    if (backup === null) rmSync(path, { force: true });
    else if (existsSync(join(dir, backup))) writeFileSync(path, readFileSync(join(dir, backup)));
  }
  return [...earliest.keys()];
}
