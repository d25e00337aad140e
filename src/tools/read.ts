import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { binaryByName } from '../fs/binary.ts';
import { imageType, loadImage } from '../fs/image-file.ts';
import { recordSnapshot } from '../fs/file-state.ts';
import { resolvePath } from '../fs/paths.ts';
import { numberedRows } from '../fs/read-lines.ts';
import { encodingName, encodingNote, readTextPage, type TextPage } from '../fs/text-file.ts';
import { missingFileMessage } from '../fs/similar.ts';
import type { ToolDef, ToolResult } from './types.ts';
import { optionalInt, toolPath } from './zod-helpers.ts';
import description from './read.md';

/** Whether the file's last byte is a newline (false when it cannot be read). */
function endsWithNewline(abs: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(abs, 'r');
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] === 10;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const DEFAULT_READ_LIMIT = 2000;
/** A page stops early rather than exceed this many characters of output. */
const MAX_PAGE_CHARS = 100_000;

const schema = z.object({
  file_path: toolPath('The file to read: absolute, or relative to the project directory.'),
  offset: optionalInt('1-based line number to start reading at (0 means 1). Only needed for files too long to read at once.', 0),
  limit: optionalInt(`How many lines to read (default ${DEFAULT_READ_LIMIT}).`, 1),
});

const fail = (output: string): ToolResult => ({ output, isError: true });

export const readTool: ToolDef<typeof schema> = {
  name: 'Read',
  description,
  schema,
  readOnly: true,
  access: 'read',
  family: 'Read',
  pathIs: 'file',
  filePath: (input, cwd) => resolvePath(input.file_path, cwd),

  async execute(input, ctx) {
    const abs = resolvePath(input.file_path, ctx.cwd);
    const st = await stat(abs).catch((e: NodeJS.ErrnoException) => e);
    if (st instanceof Error) {
      if (st.code === 'ENOENT' || st.code === 'ENOTDIR') return fail(await missingFileMessage(abs, ctx.cwd));
      return fail(`Cannot read ${abs}: ${st.message}`);
    }
    if (st.isDirectory()) return fail(`${abs} is a directory, not a file. Use LS to list it, or Glob to find files in it.`);
    if (!st.isFile()) return fail(`${abs} is not a regular file (a device, socket or pipe); Read only reads files.`);
    if (imageType(abs)) {
      const img = await loadImage(abs, abs);
      if ('error' in img) return fail(`Cannot read ${img.error}.`);
      return {
        output: `Image ${abs} (${img.note}); the image itself is attached to this result.`,
        display: `Read image (${img.note})`,
        images: [img.image],
        response: { type: 'image', file: { base64: img.image.data, type: img.image.mediaType, originalSize: img.originalBytes } },
      };
    }
    const byName = binaryByName(abs);
    if (byName) return fail(`Cannot read ${abs}: it is ${byName}. Read shows text files only.`);

    const first = Math.max(1, input.offset ?? 1) - 1;
    const limit = input.limit ?? DEFAULT_READ_LIMIT;
    let read: TextPage;
    try {
      read = await readTextPage(abs, st.size, first, limit, ctx.signal);
    } catch (e) {
      if (ctx.signal.aborted) return fail('Read was interrupted.');
      return fail(`Cannot read ${abs}: ${(e as Error).message}`);
    }
    if (read.kind === 'binary')
      return fail(`Cannot read ${abs}: it looks like a binary file (it contains NUL bytes). Read shows text files only.`);
    if (read.kind === 'unsupported') return fail(`Cannot read ${abs}: ${read.why}.`);
    const { page, whole } = read;
    const note = encodingNote(read.format);
    await recordSnapshot(ctx, abs, whole);

    const total = page.totalLines;
    const totalText = page.counted ? `${total}` : `more than ${total}`;
    if (total === 0) {
      return {
        output: `The file ${abs} exists but is empty.`,
        display: 'Empty file',
        response: { type: 'text', file: { filePath: abs, content: '', numLines: 0, startLine: 1, totalLines: 0 } },
      };
    }
    if (page.lines.length === 0) {
      return fail(
        `The file ${abs} has only ${totalText} lines, fewer than offset=${first + 1}. Read again with an offset from 1 to ${total}.`,
      );
    }

    const { text, shown } = numberedRows(page, first + 1, MAX_PAGE_CHARS);
    const last = first + shown; // 1-based number of the last line shown
    let output = text;
    if (last < total || !page.counted) {
      const why = shown < page.lines.length ? ` (this page stopped at ${MAX_PAGE_CHARS} characters)` : '';
      output += `\n\n… file has ${totalText} lines; showing ${first + 1}-${last}${why}. Read again with offset=${last + 1} to continue.`;
    }
    if (note) output += `\n\n${note}`;
    // Claude Code's tool_response keeps a final newline and counts the empty line after it.
    const finalNewline = page.counted && (whole !== undefined ? whole.endsWith('\n') : endsWithNewline(abs));
    const atEnd = finalNewline && last === total;
    const content = page.lines.slice(0, shown).join('\n') + (atEnd ? '\n' : '');
    return {
      output,
      display: `Read ${shown} line${shown === 1 ? '' : 's'}${last < total ? ` (${first + 1}-${last} of ${totalText})` : ''}${note ? `, ${encodingName(read.format)}` : ''}`,
      response: {
        type: 'text',
        file: {
          filePath: abs,
          content,
          numLines: shown + (atEnd ? 1 : 0),
          startLine: first + 1,
          totalLines: total + (finalNewline ? 1 : 0),
        },
      },
    };
  },
};
