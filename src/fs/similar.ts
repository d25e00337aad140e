import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { editDistance } from '../text/did-you-mean.ts';
import { displayPath } from './paths.ts';

/** Edit distance, skipped (99) when the lengths alone differ by more than 3. */
const distance = (a: string, b: string) => (Math.abs(a.length - b.length) > 3 ? 99 : editDistance(a, b));

const stem = (name: string) => name.slice(0, name.length - extname(name).length).toLowerCase();

/** Up to 5 existing paths in the same directory whose names look like `abs`'s (a typo, another extension, other case). */
export async function similarPaths(abs: string): Promise<string[]> {
  const dir = dirname(abs);
  const want = basename(abs).toLowerCase();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const scored: Array<[number, string]> = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    let score: number;
    if (lower === want) score = 0;
    else if (stem(name) === stem(want) && stem(want) !== '') score = 1;
    else {
      const d = distance(lower, want);
      if (d <= Math.max(2, Math.floor(want.length / 5))) score = 1 + d;
      else if (want.length >= 3 && (lower.includes(stem(want)) || want.includes(stem(name))) && stem(name).length >= 3) score = 10;
      else continue;
    }
    scored.push([score, name]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  return scored.slice(0, 5).map(([, name]) => join(dir, name));
}

/** "File does not exist" with what the model can do next: similar names, or that the directory is missing too. */
export async function missingFileMessage(abs: string, cwd: string): Promise<string> {
  let msg = `File does not exist: ${abs}.`;
  const similar = await similarPaths(abs);
  if (similar.length > 0) {
    msg += ` Did you mean ${similar.map((p) => displayPath(p, cwd)).join(', ')}?`;
  } else {
    const dirExists = await stat(dirname(abs)).then((s) => s.isDirectory(), () => false);
    if (!dirExists) msg += ` Its directory ${dirname(abs)} does not exist either.`;
  }
  return `${msg} (Working directory: ${cwd}.) Use Glob or LS to find the right path.`;
}
