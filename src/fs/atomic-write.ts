import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { access, copyFile, lstat, mkdir, open, readlink, realpath, rename, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

const tempBeside = (target: string, kind: string) =>
  join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.${kind}`);

/**
 * The file a write to `path` lands on: symlinks followed, also a link whose target does not exist
 * yet (the target is created; the link is never replaced by a plain file).
 */
async function writeTarget(path: string): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (real) return real;
  let at = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    const st = await lstat(at).catch(() => undefined);
    if (!st?.isSymbolicLink()) return at;
    at = resolve(dirname(at), await readlink(at));
  }
  return at;
}

/**
 * Writes `content` to `path`: follows a symlink to its target, keeps an existing file's permission
 * bits and owner (where the process may set it) and creates missing parent directories. Refuses
 * anything that is not a regular file (a pipe, a device): it is never replaced. Throws on failure, after removing its temp files.
 *
 * A file with one link is replaced atomically: a temp file beside the target, fsync, then rename,
 * so a reader never sees half a file and a crash leaves the old file intact. A rename would cut a
 * file with several hard links off from its other names (they would keep the old content), so
 * such a file is written in place (`writeInPlace`), with a backup copy kept until the write is done.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const target = await writeTarget(path);
  await mkdir(dirname(target), { recursive: true });
  const st = await stat(target).catch(() => undefined);
  if (st && !st.isFile()) throw new Error(`${target} is not a regular file (a directory, device, socket or pipe)`);
  // A file its owner made read-only is not replaced behind their back (a rename would need only the folder's permission).
  if (
    st &&
    !(await access(target, constants.W_OK).then(
      () => true,
      () => false,
    ))
  )
    throw new Error(`${target} is read-only (no write permission): it was not changed. Make it writable first if it should change.`);
  if (st && st.nlink > 1) return writeInPlace(target, content);
  const mode = st ? st.mode & 0o7777 : undefined;
  const tmp = tempBeside(target, 'tmp');
  const fh = await open(tmp, 'wx', mode ?? 0o666).catch((e: NodeJS.ErrnoException) => e);
  // A writable file in a folder we may not create files in (a read-only folder): written in place, as an editor would.
  if (fh instanceof Error) {
    if (st && (fh.code === 'EACCES' || fh.code === 'EPERM')) return writeInPlace(target, content);
    throw fh;
  }
  try {
    try {
      await fh.writeFile(content);
      // The new inode is the writer's: give it the old owner back (only root may; chown clears set-id bits, so first).
      if (st && (st.uid !== process.getuid?.() || st.gid !== process.getgid?.())) await fh.chown(st.uid, st.gid).catch(() => {});
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

/**
 * Overwrites a file in place (same inode: every hard link sees the change; owner, mode and
 * extended attributes stay). The old content is first copied to a backup beside it and synced;
 * if the write fails, the backup is copied back. Should even that fail, the backup is left and
 * the error names it. Readers may see a partly written file while this runs. Also used for a
 * writable file in a folder where no temp file can be created.
 */
async function writeInPlace(target: string, content: string | Uint8Array): Promise<void> {
  let backup = tempBeside(target, 'bak');
  // In a folder we may not create files in, the backup goes to the temp folder.
  await copyFile(target, backup, constants.COPYFILE_EXCL).catch(async (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EACCES' && e.code !== 'EPERM') throw e;
    backup = join(tmpdir(), basename(tempBeside(target, 'bak')));
    await copyFile(target, backup, constants.COPYFILE_EXCL);
  });
  const bfh = await open(backup, 'r+');
  try {
    await bfh.sync();
  } finally {
    await bfh.close();
  }
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  try {
    const fh = await open(target, 'r+');
    try {
      await fh.write(bytes, 0, bytes.length, 0);
      await fh.truncate(bytes.length);
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch (e) {
    try {
      await copyFile(backup, target);
    } catch {
      throw new Error(`${(e as Error).message} (writing in place to keep its hard links; the previous content is kept in ${backup})`);
    }
    await unlink(backup).catch(() => {});
    throw e;
  }
  await unlink(backup).catch(() => {});
}

/**
 * Replaces a small file (settings, state, history) whole and synchronously: a temp file beside its
 * real target, fsync, rename, so a crash or a second writer never leaves half a file; the file's
 * permission bits are kept. For callers that must finish before they return.
 */
export function replaceFileSync(file: string, text: string): void {
  const target = existsSync(file) ? realpathSync(file) : file;
  const mode = statSync(target, { throwIfNoEntry: false })?.mode;
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, 'wx', mode === undefined ? 0o666 : mode & 0o7777);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
}
