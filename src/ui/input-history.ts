import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { replaceFileSync } from '../fs/atomic-write.ts';

const KEEP = 500;

/**
 * The prompts typed in a project, oldest first, kept in `~/.assistant/projects/<project>/input-history`
 * (one JSON string a line; not `.jsonl`, which names transcripts). ↑/↓ walk it. Never throws:
 * a history that cannot be read or written only means no history.
 */
export class InputHistory {
  readonly file: string;
  private entries: string[];
  constructor(projectDir: string) {
    this.file = join(projectDir, 'input-history');
    this.entries = [];
    try {
      if (existsSync(this.file)) {
        for (const line of readFileSync(this.file, 'utf8').split('\n')) {
          if (!line) continue;
          try {
            const v = JSON.parse(line);
            if (typeof v === 'string') this.entries.push(v);
          } catch {
            /* torn line */
          }
        }
      }
    } catch {
      /* unreadable: start empty */
    }
  }

  get all(): readonly string[] {
    return this.entries;
  }

  add(text: string): void {
    if (!text.trim() || this.entries.at(-1) === text) return;
    this.entries.push(text);
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      if (this.entries.length > KEEP * 2) {
        this.entries = this.entries.slice(-KEEP);
        replaceFileSync(this.file, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      } else {
        appendFileSync(this.file, `${JSON.stringify(text)}\n`);
      }
    } catch {
      /* read-only home: keep it in memory */
    }
  }
}
