import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { similarNames } from '../text/did-you-mean.ts';
import { displayPath } from './paths.ts';

/** Up to 5 existing paths in the same directory whose names look like `abs`'s (a typo, another extension, other case). */
export async function similarPaths(abs: string): Promise<string[]> {
  const dir = dirname(abs);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return similarNames(basename(abs), names).map((name) => join(dir, name));
}

/** "File does not exist" with what the model can do next: similar names, or that the directory is missing too. */
export async function missingFileMessage(abs: string, cwd: string): Promise<string> {
  let msg = `File does not exist: ${abs}.`;
  const similar = await similarPaths(abs);
  if (similar.length > 0) {
    msg += ` Did you mean ${similar.map((p) => displayPath(p, cwd)).join(', ')}?`;
  } else {
    const dirExists = await stat(dirname(abs)).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!dirExists) msg += ` Its directory ${dirname(abs)} does not exist either.`;
  }
  return `${msg} (Working directory: ${cwd}.) Use Glob or LS to find the right path.`;
}
