import chalk from 'chalk';
import { supportsLanguage } from 'cli-highlight';
import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

const cache = new Map<number, Marked>();

/**
 * marked-terminal marks list items with `*`; Claude Code (and most terminal renderers) with `•`.
 * Its list renderer is wrapped: once the outermost list is rendered (nested ones are inside it),
 * the `* ` that starts an item's line becomes `• `, and the list loses the two columns
 * marked-terminal indents it by: a top-level list starts in the text's column, as in Claude Code
 * (an answer that starts with a list reads `● 1. …`, not `●   1. …`).
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
      return depth === 1 && typeof out === 'string' ? out.replace(/^( *)\* /gm, '$1• ').replace(/^ {2}/gm, '') : out;
    } finally {
      depth--;
    }
  };
  return ext;
}

/**
 * The model's single line breaks are kept (marked's `breaks`, as Claude Code shows them): a `br`
 * is "\r" in marked-terminal, where its paragraph reflow starts a new line. Its `em` turns that
 * "\r" into garbage (`/\n/g`), so emphasis spanning a break is rendered a line at a time here.
 */
function withBreaks<T>(ext: T): T {
  const r = (ext as { renderer?: Record<string, (this: { parser: { parseInline(t: unknown[]): string } }, ...a: unknown[]) => unknown> })
    .renderer;
  const em = r?.em;
  if (!r || !em) return ext;
  r.em = function (token: unknown) {
    const t = token as { tokens?: unknown[] };
    const inner = typeof token === 'object' && t.tokens ? this.parser.parseInline(t.tokens) : undefined;
    if (inner === undefined || !inner.includes('\r')) return em.call(this, token);
    return inner
      .split('\r')
      .map((part) => em.call(this, part))
      .join('\r');
  };
  return ext;
}

type Renderer = Record<string, (this: unknown, ...a: unknown[]) => unknown>;
interface CodeToken {
  type: 'code';
  raw: string;
  text: string;
  lang?: string;
  codeBlockStyle?: string;
}

/** Whether a fenced block's closing fence has arrived (an answer being streamed may stop inside one). */
export function fenceClosed(raw: string): boolean {
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
  if (!open) return true; // an indented block
  const lines = raw.replace(/\s+$/, '').split('\n');
  const fence = new RegExp(`^ {0,3}${open[1][0] === '`' ? '`' : '~'}{${open[1].length},}\\s*$`);
  return lines.length > 1 && fence.test(lines.at(-1)!);
}

/**
 * Code blocks are highlighted only in a language the highlighter knows, once the block is closed:
 * an unknown language (`mermaid`, `vue`, `hcl`…) or a fence still streaming (` ```j `) is shown as
 * plain code. (highlight.js writes "Could not find the language" to the console for those.)
 */
function withPlainCode<T>(ext: T): T {
  const r = (ext as { renderer?: Renderer }).renderer;
  const code = r?.code;
  if (!r || !code) return ext;
  r.code = function (this: unknown, token: unknown, ...rest: unknown[]) {
    if (typeof token !== 'object' || token === null) return code.call(this, token, ...rest);
    const t = token as CodeToken;
    const lang = t.lang?.trim().split(/\s+/)[0];
    const known = !lang || supportsLanguage(lang);
    return code.call(this, known && fenceClosed(t.raw) ? t : { ...t, lang: 'plaintext' });
  };
  return ext;
}

/**
 * A blockquote as Claude Code draws it: `▎ ` before each of its lines, its text rendered (and
 * wrapped) two columns narrower so the bar never pushes a line past the width.
 */
function withQuoteBars<T>(ext: T, width: number): T {
  const r = (ext as { renderer?: Renderer }).renderer;
  if (!r || !r.blockquote) return ext;
  r.blockquote = function (token: unknown) {
    const inner = typeof token === 'object' && token !== null ? String((token as { text?: unknown }).text ?? '') : String(token);
    const body = renderMarkdown(inner, width - 2);
    return `${body
      .split('\n')
      .map((l) => `${chalk.dim('▎')} ${l}`.trimEnd())
      .join('\n')}\n\n`;
  };
  return ext;
}

/**
 * Renders Markdown for the terminal at `width` columns: headings, lists, emphasis, and code
 * blocks highlighted by language (marked-terminal + cli-highlight; see withPlainCode), blockquotes
 * barred. Colour follows chalk's level,
 * which is 0 under NO_COLOR (see run-interactive). Never throws: text that fails to parse is shown as is.
 */
export function renderMarkdown(text: string, width: number): string {
  const w = Math.max(20, Math.floor(width));
  let m = cache.get(w);
  if (!m) {
    const ext = markedTerminal({ width: w, reflowText: true, showSectionPrefix: false, tab: 2, emoji: false });
    m = new Marked({ breaks: true }, withQuoteBars(withPlainCode(withBreaks(withBullets(ext))), w) as never);
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
