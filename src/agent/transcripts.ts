import { existsSync } from 'node:fs';
import { addUsage, emptyUsage, type Usage } from '../providers/types.ts';
import { SUMMARY_PREFIX } from '../session/compact.ts';
import { filesToRewind, rewindFiles, rewindPoints, type RewindPoint } from '../session/rewind-points.ts';
import { listSessions, projectDir, readEntries, replayTranscript, type TranscriptEntry } from '../session/transcript.ts';
import type { Session } from './session.ts';

export type { RewindPoint };

/** Where a project's transcripts (and the terminal's input history) are kept. */
export function projectFolder(where: { home: string; cwd: string }): string {
  return projectDir(where.home, where.cwd);
}

/** The other sessions of this project (`/resume`), newest first. */
export function otherSessions(
  where: { home: string; cwd: string },
  currentId: string,
): Array<{ sessionId: string; path: string; mtimeMs: number; firstPrompt: string }> {
  return listSessions(projectFolder(where)).filter((s) => s.sessionId !== currentId);
}

/**
 * A transcript's entries and where its prompts are (replayTranscript's rules: compactions and
 * rewinds applied). Never throws: an unreadable file has no entries.
 */
export function readReplay(path: string): { entries: TranscriptEntry[]; prompts: ReturnType<typeof replayTranscript>['prompts'] } {
  let entries: TranscriptEntry[];
  try {
    entries = readEntries(path);
  } catch {
    entries = [];
  }
  return { entries, prompts: replayTranscript(entries).prompts };
}

/** What the runs recorded in `entries` cost, and their tokens (a resumed session's earlier runs). */
export function recordedSpend(entries: readonly TranscriptEntry[]): { costUsd: number; usage: Usage } {
  let costUsd = 0;
  let usage = emptyUsage();
  for (const e of entries)
    if (e.type === 'result') {
      costUsd += e.costUsd;
      usage = addUsage(usage, e.usage);
    }
  return { costUsd, usage };
}

/** The user message a compaction left in place of the conversation (for the model, not a prompt). */
export const isCompactionSummary = (text: string): boolean => text.startsWith(SUMMARY_PREFIX);

/** `/rewind`: the session's earlier prompts, each with the files changed from it on (SPEC §9). */
export function sessionRewindPoints(session: Session): RewindPoint[] {
  const path = session.conversation.transcript.path;
  return existsSync(path) ? rewindPoints(path) : [];
}

/** The files restoring to before prompt `index` would put back. */
export function filesToRestore(session: Session, index: number): string[] {
  return filesToRewind(session.conversation.transcript.path, index);
}

/** Puts the files back as they were before prompt `index`; returns them. The conversation is not touched. */
export function restoreFiles(session: Session, index: number): string[] {
  return rewindFiles(session.conversation.transcript.path, index);
}
