import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { FileStateMap } from '../fs/file-state.ts';
import { listTree } from '../fs/list-tree.ts';
import { displayPath, isInside, resolvePath } from '../fs/paths.ts';
import { similarPaths } from '../fs/similar.ts';
import { type ImageData, imageType, loadImage } from '../fs/image-file.ts';
import { attachFile } from './attach-file.ts';
import { type AtCandidate, type AtToken, looksLikePath, packageScope, scanAtTokens } from './at-tokens.ts';

/**
 * `@path` in a prompt (SPEC §6): a file's numbered lines, some of its lines (`@a.ts:40-80`) or a
 * directory's listing are attached to the user's message. Every problem is found before anything
 * is sent, and all of them are reported together.
 */

export interface AttachContext {
  /** The project directory: relative paths resolve here; outside it reading needs an explicit grant. */
  cwd: string;
  home: string;
  /** Attached files are recorded here as after a Read, so a later Edit is accepted. */
  fileState: FileStateMap;
  /** The permission decision for Read of this path (deny rules apply to `@` references too). */
  canRead(absPath: string): 'allow' | 'ask' | 'deny';
  /** Lines of one file attached at most (default 2000, like Read). */
  maxLines?: number;
  /** Bytes of numbered output per file at most (default 256 KB). */
  maxBytes?: number;
  /** Why an image cannot be attached (the model takes none); undefined: images are attached. */
  imagesRefused?: string;
  signal?: AbortSignal;
}

interface Attachment {
  /** As written in the prompt, e.g. `@src/a.ts:40-80`. */
  ref: string;
  /** Absolute (a resource: its URI). */
  path: string;
  /** `resource`: an MCP server's resource, `@SERVER:URI` (SPEC §12). */
  kind: 'file' | 'range' | 'directory' | 'image' | 'resource';
  /** What the model reads: a header naming the file and lines, then the content. */
  text: string;
  /** `image`: the picture itself, sent after the prompt's text. */
  image?: ImageData;
}

export type Expansion = { ok: true; prompt: string; attachments: Attachment[] } | { ok: false; errors: string[] };

const DEFAULT_ATTACH_LINES = 2000;
const DEFAULT_ATTACH_BYTES = 256 * 1024;

interface Hit {
  c: AtCandidate;
  abs: string;
  st: Stats;
}

/** Where attached files are recorded (as after a Read) until every reference is known to be good. */
interface ReadState {
  signal: AbortSignal;
  fileState: FileStateMap;
}

/** The first reading of the token that names something on disk. */
async function locate(tok: AtToken, ctx: AttachContext): Promise<Hit | undefined> {
  for (const c of tok.candidates) {
    const abs = resolvePath(c.path, ctx.cwd, ctx.home);
    const st = await stat(abs).catch(() => undefined);
    if (st) return { c, abs, st };
  }
  return undefined;
}

async function missing(tok: AtToken, ctx: AttachContext): Promise<string> {
  const abs = resolvePath(tok.fallback.path, ctx.cwd, ctx.home);
  const similar = await similarPaths(abs);
  const hint = similar.length ? ` (did you mean ${similar.map((p) => `@${displayPath(p, ctx.cwd)}`).join(', ')}?)` : '';
  return `${tok.fallback.ref}: no such file${hint}`;
}

/** Why the user may not attach `abs`, or undefined. A symlink must be readable under both names. */
async function refusal(ref: string, abs: string, ctx: AttachContext): Promise<string | undefined> {
  const real = await realpath(abs).catch(() => abs);
  const names = real === abs ? [abs] : [abs, real];
  const verdicts = names.map((p) => ctx.canRead(p));
  if (verdicts.includes('deny')) return `${ref}: denied by a Read rule`;
  if (!verdicts.includes('ask')) return undefined;
  if (names.every((p) => isInside(ctx.cwd, p))) {
    return `${ref}: a Read "ask" rule covers it, so it is not attached; ask the model to read it, or allow it with a Read rule`;
  }
  return `${ref}: outside the project; allow it with --add-dir or a Read rule`;
}

