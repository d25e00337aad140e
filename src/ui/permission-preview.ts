import { stat } from 'node:fs/promises';
import type { PermissionRequest } from '../agent/events.ts';
import { previewPatch } from '../fs/diff-text.ts';
import { resolvePath } from '../fs/paths.ts';
import { readTextFile } from '../fs/text-file.ts';

/** Files larger than this are not read for the question's preview (it falls back to old/new). */
const MAX_PREVIEW_BYTES = 2 * 1024 * 1024;

/**
 * The change an Edit or Write asking permission will make, as a numbered unified diff (3 lines of
 * context): the file (the request's path against `cwd`) is read and the edit applied in memory as
 * the tool would. A missing file shows every line added. Undefined for other tools, or when the
 * file cannot be read or the Edit would not apply: the question then previews old_string/new_string.
 */
export async function permissionPreview(req: Pick<PermissionRequest, 'tool' | 'input'>, cwd: string): Promise<string | undefined> {
  if ((req.tool !== 'Edit' && req.tool !== 'Write') || typeof req.input.file_path !== 'string' || !req.input.file_path.trim())
    return undefined;
  try {
    const abs = resolvePath(req.input.file_path, cwd);
    const st = await stat(abs).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
    if (st && (!st.isFile() || st.size > MAX_PREVIEW_BYTES)) return undefined;
    const file = st ? await readTextFile(abs) : null;
    if (file && 'binary' in file) return undefined;
    const original = file ? file.text : null;
    return previewPatch(req.tool, req.input, original);
  } catch {
    return undefined;
  }
}
