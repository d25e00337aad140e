import type { ImageData } from '../tools/types.ts';
import type { McpManager } from './manager.ts';

/**
 * `@SERVER:URI` in a prompt (SPEC §12): the resource `URI` of the MCP server `SERVER` is read and
 * attached to the message, like an `@path` file. A reference names a configured server and a URI
 * with a scheme (`@github:repo://owner/name/README.md`, `@everything:demo://resource/static/document/x.md`);
 * anything else is left to `@path`.
 */

interface McpRef {
  ref: string;
  server: string;
  uri: string;
  index: number;
}

const REF = /(?<![\w@/])@([A-Za-z0-9_-]+):([A-Za-z][A-Za-z0-9+.-]*:[^\s]+)/g;
/** Punctuation that ends a sentence, not a URI. */
const TRAILING = /[.,;:!?)\]'"]+$/;

/** The `@SERVER:URI` references of a prompt whose SERVER is one of `servers`, in order. */
export function findMcpRefs(prompt: string, servers: ReadonlySet<string>): McpRef[] {
  const out: McpRef[] = [];
  for (const m of prompt.matchAll(REF)) {
    if (!servers.has(m[1])) continue;
    const uri = m[2].replace(TRAILING, '');
    out.push({ ref: `@${m[1]}:${uri}`, server: m[1], uri, index: m.index });
  }
  return out;
}

/** The prompt with each reference blanked out (so `@path` expansion does not read it as a file). */
export function withoutMcpRefs(prompt: string, refs: readonly McpRef[]): string {
  let out = prompt;
  for (const r of [...refs].reverse()) out = out.slice(0, r.index) + ' '.repeat(r.ref.length) + out.slice(r.index + r.ref.length);
  return out;
}

interface ResourceAttachment {
  ref: string;
  uri: string;
  text: string;
  image?: ImageData;
}

/** What one resource may add to a message, in characters (as a large attached file, 256 KB). */
const MAX_CHARS = 256 * 1024;

/**
 * Reads each referenced resource (waiting, up to MCP_TIMEOUT, for servers still starting). Returns
 * every problem, or the attachments: each content part as text, images as images (or a line when
 * the model takes none).
 */
export async function readMcpRefs(
  refs: readonly McpRef[],
  mcp: McpManager,
  o: { signal?: AbortSignal; imagesRefused?: string },
): Promise<{ attachments: ResourceAttachment[]; errors: string[] }> {
  const attachments: ResourceAttachment[] = [];
  const errors: string[] = [];
  if (refs.length === 0) return { attachments, errors };
  await mcp.whenSettled();
  const seen = new Set<string>();
  for (const r of refs) {
    if (seen.has(r.ref)) continue;
    seen.add(r.ref);
    const status = mcp.statuses().find((s) => s.name === r.server);
    if (status?.state !== 'connected') {
      errors.push(
        `${r.ref}: the MCP server "${r.server}" is not connected (${status?.state ?? 'unknown'}${status?.error ? `: ${status.error}` : ''})`,
      );
      continue;
    }
    try {
      const result = await mcp.readResource(r.server, r.uri, o.signal);
      const parts: string[] = [];
      for (const c of result.contents) {
        const type = c.mimeType ?? 'unknown type';
        if ('text' in c && typeof c.text === 'string') {
          const cut = c.text.length > MAX_CHARS;
          parts.push(
            `${cut ? c.text.slice(0, MAX_CHARS) : c.text}${cut ? `\n[cut: the resource has ${c.text.length} characters; the first ${MAX_CHARS} are shown]` : ''}`,
          );
        } else if ('blob' in c && typeof c.blob === 'string') {
          const kb = ((c.blob.length * 3) / 4 / 1024).toFixed(1);
          if (type.startsWith('image/') && !o.imagesRefused) {
            attachments.push({
              ref: r.ref,
              uri: c.uri,
              text: `Image ${c.uri} (${type}, ${kb} KB) from the MCP server "${r.server}" is attached to this message.`,
              image: { mediaType: type, data: c.blob },
            });
          } else parts.push(`[binary content: ${type}, ${kb} KB]`);
        }
      }
      if (parts.length || !attachments.some((a) => a.ref === r.ref)) {
        attachments.push({
          ref: r.ref,
          uri: r.uri,
          text: `Resource ${r.uri} from the MCP server "${r.server}" (${r.ref}):\n${parts.join('\n\n') || '(empty)'}`,
        });
      }
    } catch (e) {
      errors.push(`${r.ref}: ${(e as Error)?.message ?? String(e)}`);
    }
  }
  return { attachments, errors };
}
