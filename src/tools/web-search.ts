import { z } from 'zod';
import type { ToolDef, ToolKind, ToolResult } from './types.ts';
import description from './web-search.md';

const schema = z.object({
  query: z.string().trim().min(2).describe('The search query'),
  allowed_domains: z.array(z.string()).optional().describe('Only include results from these sites'),
  blocked_domains: z.array(z.string()).optional().describe('Never include results from these sites'),
});

/** A page the search found. */
interface Source {
  url: string;
  title?: string;
}
/** The sites one search may and may not use (permissions/web.ts `webSearchScope`). */
interface Scope {
  allowedDomains?: string[];
  blockedDomains?: string[];
}

/** What WebSearch needs of its session: the sites a call may search, and the side request that searches. */
interface WebSearchDeps {
  /** The call's sites merged with the rules' (`WebSearch(domain:…)`); a string when nothing is left to search. */
  scope(input: z.infer<typeof schema>): Scope | string;
  /** Runs the search: a model request with the provider's own search tool enabled (agent/search-answer.ts). */
  search(query: string, scope: Scope, signal: AbortSignal): Promise<{ text: string; sources: Source[] } | { error: string }>;
}

const fail = (output: string): ToolResult => ({ output, isError: true });

/** What WebSearch is, for permissions: it only reads (its calls are decided by permissions/web.ts). */
export const WEB_SEARCH_KIND: ToolKind = { access: 'read' };

/**
 * WebSearch (SPEC §14), made per session where the provider has a search tool of its own: a tool
 * the model calls like any other (asked about, seen by hooks), which searches in a side request.
 */
export function webSearchTool(deps: WebSearchDeps): ToolDef<typeof schema> {
  return {
    name: 'WebSearch',
    description,
    schema,
    readOnly: true,
    ...WEB_SEARCH_KIND,
    async execute(input, ctx) {
      const scope = deps.scope(input);
      if (typeof scope === 'string') return fail(`WebSearch refused: ${scope}.`);
      const started = Date.now();
      const got = await deps.search(input.query, scope, ctx.signal);
      if ('error' in got) {
        if (ctx.signal.aborted) return fail('WebSearch was interrupted.');
        return fail(`WebSearch for "${input.query}" failed: ${got.error}. Try another query, or fewer site limits.`);
      }
      const links = got.sources.map((s) => ({ title: s.title ?? s.url, url: s.url }));
      const output = [
        `Web search results for query: "${input.query}"`,
        `Links: ${JSON.stringify(links)}`,
        got.text,
        links.length ? 'REMINDER: when you use these results, name their sources to the user as Markdown links.' : '',
      ]
        .filter(Boolean)
        .join('\n\n');
      const durationSeconds = (Date.now() - started) / 1000;
      return {
        output,
        display: `${links.length} result${links.length === 1 ? '' : 's'} in ${durationSeconds.toFixed(1)} s`,
        // Claude Code's WebSearch output: the links found, then the text.
        response: { query: input.query, results: [{ content: links }, got.text], durationSeconds },
      };
    },
  };
}
