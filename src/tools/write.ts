import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { toolPath } from './zod-helpers.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { diffFiles } from '../fs/diff-text.ts';
import { recordSnapshot, refuseUnreadOrStale } from '../fs/file-state.ts';
import { resolvePath } from '../fs/paths.ts';
import { splitLines } from '../fs/read-lines.ts';
import { encodeText, NEW_FILE, readTextFile, type TextFile, unencodableMessage } from '../fs/text-file.ts';
import type { ToolContext, ToolDef, ToolResult } from './types.ts';
import description from './write.md';

const schema = z.object({
  file_path: toolPath('The file to write: absolute, or relative to the project directory.', 'file'),
  content: z.string().describe('The complete content to write to the file.'),
});

const fail = (output: string): ToolResult => ({ output, isError: true });

export const writeTool: ToolDef<typeof schema> = {
  name: 'Write',
  description,
  schema,
  readOnly: false,
  access: 'edit',
  family: 'Edit',
  pathIs: 'file',
  filePath: (input, cwd) => resolvePath(input.file_path, cwd),

  check: async (input, ctx) => {
    const found = await existing(input.file_path, ctx);
    return 'output' in found ? found : undefined;
  },

  async execute(input, ctx) {
    const found = await existing(input.file_path, ctx);
    if ('output' in found) return found;
    const { abs, previous, prevBytes, old } = found;

    // Replacing a file keeps its encoding, BOM and line endings (text-file.ts); a new file is UTF-8.
    const format = old?.format ?? NEW_FILE;
    const encoded = encodeText(input.content, format);
    if ('unencodable' in encoded) return fail(unencodableMessage(abs, format, encoded.unencodable));
    ctx.beforeChange?.(abs, prevBytes);
    try {
      await writeFileAtomic(abs, encoded.bytes);
    } catch (e) {
      return fail(`Cannot write ${abs}: ${(e as Error).message}`);
    }
    await recordSnapshot(ctx, abs, input.content);

    const lines = splitLines(input.content).length;
    if (previous === null) {
      return {
        output: `File created successfully at: ${abs} (${lines} ${lines === 1 ? 'line' : 'lines'})`,
        display: `Created ${abs} (${lines} ${lines === 1 ? 'line' : 'lines'})`,
        response: { type: 'create', filePath: abs, content: input.content, structuredPatch: [], originalFile: null },
      };
    }
    const diff = diffFiles(abs, previous, input.content);
    return {
      output: `The file ${abs} has been updated (${lines} line${lines === 1 ? '' : 's'}; +${diff.added} -${diff.removed}).`,
      display: diff.text || 'No changes',
      response: { type: 'update', filePath: abs, content: input.content, structuredPatch: diff.hunks, originalFile: previous },
    };
  },
};

/** The file a Write replaces (or none), or why it may not: reads only (the tool's check runs it before any question). */
async function existing(
  filePath: string,
  ctx: ToolContext,
): Promise<{ abs: string; previous: string | null; prevBytes: Buffer | null; old?: TextFile } | ToolResult> {
  const abs = resolvePath(filePath, ctx.cwd);
  const st = await stat(abs).catch((e: NodeJS.ErrnoException) => e);
  if (st instanceof Error)
    return st.code === 'ENOENT' ? { abs, previous: null, prevBytes: null } : fail(`Cannot write ${abs}: ${st.message}`);
  if (st.isDirectory()) return fail(`${abs} is a directory; Write needs a file path.`);
  if (!st.isFile()) return fail(`${abs} is not a regular file (a device, socket or pipe); Write changes regular files only.`);
  const file = await readTextFile(abs, ctx.signal).catch((e: Error) => e);
  if (file instanceof Error) return fail(`Cannot write ${abs}: ${file.message}`);
  const snap = ctx.fileState.get(abs);
  if ('binary' in file) {
    // A binary file was never Read (Read refuses it): replacing it needs the same proof of intent.
    if (!snap) return fail(`${abs} is a binary file that has not been read; Write replaces only files read in this session.`);
  }
  const previous = 'binary' in file ? null : file.text;
  const refusal = refuseUnreadOrStale(snap, { mtimeMs: st.mtimeMs, size: st.size, content: previous ?? '' }, 'writing to');
  if (refusal) return fail(refusal);
  return { abs, previous, prevBytes: file.bytes, ...('binary' in file ? {} : { old: file }) };
}
