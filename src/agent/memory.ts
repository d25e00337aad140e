import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LOCAL_MEMORY_FILE, loadMemory, MEMORY_FILE, memorySection, type MemoryResult } from '../context/memory.ts';
import type { Session } from './session.ts';

/** The convention files' names: a turn that writes one has the memory read again after it. */
const MEMORY_NAMES = new Set([MEMORY_FILE, LOCAL_MEMORY_FILE]);

/** `path` is an ASSISTANT.md (or ASSISTANT.local.md): writing it changes the instructions. */
export const isMemoryFile = (path: string): boolean => MEMORY_NAMES.has(basename(path));

/** The ASSISTANT.md files of `cwd` as they are now (SPEC §6). */
export function readMemory(where: { cwd: string; home: string }): MemoryResult {
  return loadMemory({ cwd: where.cwd, home: where.home });
}

/**
 * The ASSISTANT.md files read again (after /init, /memory or a turn wrote them) and given to the
 * session: the next request's system prompt has them. Returns them, for /memory and /status.
 */
export function refreshMemory(session: Session, where: { cwd: string; home: string }): MemoryResult {
  const memory = readMemory(where);
  session.setMemory(memorySection(memory.files));
  return memory;
}

/** The files `/memory` offers to open: the project's, the project's for this user only, the user's own. */
export function memoryFileChoices(where: { cwd: string; home: string }): Array<{ label: string; path: string }> {
  return [
    { label: `Project: ${MEMORY_FILE}`, path: join(where.cwd, MEMORY_FILE) },
    { label: `Project, only you: ${LOCAL_MEMORY_FILE}`, path: join(where.cwd, LOCAL_MEMORY_FILE) },
    { label: `You, every project: ~/.assistant/${MEMORY_FILE}`, path: join(where.home, '.assistant', MEMORY_FILE) },
  ];
}

/** Creates `path` empty (and its folder) when it is not there, so an editor can open it. */
export function ensureMemoryFile(path: string): void {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
  }
}
