import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { z } from 'zod';
import { toolPath } from './zod-helpers.ts';
import { isInside, resolvePath } from './paths.ts';
import type { ToolDef, ToolResult } from './types.ts';
import description from './ls.md';

export const MAX_LS_ENTRIES = 1000;
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

const schema = z.object({
  path: toolPath('The directory to list: absolute, or relative to the project directory.'),
  ignore: z.preprocess((v) => (v === null ? undefined : typeof v === 'string' ? [v] : v), z.array(z.string()).optional())
    .describe('Glob patterns of files and directories to leave out.'),
});

const fail = (output: string): ToolResult => ({ output, isError: true });

interface Rules { base: string; ig: Ignore }

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
    if (cur === projectRoot || (await stat(join(cur, '.git')).then(() => true, () => false))) break;
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return rules;
}

const ignoredBy = (rules: Rules[], abs: string, isDir: boolean) =>
  rules.some(({ base, ig }) => ig.ignores(relative(base, abs) + (isDir ? '/' : '')));

interface Node { name: string; isDir: boolean; children: Node[] }

export const lsTool: ToolDef<typeof schema> = {
  name: 'LS',
  description,
  schema,
  readOnly: true,
  access: 'read', family: 'Read', pathIs: 'dir',
  filePath: (input, cwd) => resolvePath(input.path, cwd),

  async execute(input, ctx) {
    const root = resolvePath(input.path, ctx.cwd);
    const st = await stat(root).catch(() => undefined);
    if (!st) return fail(`Path does not exist: ${root}. Check the spelling, or list its parent directory.`);
    if (!st.isDirectory()) return fail(`${root} is a file, not a directory. Use Read to read it.`);

    const userIgnore = (input.ignore ?? []).map((p) => picomatch(p, { dot: true }));
    const skippedByUser = (rel: string, name: string) => userIgnore.some((m) => m(name) || m(rel));
    const top: Node = { name: root, isDir: true, children: [] };
    const queue: Array<{ node: Node; abs: string; rules: Rules[] }> = [
      { node: top, abs: root, rules: await inheritedRules(root, ctx.cwd) },
    ];
    let count = 0;
    let truncated = false;
    while (queue.length > 0 && !truncated) {
      if (ctx.signal.aborted) return fail('LS was interrupted.');
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
        if (ctx.readDenied?.('LS', childAbs)) continue; // as Grep and Glob: a Read deny rule hides the file

        if (count >= MAX_LS_ENTRIES) { truncated = true; break; }
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
    return { output, display: `Listed ${count} entr${count === 1 ? 'y' : 'ies'}${truncated ? ' (truncated)' : ''}`, response: { path: root, entries: count, truncated } };
  },
};
