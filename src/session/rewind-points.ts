import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readEntries, replayTranscript, type TranscriptEntry } from './transcript.ts';

/** One earlier prompt of a session, and the files changed from it onwards (for `/rewind`, SPEC §9). */
export interface RewindPoint {
  /** 0-based position among the transcript's prompts (what a `rewind` entry names). */
  index: number;
  prompt: string;
  /** The prompt as the terminal UI showed it (a paste as its mark, a command as typed), when recorded. */
  shown?: string;
  timestamp: string;
  /** Files this prompt itself changed. */
  files: string[];
  /** Still part of the conversation: no conversation rewind went back to before it. */
  active: boolean;
}

/**
 * The prompts of a transcript in order (`replayTranscript` says what a prompt is); checkpoint
 * entries belong to the prompt before them. Positions, not checkpoint numbers, tie the two
 * together, so compaction and resuming cannot shift them.
 */
export function rewindPoints(transcriptPath: string): RewindPoint[] {
  return walk(readEntries(transcriptPath)).points;
}

function walk(entries: TranscriptEntry[]) {
  const { prompts } = replayTranscript(entries);
  const points: RewindPoint[] = prompts.map((p) => {
    const e = entries[p.at];
    return {
      index: p.index,
      prompt: p.text,
      ...(e.type === 'message' && e.shown !== undefined ? { shown: e.shown } : {}),
      timestamp: p.timestamp,
      files: [],
      active: p.active,
    };
  });
  const checkpoints: Array<{ point: number; path: string; backup: string | null; mode?: number }> = [];
  let owner = -1;
  entries.forEach((e, i) => {
    while (owner + 1 < prompts.length && prompts[owner + 1].at < i) owner++;
    if (e.type !== 'checkpoint' || owner < 0) return;
    const p = points[owner];
    if (!p.files.includes(e.path)) p.files.push(e.path);
    checkpoints.push({ point: owner, path: e.path, backup: e.backup, mode: e.mode });
  });
  return { points, checkpoints };
}

/**
 * Each file changed by prompt `index` or later whose content now differs from before that prompt,
 * with that earlier content (null: the file did not exist). The earliest backup of a file wins.
 */
function pending(transcriptPath: string, index: number): Map<string, Buffer | null> {
  return pendingWithModes(transcriptPath, index).files;
}

function pendingWithModes(transcriptPath: string, index: number): { files: Map<string, Buffer | null>; modes: Map<string, number> } {
  const dir = transcriptPath.replace(/\.jsonl$/, '.files');
  const earliest = new Map<string, string | null>();
  const modes = new Map<string, number>();
  for (const c of walk(readEntries(transcriptPath)).checkpoints) {
    if (c.point >= index && !earliest.has(c.path)) {
      earliest.set(c.path, c.backup);
      if (c.mode !== undefined) modes.set(c.path, c.mode);
    }
  }
  const out = new Map<string, Buffer | null>();
  for (const [path, backup] of earliest) {
    if (backup !== null && !existsSync(join(dir, backup))) continue; // the backup was deleted: nothing to go back to
    const before = backup === null ? null : readFileSync(join(dir, backup));
    const now = existsSync(path) ? readFileSync(path) : null;
    if (before === null ? now !== null : now === null || !before.equals(now)) out.set(path, before);
  }
  return { files: out, modes };
}

/** The files `rewindFiles(transcriptPath, index)` would put back, without touching them. */
export function filesToRewind(transcriptPath: string, index: number): string[] {
  return [...pending(transcriptPath, index).keys()];
}

/**
 * Puts back every file changed by prompt `index` or later as it was before that prompt; a file
 * that did not exist then is removed. Returns the paths it changed (files already as they were
 * are left alone). Files changed by Bash commands are not tracked (as in Claude Code). Prompts
 * count in transcript order, rewound ones included: a prompt's backups hold the files as they
 * were then, so rewinding the conversation alone never disturbs the files' history.
 */
export function rewindFiles(transcriptPath: string, index: number): string[] {
  const { files: todo, modes } = pendingWithModes(transcriptPath, index);
  const failed: string[] = [];
  for (const [path, before] of todo) {
    try {
      if (before === null) {
        rmSync(path, { force: true });
        continue;
      }
      // A file deleted since (its folder too) comes back with its folder and its permission bits;
      // one that is there is overwritten in place (its links, owner and mode stay).
      const existed = existsSync(path);
      if (!existed) mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, before);
      const mode = modes.get(path);
      if (!existed && mode !== undefined) chmodSync(path, mode);
    } catch (e) {
      failed.push(`${path}: ${(e as Error).message}`);
    }
  }
  // One file that cannot be put back does not stop the others; then the failure is reported.
  if (failed.length)
    throw new Error(`Could not restore ${failed.length === 1 ? 'a file' : `${failed.length} files`}: ${failed.join('; ')}`);
  return [...todo.keys()];
}
