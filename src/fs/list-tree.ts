import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { isInside } from './paths.ts';

/** A directory's listing (the LS tool, `@dir` attachments): entries at most. */
const MAX_LS_ENTRIES = 1000;
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

interface Rules {
  base: string;
  ig: Ignore;
}

async function gitignoreAt(dir: string): Promise<Rules | undefined> {
  const text = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { base: dir, ig: ignore().add(text) };
}

/** .gitignore files from `dir` up to the project root (or the repository root), outermost first. */
async function inheritedRules(dir: string, projectRoot: string): Promise<Rules[]> {
  const rules: Rules[] = [];
  let cur = dirname(dir);
  while (isInside(projectRoot, cur) && cur !== dir) {
    const r = await gitignoreAt(cur);
    if (r) rules.unshift(r);
    if (
      cur === projectRoot ||
      (await stat(join(cur, '.git')).then(
        () => true,
        () => false,
      ))
    )
      break;
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return rules;
}

const ignoredBy = (rules: Rules[], abs: string, isDir: boolean) =>
  rules.some(({ base, ig }) => ig.ignores(relative(base, abs) + (isDir ? '/' : '')));

interface Node {
  name: string;
  isDir: boolean;
  children: Node[];
}

interface TreeOptions {
  /** The project directory: .gitignore files between it and `root` apply too. */
  projectRoot: string;
  signal: AbortSignal;
  /** Glob patterns of names or paths (relative to `root`) to leave out. */
  ignore?: string[];
  /** Entries left out besides ignored ones (a Read deny rule). */
  hidden?: (abs: string) => boolean;
}

interface Tree {
  /** `- root/` and the entries indented below it, directories first; a note when empty or cut. */
  output: string;
  count: number;
  truncated: boolean;
}

/**
 * The directory `root` (absolute, a directory) as an indented tree, breadth first, skipping `.git`,
 * `node_modules` and what .gitignore files ignore. Undefined when `signal` aborted it.
 */
export async function listTree(root: string, opts: TreeOptions): Promise<Tree | undefined> {
  const userIgnore = (opts.ignore ?? []).map((p) => picomatch(p, { dot: true }));
  const skippedByUser = (rel: string, name: string) => userIgnore.some((m) => m(name) || m(rel));
  const top: Node = { name: root, isDir: true, children: [] };
  const queue: Array<{ node: Node; abs: string; rules: Rules[] }> = [
    { node: top, abs: root, rules: await inheritedRules(root, opts.projectRoot) },
  ];
  let count = 0;
  let truncated = false;
  while (queue.length > 0 && !truncated) {
    if (opts.signal.aborted) return undefined;
    const { node, abs, rules: parentRules } = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      continue; // unreadable sub-directory: list it without children
    }
    const own = await gitignoreAt(abs);
    const rules = own ? [...parentRules, own] : parentRules;
    entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const childAbs = join(abs, e.name);
      const isDir = e.isDirectory();
      if (ALWAYS_SKIPPED.has(e.name) || ignoredBy(rules, childAbs, isDir) || skippedByUser(relative(root, childAbs), e.name)) continue;
      if (opts.hidden?.(childAbs)) continue;

      if (count >= MAX_LS_ENTRIES) {
        truncated = true;
        break;
      }
      count++;
      const child: Node = { name: e.name, isDir, children: [] };
      node.children.push(child);
      if (isDir) queue.push({ node: child, abs: childAbs, rules });
    }
  }

  const lines: string[] = [];
  const render = (n: Node, depth: number) => {
    lines.push(`${'  '.repeat(depth)}- ${n.name}${n.isDir && !n.name.endsWith('/') ? '/' : ''}`);
    for (const c of n.children) render(c, depth + 1);
  };
  render(top, 0);
  let output = lines.join('\n');
  if (count === 0) output += '\n  (no entries to show)';
  if (truncated) {
    output += `\n\n(Listing truncated at ${MAX_LS_ENTRIES} entries; there are more. List a sub-directory, or use Glob to find specific files.)`;
  }
  return { output, count, truncated };
}
