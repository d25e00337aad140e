import type { Mount } from './mounts.ts';

interface BwrapOptions {
  mounts: readonly Mount[];
  /** Stand-ins for hidden places: an empty directory and an empty file, both mode 000 (nobody may open them, not even root without capabilities). */
  emptyDir: string;
  emptyFile: string;
  cwd: string;
  /** The descriptor bubblewrap reads the seccomp filter from, if any. */
  seccompFd?: number;
  /** Share the network namespace the caller is in (the session's proxy bridge) instead of a new, empty one. */
  shareNet: boolean;
  /** bubblewrap 0.8+: the command may not make user namespaces of its own (which would let it undo the mounts). */
  disableUserns: boolean;
}

/**
 * bubblewrap's arguments for one command (SPEC §13), up to the `--` before the command. New user,
 * PID, IPC and (unless shared) network namespaces; no capabilities, even for root; the whole
 * filesystem read-only with the plan's mounts on top; a fresh `/dev` and `/proc`; the command and
 * everything it starts die with bubblewrap, and bubblewrap with its parent.
 */
export function bwrapArgs(o: BwrapOptions): string[] {
  const args = ['--die-with-parent', '--unshare-user', ...(o.disableUserns ? ['--disable-userns'] : []), '--unshare-pid', '--unshare-ipc'];
  if (!o.shareNet) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const m of o.mounts) {
    if (m.kind === 'write') args.push('--bind', m.path, m.path);
    else if (m.kind === 'read-only') args.push('--ro-bind', m.path, m.path);
    else args.push('--ro-bind', m.dir ? o.emptyDir : o.emptyFile, m.path);
  }
  args.push('--chdir', o.cwd);
  if (o.seccompFd !== undefined) args.push('--seccomp', String(o.seccompFd));
  args.push('--');
  return args;
}
