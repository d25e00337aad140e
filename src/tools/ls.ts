import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { toolPath } from './zod-helpers.ts';
import { listTree } from '../fs/list-tree.ts';
import { resolvePath } from '../fs/paths.ts';
import type { ToolDef, ToolResult } from './types.ts';
import description from './ls.md';

const schema = z.object({
  path: toolPath('The directory to list: absolute, or relative to the project directory.'),
  ignore: z
    .preprocess((v) => (v === null ? undefined : typeof v === 'string' ? [v] : v), z.array(z.string()).optional())
    .describe('Glob patterns of files and directories to leave out.'),
});

const fail = (output: string): ToolResult => ({ output, isError: true });

export const lsTool: ToolDef<typeof schema> = {
  name: 'LS',
  description,
  schema,
  readOnly: true,
  access: 'read',
  family: 'Read',
  pathIs: 'dir',
  filePath: (input, cwd) => resolvePath(input.path, cwd),

  async execute(input, ctx) {
    const root = resolvePath(input.path, ctx.cwd);
    const st = await stat(root).catch(() => undefined);
    if (!st) return fail(`Path does not exist: ${root}. Check the spelling, or list its parent directory.`);
    if (!st.isDirectory()) return fail(`${root} is a file, not a directory. Use Read to read it.`);
    const tree = await listTree(root, {
      projectRoot: ctx.cwd,
      signal: ctx.signal,
      ignore: input.ignore,
      hidden: (abs) => ctx.readDenied?.('LS', abs) === true, // as Grep and Glob: a Read deny rule hides the file
    });
    if (!tree) return fail('LS was interrupted.');
    const { output, count, truncated } = tree;
    return {
      output,
      display: `Listed ${count} entr${count === 1 ? 'y' : 'ies'}${truncated ? ' (truncated)' : ''}`,
      response: { path: root, entries: count, truncated },
    };
  },
};
