import { lookup } from 'node:dns/promises';
import { z } from 'zod';
import { isPrivateAddress, urlHost } from '../permissions/web.ts';
import type { ToolDef, ToolKind, ToolResult } from './types.ts';
import description from './web-fetch.md';

/** A page's bytes beyond this are not read. */
const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Markdown beyond this is cut before the small model reads it. */
const MAX_MARKDOWN_CHARS = 100_000;
const FETCH_TIMEOUT_MS = 30_000;
const CACHE_MS = 15 * 60_000;
const MAX_REDIRECTS = 10;

const schema = z.object({
  // Bad input, not a permission question: the model is told which field to fix (SPEC §3).
  url: z
    .string()
    .min(1)
    .refine((u) => urlHost(u) !== undefined, 'must be an http:// or https:// URL, e.g. "https://example.com/page"')
    .describe('The URL to fetch (http:// or https://)'),
  prompt: z.string().min(1).describe('What to find out from the page'),
});

/** What WebFetch needs of its session: the small model request, and whether a rule names a local host. */
interface WebFetchDeps {
  /** Answers `prompt` from the page's Markdown (a second model request). */
  answer(prompt: string, page: { url: string; markdown: string }, signal: AbortSignal): Promise<{ text: string } | { error: string }>;
  /** A rule names this host (so a private address it resolves to may be reached). */
  localAllowed(host: string): boolean;
  /** For tests: the clock. */
  now?(): number;
}

const fail = (output: string): ToolResult => ({ output, isError: true });

type Fetched =
  | { kind: 'page'; url: string; status: number; statusText: string; markdown: string; bytes: number }
  | { kind: 'redirect'; from: string; to: string; status: number };

/** Reads at most `cap` bytes of a response body. */
async function readCapped(res: Response, cap: number): Promise<{ text: string; bytes: number; cut: boolean }> {
  const charset = /charset=["']?([\w-]+)/i.exec(res.headers.get('content-type') ?? '')?.[1];
  let decoder = new TextDecoder();
  try {
    if (charset) decoder = new TextDecoder(charset);
  } catch {
    /* an unknown charset: UTF-8 */
  }
  const reader = res.body?.getReader();
  if (!reader) return { text: '', bytes: 0, cut: false };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    if (bytes >= cap) {
      cut = true;
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return { text: decoder.decode(Buffer.concat(chunks).subarray(0, cap)), bytes: Math.min(bytes, cap), cut };
}

/** The page at `url` after same-host redirects, as Markdown; a redirect to another host is returned, not followed. */
async function fetchPage(start: string, signal: AbortSignal, deps: WebFetchDeps): Promise<Fetched | string> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const host = urlHost(url)!;
    // A name that resolves to a private address is as local as the address (DNS cannot open a way in).
    if (!deps.localAllowed(host) && !isPrivateAddress(host)) {
      const addrs = await lookup(host, { all: true }).catch(() => []);
      const local = addrs.find((a) => isPrivateAddress(a.address));
      if (local)
        return `${host} resolves to ${local.address}, an address on this machine or its private network: refused unless a rule names it (WebFetch(domain:${host})).`;
    }
    const res = await fetch(url, {
      redirect: 'manual',
      signal,
      headers: { 'user-agent': 'assistant-webfetch', accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5' },
    });
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      const to = new URL(res.headers.get('location')!, url).toString();
      await res.body?.cancel().catch(() => {});
      if (new URL(to).host !== new URL(url).host) return { kind: 'redirect', from: url, to, status: res.status };
      url = to;
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return `${url} answered HTTP ${res.status} ${res.statusText}.`;
    }
    const type = res.headers.get('content-type') ?? '';
    if (!/text\/|json|xml|javascript/.test(type) && type !== '') {
      await res.body?.cancel().catch(() => {});
      return `${url} is ${type}, not a page WebFetch can read.`;
    }
    const body = await readCapped(res, MAX_PAGE_BYTES);
    let markdown = body.text;
    if (/html/.test(type) || (type === '' && /^\s*<(!doctype|html)/i.test(body.text))) {
      const { htmlToMarkdown } = await import('./html-markdown.ts');
      markdown = htmlToMarkdown(body.text, url).markdown;
    }
    if (body.cut) markdown += `\n\n[The page was cut at ${MAX_PAGE_BYTES} bytes.]`;
    return { kind: 'page', url, status: res.status, statusText: res.statusText, markdown, bytes: body.bytes };
  }
  return `${start} redirects more than ${MAX_REDIRECTS} times.`;
}

/** What WebFetch is, for permissions (its calls are decided by URL: permissions/web.ts). */
export const WEB_FETCH_KIND: ToolKind = { access: 'read' };

/** WebFetch (SPEC §14), made per session: its cache and its small model request belong to the session. */
export function webFetchTool(deps: WebFetchDeps): ToolDef<typeof schema> {
  const cache = new Map<string, { at: number; page: Fetched & { kind: 'page' } }>();
  const now = () => deps.now?.() ?? Date.now();
  return {
    name: 'WebFetch',
    description,
    schema,
    readOnly: true,
    ...WEB_FETCH_KIND,
    async execute(input, ctx) {
      if (urlHost(input.url) === undefined) return fail(`"${input.url}" is not an http:// or https:// URL.`);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
      const started = Date.now();
      let page = cache.get(input.url);
      if (page && now() - page.at > CACHE_MS) {
        cache.delete(input.url);
        page = undefined;
      }
      if (!page) {
        let got: Fetched | string;
        try {
          got = await fetchPage(input.url, signal, deps);
        } catch (e) {
          if (ctx.signal.aborted) return fail('WebFetch was interrupted.');
          const why = signal.aborted
            ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s`
            : (((e as Error).cause as Error | undefined)?.message ?? (e as Error).message);
          return fail(`Could not fetch ${input.url}: ${why}.`);
        }
        if (typeof got === 'string') return fail(got);
        if (got.kind === 'redirect') {
          return {
            output: `REDIRECT DETECTED: ${got.from} redirects (HTTP ${got.status}) to a different host: ${got.to}\nIt was not followed. To read it, call WebFetch again with url "${got.to}" and the same prompt.`,
            display: `redirects to ${got.to} (not followed)`,
            response: { url: got.from, redirect: got.to, code: got.status },
          };
        }
        page = { at: now(), page: got };
        cache.set(input.url, page);
      }
      const p = page.page;
      const markdown =
        p.markdown.length > MAX_MARKDOWN_CHARS
          ? `${p.markdown.slice(0, MAX_MARKDOWN_CHARS)}\n\n[Cut at ${MAX_MARKDOWN_CHARS} characters.]`
          : p.markdown;
      const answer = await deps.answer(input.prompt, { url: p.url, markdown }, ctx.signal);
      if ('error' in answer) return fail(`Fetched ${p.url}, but the model could not answer from it: ${answer.error}`);
      return {
        output: `${p.url !== input.url ? `(Fetched from ${p.url}.)\n\n` : ''}${answer.text}`,
        display: `${(p.bytes / 1024).toFixed(1)} KB from ${p.url}`,
        // Claude Code's WebFetch output.
        response: {
          url: p.url,
          code: p.status,
          codeText: p.statusText,
          bytes: p.bytes,
          result: answer.text,
          durationMs: Date.now() - started,
        },
      };
    },
  };
}
