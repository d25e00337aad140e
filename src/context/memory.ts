import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInside } from '../fs/paths.ts';
import { expandImports, readText } from './imports.ts';

/**
 * ASSISTANT.md discovery (SPEC §6): `~/.assistant/ASSISTANT.md`, then from the repository root down
 * to the working directory `ASSISTANT.md` and `ASSISTANT.local.md` in each directory, with imports
 * inlined. Synchronous: it runs once at session start, before anything else needs the event loop.
 */

interface MemoryFile {
  path: string;
  scope: 'user' | 'project' | 'local';
  /** Imports already inlined; cut (with a visible note) when over the size limit. */
  content: string;
}

export interface MemoryResult {
  files: MemoryFile[];
  notices: string[];
  warnings: string[];
}

/** Characters (all files together, imports included) put into the system prompt at most. */
const DEFAULT_MEMORY_MAX_CHARS = 40_000;

export const MEMORY_FILE = 'ASSISTANT.md';
export const LOCAL_MEMORY_FILE = 'ASSISTANT.local.md';
/** Read when a project has no ASSISTANT.md at all, in this order of preference. */
export const FALLBACK_MEMORY_FILES = ['AGENTS.md', 'CLAUDE.md'];

/** The nearest ancestor of `cwd` (itself included) that holds `.git`, or undefined. */
function repositoryRoot(cwd: string): string | undefined {
  for (let d = cwd; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The directories read, outermost first: the repository root (or `cwd` alone) down to `cwd`. */
export function memoryDirs(cwd: string): string[] {
  const root = repositoryRoot(cwd) ?? cwd;
  const dirs: string[] = [];
  for (let d = cwd; ; d = dirname(d)) {
    dirs.unshift(d);
    if (d === root || dirname(d) === d) return dirs;
  }
}

const isFile = (p: string) => statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

function discover(cwd: string, home: string, notices: string[]): Array<{ path: string; scope: MemoryFile['scope'] }> {
  const found: Array<{ path: string; scope: MemoryFile['scope'] }> = [];
  const user = join(home, '.assistant', MEMORY_FILE);
  if (existsSync(user)) found.push({ path: user, scope: 'user' });
  const dirs = memoryDirs(cwd);
  const hasOwn = dirs.some((d) => isFile(join(d, MEMORY_FILE)));
  for (const d of dirs) {
    if (hasOwn) {
      if (existsSync(join(d, MEMORY_FILE))) found.push({ path: join(d, MEMORY_FILE), scope: 'project' });
    } else {
      const name = FALLBACK_MEMORY_FILES.find((n) => isFile(join(d, n)));
      if (name) {
        const path = join(d, name);
        found.push({ path, scope: 'project' });
        notices.push(
          `No ${MEMORY_FILE} found; using ${path} instead. Rename it to ${MEMORY_FILE}, ` +
            `or create an ${MEMORY_FILE} next to it that imports it with a line "@${name}".`,
        );
      }
    }
    if (existsSync(join(d, LOCAL_MEMORY_FILE))) found.push({ path: join(d, LOCAL_MEMORY_FILE), scope: 'local' });
  }
  // The same file twice (a symlink, or home inside the repository): keep the first.
  const seen = new Set<string>();
  return found.filter((f) => !seen.has(real(f.path)) && seen.add(real(f.path)));
}

/** Cuts the files to `max` characters in all, in order; the file that crosses the limit ends with a note, later ones hold only the note. */
function applyCap(files: MemoryFile[], max: number, warnings: string[]): void {
  const total = files.reduce((n, f) => n + f.content.length, 0);
  if (total <= max) return;
  let room = max;
  const cut: string[] = [];
  for (const f of files) {
    if (f.content.length <= room) {
      room -= f.content.length;
      continue;
    }
    const nl = f.content.lastIndexOf('\n', room);
    const keep = nl >= room / 2 ? nl : room;
    const note =
      `[… ${f.content.length - keep} characters of ${f.path} left out: ` +
      `the ${MEMORY_FILE} files are over the limit of ${max} characters in all]`;
    f.content = keep > 0 ? `${f.content.slice(0, keep)}\n\n${note}` : note;
    room = 0;
    cut.push(f.path);
  }
  warnings.push(
    `The ${MEMORY_FILE} files hold ${total} characters, over the limit of ${max}; the end of ` +
      `${cut.join(', ')} was left out of the system prompt. Shorten them (or move details into files the model can read when needed).`,
  );
}

export function loadMemory(o: { cwd: string; home: string; maxBytes?: number }): MemoryResult {
  const notices: string[] = [];
  const warnings: string[] = [];
  const files: MemoryFile[] = [];
  const root = real(repositoryRoot(o.cwd) ?? o.cwd);
  const userDir = real(join(o.home, '.assistant'));
  // A checked-in file must not pull ~/.ssh/id_rsa into the prompt: project and local files import
  // only from the project and ~/.assistant/ (Claude Code asks before a first external import).
  const projectImports = {
    home: o.home,
    mayImport: (p: string) => isInside(root, p) || isInside(userDir, p),
    remedy:
      `a project's ${MEMORY_FILE} may import files from the project and ~/.assistant/ only; ` +
      `move the file there, or import it from ~/.assistant/${MEMORY_FILE}`,
  };
  for (const f of discover(o.cwd, o.home, notices)) {
    if (!isFile(f.path)) {
      warnings.push(`${f.path} is not a regular file; skipped.`);
      continue;
    }
    const r = readText(f.path);
    if ('error' in r) {
      warnings.push(`Cannot read ${f.path}: ${r.error}; skipped.`);
      continue;
    }
    const x = expandImports(r.text, f.path, f.scope === 'user' ? { home: o.home } : projectImports);
    warnings.push(...x.warnings);
    files.push({ path: f.path, scope: f.scope, content: x.text });
  }
  applyCap(files, o.maxBytes ?? DEFAULT_MEMORY_MAX_CHARS, warnings);
  return { files, notices, warnings };
}

const SCOPE_TEXT: Record<MemoryFile['scope'], string> = {
  user: "the user's own instructions, for all projects",
  project: 'project instructions, shared with the team',
  local: "the user's private instructions for this project",
};

/**
 * The system-prompt section: each file under a header naming its path, in load order (later
 * files are closer to the working directory and more specific). Empty when there are no files.
 */
export function memorySection(files: MemoryFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map((f) => `## ${f.path} (${SCOPE_TEXT[f.scope]})\n\n${f.content.trim()}`);
  return [
    `# Instructions from ${MEMORY_FILE} files`,
    'The user wrote these instructions for you. Follow them; they override the defaults above. ' +
      'When two disagree, the later one (closer to the working directory) wins.',
    ...parts,
  ].join('\n\n');
}
