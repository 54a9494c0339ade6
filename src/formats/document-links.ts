// A document's links and web_scraper's document of it, from its Markdown (issue 27 item 4): the link tools, read_url's
// links, the crawler's next pages and web_scraper's references read a .docx or an .epub as they read a page. The
// Markdown is the page serializer's (src/extract/markdown.ts), whose links are `[text](url)` with http, https or
// mailto targets only, so one pattern finds them all.
// Not handled: web_scraper's link contexts beyond the line a link is on, images (documents' images are not read).
import { isSameSite, type ExtractedLinks, type LinkTargets } from '../extract/link-set.js';
import type { OutlineEntry, ScrapedHtml, ScrapeReference } from '../extract/scrape.js';
import type { DocumentMetadata } from './document-xml.js';

// `[text](url)` as the serializer writes it: text with escaped brackets, a destination without spaces or parentheses
// unless escaped.
const LINK = /\[((?:\\.|[^\\\]])*)\]\(((?:\\.|[^\s()\\])+)\)/g;
const HEADING = /^(#{1,6}) (.+)$/gm;

const unescape = (text: string) => text.replace(/\\(.)/g, '$1');

/** Every link of the document, in order: the link tools' list (`linkList`) and the crawler's targets. */
export function documentLinks(markdown: string): { linkList: ExtractedLinks; links: LinkTargets } {
  const links = [...markdown.matchAll(LINK)].map((match) => ({ url: unescape(match[2]!), text: unescape(match[1]!) }));
  return {
    linkList: { links, hiddenBlocksDropped: 0, pageTextLength: markdown.length },
    links: { urls: [...new Set(links.map((link) => link.url))] },
  };
}

const CONTEXT_MAX = 300;

/** web_scraper's document: the text with a `[n]` marker after each link (one number per URL), references, outline. */
export function documentScrape(markdown: string, pageUrl: string, metadata: DocumentMetadata): ScrapedHtml {
  const ids = new Map<string, number>();
  const references: ScrapeReference[] = [];
  const text = markdown
    .split('\n')
    .map((line) =>
      line.replace(LINK, (_, rawText: string, rawUrl: string) => {
        const url = unescape(rawUrl);
        const linkText = unescape(rawText);
        let id = ids.get(url);
        if (id === undefined) {
          id = ids.size + 1;
          ids.set(url, id);
          const context = line.replace(LINK, '$1').slice(0, CONTEXT_MAX);
          references.push({ id, url, text: linkText, context, external: !isSameSite(url, pageUrl), type: 'a' });
        }
        return `${linkText} [${id}]`;
      }),
    )
    .join('\n');
  const outline: OutlineEntry[] = [...markdown.matchAll(HEADING)].map((match) => ({
    level: match[1]!.length,
    text: unescape(match[2]!.replace(LINK, '$1')),
  }));
  return {
    text,
    references,
    outline,
    metadata: {
      title: metadata.title ?? null,
      description: null,
      language: null,
      canonical_url: null,
      author: metadata.author ?? null,
      published_date: metadata.created ?? null,
    },
    hiddenBlocksDropped: 0,
    pageTextLength: markdown.length,
  };
}