async function attachOne(hit: Hit, ctx: AttachContext, tool: ReadState): Promise<Attachment | string> {
  const { c, abs, st } = hit;
  const display = displayPath(abs, ctx.cwd);
  const denied = await refusal(c.ref, abs, ctx);
  if (denied) return denied;
  if (st.isDirectory()) {
    if (c.start !== undefined) return `${c.ref}: ${display} is a directory; a line range needs a file`;
    const tree = await listTree(abs, { projectRoot: ctx.cwd, signal: tool.signal });
    if (!tree) return `${c.ref}: LS was interrupted.`;
    return {
      ref: c.ref,
      path: abs,
      kind: 'directory',
      text: `Listing of ${display.endsWith('/') ? display : `${display}/`}:\n${tree.output}`,
    };
  }
  if (!st.isFile()) return `${c.ref}: ${display} is not a regular file (a device, socket or pipe)`;
  if (c.start !== undefined && (c.start < 1 || (c.end ?? c.start) < c.start)) {
    return `${c.ref}: not a valid line range (lines are numbered from 1; write @file:40-80 or @file:40)`;
  }
  if (imageType(abs) && c.start === undefined) {
    if (ctx.imagesRefused) return `${c.ref}: ${display} is an image, and ${ctx.imagesRefused}`;
    const img = await loadImage(abs, display);
    if ('error' in img) return `${c.ref}: ${img.error}`;
    return { ref: c.ref, path: abs, kind: 'image', text: `Image ${display} (${img.note}) is attached to this message.`, image: img.image };
  }
  const range = c.start === undefined ? undefined : { start: c.start, end: c.end ?? c.start };
  const r = await attachFile(
    {
      abs,
      display,
      ref: c.ref,
      range,
      tool,
      maxLines: ctx.maxLines ?? DEFAULT_ATTACH_LINES,
      maxBytes: ctx.maxBytes ?? DEFAULT_ATTACH_BYTES,
    },
    st.size,
  );
  if ('error' in r) return r.error;
  return { ref: c.ref, path: abs, kind: range ? 'range' : 'file', text: r.text };
}

/**
 * Resolves every reference in `prompt`. ok:false lists every problem (nothing should be sent);
 * ok:true gives the attachments, each once, and records attached files in `ctx.fileState` (only
 * then: a failed expansion leaves the session's file state untouched). The prompt is unchanged.
 */
export async function expandAtPaths(prompt: string, ctx: AttachContext): Promise<Expansion> {
  const errors: string[] = [];
  const attachments: Attachment[] = [];
  const seen = new Set<string>();
  const scratch: FileStateMap = new Map();
  const tool: ReadState = { signal: ctx.signal ?? new AbortController().signal, fileState: scratch };
  for (const tok of scanAtTokens(prompt)) {
    const hit = await locate(tok, ctx);
    if (!hit) {
      const scope = packageScope(tok);
      const meant =
        scope === undefined
          ? looksLikePath(tok)
          : await stat(resolvePath(scope, ctx.cwd, ctx.home)).then(
              (s) => s.isDirectory(),
              () => false,
            );
      if (meant) errors.push(await missing(tok, ctx));
      continue;
    }
    const key = `${hit.abs}:${hit.c.start ?? ''}-${hit.c.end ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const r = await attachOne(hit, ctx, tool);
    if (typeof r === 'string') errors.push(r);
    else attachments.push(r);
  }
  if (errors.length > 0) return { ok: false, errors };
  for (const [path, snap] of scratch) ctx.fileState.set(path, snap);
  return { ok: true, prompt, attachments };
}

/** The images of the attachments, in order. */
export function attachmentImages(a: Attachment[]): ImageData[] {
  return a.flatMap((x) => (x.image ? [x.image] : []));
}

/** The attachments as they go into the user's message, after the prompt. Empty when there are none. */
export function attachmentText(a: Attachment[]): string {
  return a.map((x) => x.text).join('\n\n');
}
