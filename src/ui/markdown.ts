import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

const cache = new Map<number, Marked>();

/**
 * marked-terminal marks list items with `*`; Claude Code (and most terminal renderers) with `•`.
 * Its list renderer is wrapped: once the outermost list is rendered (nested ones are inside it),
 * the `* ` that starts an item's line becomes `• `.
 */
function withBullets<T>(ext: T): T {
  const r = (ext as { renderer?: Record<string, (...a: unknown[]) => unknown> }).renderer;
  const list = r?.list;
  if (!r || !list) return ext;
  let depth = 0;
  r.list = function (this: unknown, ...args: unknown[]) {
    depth++;
    try {
      const out = list.apply(this, args);
      return depth === 1 && typeof out === 'string' ? out.replace(/^( *)\* /gm, '$1• ') : out;
    } finally { depth--; }
  };
  return ext;
}

/**
 * The model's single line breaks are kept (marked's `breaks`, as Claude Code shows them): a `br`
 * is "\r" in marked-terminal, where its paragraph reflow starts a new line. Its `em` turns that
 * "\r" into garbage (`/\n/g`), so emphasis spanning a break is rendered a line at a time here.
 */
function withBreaks<T>(ext: T): T {
  const r = (ext as { renderer?: Record<string, (this: { parser: { parseInline(t: unknown[]): string } }, ...a: unknown[]) => unknown> }).renderer;
  const em = r?.em;
  if (!r || !em) return ext;
  r.em = function (token: unknown) {
    const t = token as { tokens?: unknown[] };
    const inner = typeof token === 'object' && t.tokens ? this.parser.parseInline(t.tokens) : undefined;
    if (inner === undefined || !inner.includes('\r')) return em.call(this, token);
    return inner.split('\r').map((part) => em.call(this, part)).join('\r');
  };
  return ext;
}

/**
 * Renders Markdown for the terminal at `width` columns: headings, lists, emphasis, and code
 * blocks highlighted by language (marked-terminal + cli-highlight). Colour follows chalk's level,
 * which is 0 under NO_COLOR (see run-interactive). Never throws: text that fails to parse is shown as is.
 */
export function renderMarkdown(text: string, width: number): string {
  const w = Math.max(20, Math.floor(width));
  let m = cache.get(w);
  if (!m) {
    m = new Marked({ breaks: true }, withBreaks(withBullets(markedTerminal({ width: w, reflowText: true, showSectionPrefix: false, tab: 2, emoji: false }))) as never);
    // marked-terminal prints the text of tight list items raw (`code`, **bold** stay as typed):
    // parse their inline tokens; other text falls back to marked-terminal (return false).
    m.use({
      renderer: {
        text(this: { parser: { parseInline(t: unknown[]): string } }, token: unknown) {
          const t = token as { tokens?: unknown[] };
          // A line break inside the item (marked's `br`, "\r" in marked-terminal) becomes a new
          // line, which the list renderer indents under the item's text.
          return typeof token === 'object' && t.tokens?.length ? this.parser.parseInline(t.tokens).replace(/\r/g, '\n') : false;
        },
      },
    } as never);
    cache.set(w, m);
  }
  try {
    const out = m.parse(text, { async: false }) as string;
    return out.replace(/\n+$/, '');
  } catch {
    return text;
  }
}
