import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

const cache = new Map<number, Marked>();

/**
 * Renders Markdown for the terminal at `width` columns: headings, lists, emphasis, and code
 * blocks highlighted by language (marked-terminal + cli-highlight). Colour follows chalk's level,
 * which is 0 under NO_COLOR (see run-interactive). Never throws: text that fails to parse is shown as is.
 */
export function renderMarkdown(text: string, width: number): string {
  const w = Math.max(20, Math.floor(width));
  let m = cache.get(w);
  if (!m) {
    m = new Marked(markedTerminal({ width: w, reflowText: true, showSectionPrefix: false, tab: 2, emoji: false }) as never);
    // marked-terminal prints the text of tight list items raw (`code`, **bold** stay as typed):
    // parse their inline tokens; other text falls back to marked-terminal (return false).
    m.use({
      renderer: {
        text(this: { parser: { parseInline(t: unknown[]): string } }, token: unknown) {
          const t = token as { tokens?: unknown[] };
          return typeof token === 'object' && t.tokens?.length ? this.parser.parseInline(t.tokens) : false;
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
