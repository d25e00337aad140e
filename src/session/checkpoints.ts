import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transcript } from './transcript.ts';
import { readEntries, replayTranscript } from './transcript.ts';

/**
 * Keeps the previous content of every file a tool changes, once per file per prompt, so the files
 * of any earlier prompt can be restored (`/rewind`, SPEC §9). Backups live beside the transcript in
 * `<session-id>.files/`; the transcript records a `checkpoint` entry for each.
 *
 * Prompt numbers only grow within a transcript, across resumes: a resumed session continues after
 * the highest number its transcript already holds (checkpoint entries, or the prompts written), so
 * `restoreFiles(path, N)` never mixes a new prompt with an older one. (Counting the user messages
 * of the resumed conversation would restart lower after a compaction or a conversation rewind.)
 */
export class FileHistory {
  private readonly dir: string;
  private prompt = 0;
  private seen = new Set<string>();
  private count = 0;

  /** `atLeast`: a lower bound for the numbering (the transcript normally decides it). */
  constructor(
    private readonly transcript: Transcript,
    atLeast = 0,
  ) {
    this.dir = transcript.path.replace(/\.jsonl$/, '.files');
    this.prompt = Math.max(atLeast, promptsWritten(transcript.path));
  }

  /** Call when a new user prompt starts. Returns its number (1-based within the session). */
  startPrompt(): number {
    this.seen = new Set();
    return ++this.prompt;
  }

  /** Before a tool writes `path`: keep what was there (null: the file did not exist). */
  beforeChange = (path: string, previous: Uint8Array | string | null): void => {
    if (this.seen.has(path)) return;
    this.seen.add(path);
    let backup: string | null = null;
    let mode: number | undefined;
    if (previous !== null) {
      mode = statSync(path, { throwIfNoEntry: false })?.mode;
      if (mode !== undefined) mode &= 0o7777;
      mkdirSync(this.dir, { recursive: true });
      backup = `${++this.count}-${this.prompt}`;
      while (existsSync(join(this.dir, backup))) backup = `${++this.count}-${this.prompt}`;
      writeFileSync(join(this.dir, backup), previous);
    }
    this.transcript.write({
      type: 'checkpoint',
      prompt: this.prompt,
      path,
      backup,
      ...(mode !== undefined ? { mode } : {}),
      timestamp: new Date().toISOString(),
    });
  };
}

/** The highest prompt number a transcript already used: its last checkpoint's, or its count of prompts if higher. */
function promptsWritten(path: string): number {
  if (!existsSync(path)) return 0;
  const entries = readEntries(path);
  let highest = replayTranscript(entries).prompts.length;
  for (const e of entries) if (e.type === 'checkpoint' && e.prompt > highest) highest = e.prompt;
  return highest;
}

/**
 * Restores every file changed in prompt `prompt` or later to its content before that prompt
 * (files that did not exist then are removed). Returns the paths restored.
 */
export function restoreFiles(transcriptPath: string, prompt: number): string[] {
  const dir = transcriptPath.replace(/\.jsonl$/, '.files');
  const earliest = new Map<string, string | null>();
  for (const e of readEntries(transcriptPath)) {
    if (e.type === 'checkpoint' && e.prompt >= prompt && !earliest.has(e.path)) earliest.set(e.path, e.backup);
  }
  for (const [path, backup] of earliest) {
    if (backup === null) rmSync(path, { force: true });
    else writeFileSync(path, readFileSync(join(dir, backup)));
  }
  return [...earliest.keys()];
}
