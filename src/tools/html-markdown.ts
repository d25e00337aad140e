import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/**
 * A web page's HTML as Markdown: Readability picks the article out of the page (no navigation,
 * footers or scripts), Turndown writes it as Markdown. A page Readability finds no article in is
 * converted whole, without its scripts and styles. Loaded lazily (WebFetch only).
 */
export function htmlToMarkdown(html: string, url: string): { title?: string; markdown: string } {
  const { document } = parseHTML(html);
  let title: string | undefined = document.title || undefined;
  let content: string | undefined;
  try {
    // Readability changes the document it reads: give it its own copy.
    const article = new Readability(parseHTML(html).document as unknown as Document, { charThreshold: 100 }).parse();
    if (article?.content) {
      content = article.content;
      title = article.title || title;
    }
  } catch {
    /* whole page below */
  }
  if (content === undefined) {
    for (const el of [...document.querySelectorAll('script, style, noscript, template')]) el.remove();
    content = document.body?.innerHTML ?? html;
  }
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.remove(['script', 'style']);
  let markdown = td.turndown(content ?? '').trim();
  if (title && !markdown.startsWith(`# ${title}`)) markdown = `# ${title}\n\n${markdown}`;
  void url;
  return { title, markdown };
}
