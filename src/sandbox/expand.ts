import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { pathMatches, patternBase } from '../permissions/paths.ts';
import type { PathEntry } from './config.ts';

/** At most this many directory entries are looked at for all the patterns of a session. */
const EXPAND_BUDGET = 50_000;

export interface Expanded {
  path: string;
  source: string;
}

/**
 * The existing files and directories that pattern entries (`Read(.env)`, `Edit(**\/*.pem)`)
 * cover, found by walking below the pattern's literal start (the project root for a name that
 * matches at any depth). A matching directory is taken whole, not walked into; symbolic links and
 * `.git` are not walked into. Stops after `budget` entries and says so. Path entries pass through.
 */
export function expandEntries(
  entries: readonly PathEntry[],
  ctx: { projectRoot: string; home: string },
  budget = EXPAND_BUDGET,
): { paths: Expanded[]; truncated: string[] } {
  const paths: Expanded[] = [];
  const truncated: string[] = [];
  let left = budget;
  for (const e of entries) {
    if (e.kind === 'path') {
      paths.push({ path: e.path, source: e.source });
      continue;
    }
    const { rest } = patternBase(e.pattern, ctx.projectRoot, ctx.home);
    const literal = picomatch.scan(rest.replace(/^\/+/, '')).base;
    const anchored = e.base !== ctx.projectRoot || rest.startsWith('/') || rest.includes('/');
    const stack = [anchored && literal ? join(e.base, literal) : e.base];
    if (anchored && literal && pathMatches(e.pattern, stack[0], ctx.projectRoot, ctx.home)) {
      paths.push({ path: stack[0], source: e.source });
      continue;
    }
    walk: while (stack.length) {
      const dir = stack.pop()!;
      let found: Dirent[];
      try {
        found = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const d of found) {
        if (--left < 0) {
          truncated.push(e.source);
          break walk;
        }
        const abs = join(dir, d.name);
        if (pathMatches(e.pattern, abs, ctx.projectRoot, ctx.home)) {
          paths.push({ path: abs, source: e.source });
          continue;
        }
        if (d.isDirectory() && d.name !== '.git') stack.push(abs);
      }
    }
  }
  return { paths, truncated };
}
