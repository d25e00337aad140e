import { mkdtempSync, mkdirSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary project with the given files, and a separate temporary HOME. */
export function makeProject(files: Record<string, string> = {}): { dir: string; home: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-proj-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-home-')));
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return { dir, home };
}
