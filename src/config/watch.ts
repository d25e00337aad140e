import { statSync, unwatchFile, watchFile } from 'node:fs';

function stamp(file: string): string {
  try {
    const s = statSync(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'missing';
  }
}

/**
 * Remembers the settings files as they were when the session started. The session keeps using
 * that snapshot (a model cannot switch off its own guards mid-run); `changed()` names each file
 * that changed since, once per version of the file, so the user can be told (SPEC §4, §11.9).
 */
export class SettingsWatch {
  private readonly stamps = new Map<string, string>();
  /** The version of each file last reported (or reviewed with `/hooks`). */
  private readonly reported = new Map<string, string>();
  constructor(files: string[]) {
    for (const f of files) this.stamps.set(f, stamp(f));
  }
  changed(): string[] {
    const out: string[] = [];
    for (const [f, s] of this.stamps) {
      const now = stamp(f);
      if (now === s || this.reported.get(f) === now) continue;
      this.reported.set(f, now);
      out.push(f);
    }
    return out;
  }

  /**
   * Takes the files as they are now as the new snapshot (all files when none are named): a change
   * the session made itself ("allow always") or one the user accepted (`/hooks`).
   */
  acknowledge(files?: string[]): void {
    for (const f of files ?? [...this.stamps.keys()]) {
      if (!this.stamps.has(f)) continue;
      this.stamps.set(f, stamp(f));
      this.reported.delete(f);
    }
  }

  /**
   * The user has reviewed the files as they are now and kept the snapshot (`/hooks`, "keep"):
   * the snapshot stays, and these versions are not reported again (a later change is).
   */
  reviewed(): void {
    for (const [f, s] of this.stamps) {
      const now = stamp(f);
      if (now !== s) this.reported.set(f, now);
    }
  }

  /**
   * Calls `onChange` soon after a file changes (polled every `intervalMs`; a file that does not
   * exist yet counts too), so an idle session can report it without waiting for the next prompt.
   * Does not keep the process alive. Returns a function that stops it.
   */
  follow(onChange: () => void, intervalMs = 500): () => void {
    const listener = () => onChange();
    const files = [...this.stamps.keys()];
    for (const f of files) watchFile(f, { interval: intervalMs, persistent: false }, listener);
    return () => {
      for (const f of files) unwatchFile(f, listener);
    };
  }
}
