import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { sortByMtime } from '../fs/mtime-sort.ts';
import { displayPath, resolvePath } from '../fs/paths.ts';
import { COMMON_RG_FLAGS, runRg } from '../fs/rg.ts';
import type { ToolDef, ToolResult } from './types.ts';
import { optionalPath } from './zod-helpers.ts';
import description from './glob.md';

const MAX_GLOB_RESULTS = 100;

const schema = z.object({
  pattern: z.string().min(1).describe('The glob pattern to match file paths against, e.g. "**/*.ts" or "src/**/*.test.js".'),
  path: optionalPath('The directory to search in (default: the project directory).'),
});

const fail = (output: string): ToolResult => ({ output, isError: true });

export const globTool: ToolDef<typeof schema> = {
  name: 'Glob',
  description,
  schema,
  readOnly: true,
  access: 'read',
  family: 'Read',
  pathIs: 'dir',
  filePath: (input, cwd) => (input.path ? resolvePath(input.path, cwd) : undefined),

  async execute(input, ctx) {
    const started = performance.now();
    const base = input.path ? resolvePath(input.path, ctx.cwd) : ctx.cwd;
    const baseStat = await stat(base).catch(() => undefined);
    if (!baseStat) return fail(`Directory does not exist: ${base}. Use LS to find the right path.`);
    if (!baseStat.isDirectory()) return fail(`${base} is a file, not a directory: pass a directory as path.`);

    // The pattern's literal prefix (`src/`, `/abs/dir/`, `../x/`) becomes the directory rg lists.
    const scan = picomatch.scan(input.pattern);
    const matches: string[] = [];
    let root: string;
    if (!scan.isGlob) {
      const file = resolvePath(input.pattern, base);
      root = base;
      if (
        await stat(file).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        matches.push(file);
    } else {
      root = scan.base ? resolvePath(scan.base, base) : base;
      if (
        !(await stat(root).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      ) {
        return {
          output: 'No files found',
          display: 'No files',
          response: { filenames: [], durationMs: Math.round(performance.now() - started), numFiles: 0, truncated: false },
        };
      }
      const isMatch = picomatch(scan.glob, { dot: true });
      const end = await runRg(['--files', ...COMMON_RG_FLAGS], root, ctx.signal, (line) => {
        if (line !== '' && isMatch(line)) matches.push(resolve(root, line));
      });
      if (end.aborted) return fail('Glob was interrupted.');
      if (end.spawnError) return fail(`Could not run ripgrep: ${end.spawnError.message}`);
      if (end.code === 2 && matches.length === 0 && end.stderr) return fail(`Listing files failed: ${end.stderr}`);
    }

    // Files a Read deny rule covers are not listed (SPEC §5): not even their names. Checked lazily, newest
    // first, until one more than is shown (a deny check per file of a large tree costs seconds).
    const all = await sortByMtime(matches, root);
    const kept: string[] = [];
    let denied = 0;
    for (const m of all) {
      if (kept.length > MAX_GLOB_RESULTS) break;
      if (ctx.readDenied?.('Glob', m)) {
        denied++;
        continue;
      }
      kept.push(m);
    }
    const sorted = kept.map((p) => displayPath(p, ctx.cwd));
    const total = all.length - denied; // the files past the ones checked are counted unchecked
    const truncated = sorted.length > MAX_GLOB_RESULTS;
    const filenames = sorted.slice(0, MAX_GLOB_RESULTS);
    const response = { filenames, durationMs: Math.round(performance.now() - started), numFiles: filenames.length, truncated };
    if (filenames.length === 0) return { output: 'No files found', display: 'No files', response };
    let output = filenames.join('\n');
    if (truncated) {
      output +=
        `\n\n(Results are truncated: showing the ${MAX_GLOB_RESULTS} most recently modified of ${total} files. ` +
        'Use a more specific path or pattern.)';
    }
    return { output, display: `Found ${total} file${total === 1 ? '' : 's'}`, response };
  },
};
