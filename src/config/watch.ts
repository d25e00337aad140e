import { statSync } from 'node:fs';

function stamp(file: string): string {
  try { const s = statSync(file); return `${s.mtimeMs}:${s.size}`; } catch { return 'missing'; }
}

/**
 * Remembers the settings files as they were when the session started. The session keeps using
 * that snapshot (a model cannot switch off its own guards mid-run); `changed()` names each file
 * that changed since, once, so the user can be told (SPEC §4, §11.9).
 */
export class SettingsWatch {
  private readonly stamps = new Map<string, string>();
  private readonly reported = new Set<string>();
  constructor(files: string[]) {
    for (const f of files) this.stamps.set(f, stamp(f));
  }
  changed(): string[] {
    const out: string[] = [];
    for (const [f, s] of this.stamps) {
      if (this.reported.has(f) || stamp(f) === s) continue;
      this.reported.add(f);
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
}
