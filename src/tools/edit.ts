import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { diffFiles } from '../fs/diff-text.ts';
import { lineAt, looseMatch, matchEdit, replaceAt } from '../fs/edit-match.ts';
import { recordSnapshot, refuseUnreadOrStale } from '../fs/file-state.ts';
import { resolvePath } from '../fs/paths.ts';
import { missingFileMessage } from '../fs/similar.ts';
import { encodeText, NEW_FILE, readTextFile, unencodableMessage } from '../fs/text-file.ts';
import type { ToolContext, ToolDef, ToolResult } from './types.ts';
import { optionalBool, toolPath } from './zod-helpers.ts';
import description from './edit.md';

const schema = z.object({
  file_path: toolPath('The file to change: absolute, or relative to the project directory.', 'file'),
  old_string: z.string().describe('The exact text to replace (must occur exactly once unless replace_all is true).'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: optionalBool('Replace every occurrence of old_string (default false).'),
});

const fail = (output: string): ToolResult => ({ output, isError: true });

function notFound(abs: string, original: string, old: string): string {
  let msg = `old_string was not found in ${abs}. It must match the file exactly, including whitespace and indentation.`;
  if (/^ *\d+\t/m.test(old)) msg += " It seems to contain line-number prefixes from Read's output; leave those out.";
  const loose = looseMatch(original, old);
  if (loose) {
    const lines = original.split('\n').slice(loose.from - 1, Math.min(loose.to, loose.from + 9));
    msg +=
      `\nIt would match ${loose.from === loose.to ? `line ${loose.from}` : `lines ${loose.from}-${loose.to}`} if whitespace and quote characters were ignored; ` +
      `copy the exact text from the file (tabs vs spaces, trailing spaces, straight vs curly quotes). The file has:\n` +
      lines.join('\n');
  } else {
    msg += ' Read the file again to see its current content.';
  }
  return msg;
}

export const editTool: ToolDef<typeof schema> = {
  name: 'Edit',
  description,
  schema,
  readOnly: false,
  access: 'edit',
  family: 'Edit',
  pathIs: 'file',
  filePath: (input, cwd) => resolvePath(input.file_path, cwd),

  check: async (input, ctx) => {
    const plan = await planEdit(input, ctx);
    return 'output' in plan ? plan : undefined;
  },

  async execute(input, ctx) {
    const plan = await planEdit(input, ctx);
    if ('output' in plan) return plan;
    const { abs, original, updated, count, before, encoded } = plan;
    const replaceAll = input.replace_all ?? false;
    ctx.beforeChange?.(abs, before);
    try {
      await writeFileAtomic(abs, encoded);
    } catch (e) {
      return fail(`Cannot ${before === null ? 'create' : 'write'} ${abs}: ${(e as Error).message}`);
    }
    await recordSnapshot(ctx, abs, updated);
    const diff = diffFiles(abs, original, updated);
    const response = {
      filePath: abs,
      oldString: input.old_string,
      newString: input.new_string,
      originalFile: original,
      structuredPatch: diff.hunks,
      userModified: false,
      replaceAll,
    };
    if (before === null) return { output: `Created ${abs}.`, display: diff.text, response };
    const what = replaceAll ? ` (${count} occurrence${count === 1 ? '' : 's'} replaced)` : '';
    return { output: `The file ${abs} has been updated${what}:\n${diff.text}`, display: diff.text, response };
  },
};

/** What an edit would write, or why it cannot be made. Reads only (the tool's check runs it before any question). */
interface EditPlan {
  abs: string;
  original: string;
  updated: string;
  count: number;
  /** The file's bytes before the edit; null: the edit creates it. */
  before: Buffer | null;
  encoded: Buffer;
}

async function planEdit(input: z.infer<typeof schema>, ctx: ToolContext): Promise<EditPlan | ToolResult> {
  const abs = resolvePath(input.file_path, ctx.cwd);
  const replaceAll = input.replace_all ?? false;
  if (input.old_string === input.new_string) {
    return fail('No changes to make: old_string and new_string are exactly the same.');
  }

  const st = await stat(abs).catch((e: NodeJS.ErrnoException) => e);
  if (st instanceof Error) {
    if (st.code !== 'ENOENT') return fail(`Cannot edit ${abs}: ${st.message}`);
    if (input.old_string !== '') return fail(await missingFileMessage(abs, ctx.cwd));
    // An empty old_string on a new path creates the file.
    const bytes = (encodeText(input.new_string, NEW_FILE) as { bytes: Buffer }).bytes;
    return { abs, original: '', updated: input.new_string, count: 1, before: null, encoded: bytes };
  }
  if (st.isDirectory()) return fail(`${abs} is a directory; Edit needs a file path.`);
  if (!st.isFile()) return fail(`${abs} is not a regular file (a device, socket or pipe); Edit changes regular files only.`);

  const file = await readTextFile(abs, ctx.signal).catch((e: Error) => e);
  if (file instanceof Error) return fail(`Cannot edit ${abs}: ${file.message}`);
  if ('binary' in file)
    return fail(`Cannot edit ${abs}: it looks like a binary file (it contains NUL bytes). Edit changes text files only.`);
  const original = file.text;
  const refusal = refuseUnreadOrStale(ctx.fileState.get(abs), { mtimeMs: st.mtimeMs, size: st.size, content: original }, 'editing');
  if (refusal) return fail(refusal);

  let updated: string;
  let count = 1;
  if (input.old_string === '') {
    if (original !== '') {
      return fail(
        `old_string is empty but ${abs} is not. To insert text, put the neighbouring lines in old_string and ` +
          'repeat them in new_string with your addition; to replace the whole file, use Write.',
      );
    }
    updated = input.new_string;
  } else {
    const { starts, oldS, newS } = matchEdit(original, input.old_string, input.new_string);
    if (starts.length === 0) return fail(notFound(abs, original, input.old_string));
    if (starts.length > 1 && !replaceAll) {
      const lines = starts.slice(0, 10).map((s) => lineAt(original, s));
      return fail(
        `Found ${starts.length} occurrences of old_string in ${abs} (at lines ${lines.join(', ')}${starts.length > 10 ? ', …' : ''}), ` +
          'but replace_all is false. Include more surrounding context in old_string so it matches exactly once, ' +
          'or set replace_all to true to replace every occurrence.',
      );
    }
    count = starts.length;
    updated = replaceAt(original, starts, oldS.length, newS);
  }

  // The file's own encoding, BOM and line endings (text-file.ts): unchanged bytes stay as they were.
  const encoded = encodeText(updated, file.format);
  if ('unencodable' in encoded) return fail(unencodableMessage(abs, file.format, encoded.unencodable));
  return { abs, original, updated, count, before: file.bytes, encoded: encoded.bytes };
}
