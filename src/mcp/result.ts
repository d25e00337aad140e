import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../tools/types.ts';

/** Tokens are counted as characters / 4, as elsewhere in assistant (session/compact.ts). */
const CHARS_PER_TOKEN = 4;

const size = (base64: string) => {
  const bytes = Buffer.byteLength(base64, 'base64');
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

/**
 * Cuts `text` to about `maxTokens` tokens, with a note that tells the model what happened and
 * how to get less (SPEC §12: the cap, 25k tokens by default, `MAX_MCP_OUTPUT_TOKENS`).
 */
export function capOutput(text: string, maxTokens: number): { text: string; cut: boolean } {
  const budget = maxTokens * CHARS_PER_TOKEN;
  if (text.length <= budget) return { text, cut: false };
  let head = text.slice(0, budget);
  const nl = head.lastIndexOf('\n');
  if (nl > budget * 0.8) head = head.slice(0, nl + 1);
  const total = Math.ceil(text.length / CHARS_PER_TOKEN);
  return {
    text:
      `${head}\n\n[output cut: the tool returned about ${total} tokens, over the limit of ${maxTokens} (MAX_MCP_OUTPUT_TOKENS); ` +
      'ask it for less, with a filter, a limit or paging, if it takes one]',
    cut: true,
  };
}

/**
 * A `tools/call` result as the project's ToolResult (SPEC §12). The model reads text, a line for
 * each image (the image itself is kept in `images` for models that take images), resource links
 * and embedded resources, and the structured content when there is no text block.
 * `isError` results stay errors the model can act on. `response` (PostToolUse's `tool_response`)
 * is the content as the server sent it, as in Claude Code.
 */
export function toToolResult(result: CallToolResult, maxTokens: number): ToolResult {
  const parts: string[] = [];
  const images: NonNullable<ToolResult['images']> = [];
  const content = Array.isArray(result.content) ? result.content : [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
        images.push({ mediaType: block.mimeType, data: block.data });
        parts.push(`[image: ${block.mimeType}, ${size(block.data)}]`);
        break;
      case 'audio':
        parts.push(`[audio: ${block.mimeType}, ${size(block.data)} — not shown to the model]`);
        break;
      case 'resource_link': {
        const label = block.title ?? block.name;
        parts.push(
          `[resource link: ${label} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}]${block.description ? ` ${block.description}` : ''}`,
        );
        break;
      }
      case 'resource': {
        const r = block.resource;
        if ('text' in r && typeof r.text === 'string')
          parts.push(`[resource <${r.uri}>${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}`);
        else if ('blob' in r && typeof r.blob === 'string') {
          if (r.mimeType?.startsWith('image/')) images.push({ mediaType: r.mimeType, data: r.blob });
          parts.push(`[resource <${r.uri}>: ${r.mimeType ?? 'binary'}, ${size(r.blob)}]`);
        }
        break;
      }
      default:
        parts.push(`[${String((block as { type?: unknown }).type)} content]`);
    }
  }
  // Servers put what structured content says in a text block as well (the spec asks them to, and
  // server-filesystem sends {content: <the text>}): it reaches the model only when no text does.
  const structured = result.structuredContent;
  if (structured !== undefined && !content.some((b) => b.type === 'text')) {
    parts.push(content.length ? `Structured result:\n${JSON.stringify(structured, null, 2)}` : JSON.stringify(structured, null, 2));
  }
  const isError = result.isError === true;
  let text = parts.join('\n');
  if (text.trim() === '') text = isError ? 'The tool reported an error without a message.' : '(the tool returned no content)';
  const capped = capOutput(text, maxTokens);
  const lines = text.split('\n').length;
  const display = [
    isError ? 'error' : `${lines} line${lines === 1 ? '' : 's'}`,
    images.length ? `${images.length} image${images.length === 1 ? '' : 's'}` : '',
    capped.cut ? 'cut to the output limit' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return { output: capped.text, isError: isError || undefined, display, response: content, ...(images.length ? { images } : {}) };
}
