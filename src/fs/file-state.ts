import { stat } from 'node:fs/promises';

/** What the session remembers about a file the model has seen (read-before-write, stale edits). */
interface FileSnapshot {
  /** mtime in ms when the file was last read or written by a tool. */
  mtimeMs: number;
  size: number;
  /** Full text when it was last read/written whole; used to tell a real change from a touch. */
  content?: string;
}

/** Per-session map of absolute path → snapshot. Shared by Read, Write, Edit and @path attachments. */
export type FileStateMap = Map<string, FileSnapshot>;

/** Files up to this size keep their text in the snapshot, so a touch can be told from a change. */
export const SNAPSHOT_CONTENT_LIMIT = 1024 * 1024;

/** Records what the session now knows about `abs` (after a Read, Write or Edit). */
export async function recordSnapshot(ctx: { fileState: FileStateMap }, abs: string, content?: string): Promise<FileSnapshot> {
  const s = await stat(abs);
  const snap: FileSnapshot = { mtimeMs: s.mtimeMs, size: s.size };
  if (content !== undefined && Buffer.byteLength(content) <= SNAPSHOT_CONTENT_LIMIT) snap.content = content;
  ctx.fileState.set(abs, snap);
  return snap;
}

/**
 * Why an existing file may not be changed now, or undefined when it may: it must have been read
 * in this session and not changed on disk since. A newer mtime with the same text (a touch, a
 * formatter that changed nothing) is not a change.
 */
export function refuseUnreadOrStale(
  snap: FileSnapshot | undefined,
  current: { mtimeMs: number; size: number; content: string },
  verb: 'writing to' | 'editing',
): string | undefined {
  if (!snap) return `File has not been read yet. Read it first before ${verb} it.`;
  if (snap.mtimeMs === current.mtimeMs && snap.size === current.size) return undefined;
  if (snap.content !== undefined && snap.content === current.content) return undefined;
  return (
    'File has been modified since it was last read (by the user, a formatter or another program). Read it again before ' +
    `${verb} it, so your change is based on its current content.`
  );
}
