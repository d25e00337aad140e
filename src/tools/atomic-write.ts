import { randomBytes } from 'node:crypto';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` to `path` atomically: a temp file beside the target, fsync, then rename, so a
 * reader never sees half a file and a crash leaves the old file intact. Follows a symlink to its
 * target, keeps an existing file's permission bits and creates missing parent directories.
 * Throws on failure, after removing the temp file.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const mode = await stat(target).then((s) => s.mode & 0o7777, () => undefined);
  const tmp = join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fh = await open(tmp, 'wx', mode ?? 0o666);
    try {
      await fh.writeFile(content, 'utf8');
      // open() applies the umask; put the original bits back exactly.
      if (mode !== undefined) await fh.chmod(mode);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
}
