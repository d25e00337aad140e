import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { ToolContext } from '../../src/tools/types.ts';

/** A fresh temp directory, removed when the test file finishes. */
export async function tempDir(prefix = 'tools-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export function makeCtx(cwd: string, over: Partial<ToolContext> = {}): ToolContext {
  return { cwd, signal: new AbortController().signal, fileState: new Map(), shell: { cwd }, env: {}, ...over };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
