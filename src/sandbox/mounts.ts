import { lstatSync, mkdirSync, realpathSync, rmdirSync, statSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import type { Expanded } from './expand.ts';

/** One bubblewrap mount, in the order given: later mounts cover earlier ones. */
export type Mount =
  | { kind: 'write'; path: string }
  | { kind: 'read-only'; path: string }
  /** What the command sees at `path`: an empty directory or a file it may not open. */
  | { kind: 'hide'; path: string; dir: boolean };

interface MountPlan {
  mounts: Mount[];
  /** Empty directories made on the host as mount points for protected paths that do not exist yet; removed after the command. */
  placeholders: string[];
  /** Real writable roots, for the report. */
  write: string[];
  /** Hidden paths with where each rule comes from, for the report. */
  hidden: Expanded[];
  readOnly: Expanded[];
}

interface PlanInput {
  write: readonly string[];
  /** Protected paths (SPEC §11.16); `dir/` ends in a slash. May not exist: then they are kept from being created. */
  guarded: readonly string[];
  /** denyWrite, expanded: only what exists is kept read-only. */
  denyWrite: readonly Expanded[];
  /** denyRead, expanded: only what exists is hidden. */
  denyRead: readonly Expanded[];
}

const real = (p: string): string | undefined => {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
};
const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};
const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
export const within = (dir: string, p: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
const depth = (p: string) => p.split(sep).length;

/**
 * The mounts of one command (SPEC §13): everything read-only; the writable roots writable; the
 * protected and `denyWrite` paths inside them read-only again; the `denyRead` paths hidden. Paths
 * are taken where they really are (bubblewrap mounts on the target of a symbolic link). A deeper
 * mount wins over a shallower one, except that nothing re-opens a part of a hidden place
 * read-only. A protected path that does not exist yet is kept from being created where its parent
 * exists: a directory gets an empty read-only placeholder (made here, removed by
 * `removePlaceholders`), a file's parent directory is made read-only unless it is a writable root.
 * Touches the filesystem (stat, realpath, mkdir).
 */
export function planMounts(input: PlanInput): MountPlan {
  const write = [...new Set(input.write.map(real).filter((p): p is string => p !== undefined && isDir(p)))];
  const inWrite = (p: string) => write.some((w) => within(w, p));
  const isRoot = (p: string) => write.includes(p);
  const hidden: Expanded[] = [];
  for (const h of input.denyRead) {
    const r = real(h.path);
    if (r && r !== '/' && !hidden.some((x) => x.path === r)) hidden.push({ path: r, source: h.source });
  }
  /** Hidden: the deepest hidden place or writable root holding `p` is a hidden place. */
  const inHidden = (p: string) => {
    const h = hidden.filter((x) => within(x.path, p)).reduce((m, x) => Math.max(m, x.path.length), -1);
    const w = write.filter((x) => within(x, p)).reduce((m, x) => Math.max(m, x.length), -1);
    return h >= 0 && h >= w;
  };
  const readOnly: Expanded[] = [];
  const placeholders: string[] = [];
  const addReadOnly = (path: string, source: string) => {
    if (inWrite(path) && !isRoot(path) && !inHidden(path) && !readOnly.some((x) => x.path === path)) readOnly.push({ path, source });
  };
  for (const g of input.guarded) {
    const wantDir = g.endsWith('/');
    const path = wantDir ? g.slice(0, -1) : g;
    if (exists(path)) {
      const r = real(path);
      if (r) addReadOnly(r, 'protected');
      continue;
    }
    const parent = real(dirname(path));
    if (parent === undefined || !isDir(parent) || !inWrite(parent)) continue; // nothing to stop here, or the parent's own entry does
    if (wantDir) {
      // `.assistant/` of a project that has none yet: an empty read-only placeholder keeps a script from making one.
      const p = placeholder(parent + sep + basename(path), placeholders);
      if (p) addReadOnly(p, 'protected');
    }
    // A missing file (`.mcp.json`, `.git/config.worktree`) cannot be stopped without stopping every new
    // file beside it (`.git/` read-only would stop every commit); the permission rules still ask for it.
  }
  for (const d of input.denyWrite) {
    const r = real(d.path);
    if (r) addReadOnly(r, d.source);
  }

  // Shallow first, so the deeper mount wins; at the same path, hiding wins over the rest. A
  // read-only path inside another read-only one needs no mount of its own.
  const order = { write: 0, 'read-only': 1, hide: 2 };
  const covered = (x: Expanded) =>
    readOnly.some((o) => o !== x && within(o.path, x.path) && !write.some((w) => within(o.path, w) && within(w, x.path)));
  const mounts: Mount[] = [
    ...write.map((path): Mount => ({ kind: 'write', path })),
    ...readOnly.filter((x) => !covered(x)).map((x): Mount => ({ kind: 'read-only', path: x.path })),
    ...hidden.map((h): Mount => ({ kind: 'hide', path: h.path, dir: isDir(h.path) })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || order[a.kind] - order[b.kind]);
  return { mounts, placeholders, write, hidden, readOnly };
}

function placeholder(path: string, made: string[]): string | undefined {
  try {
    mkdirSync(path);
    made.push(path);
    return path;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EEXIST' ? path : undefined;
  }
}

/** Removes the placeholder directories a plan made, where they are still empty. */
export function removePlaceholders(plan: MountPlan): void {
  for (const p of [...plan.placeholders].reverse()) {
    try {
      rmdirSync(p);
    } catch {
      /* in use or filled: leave it */
    }
  }
}
