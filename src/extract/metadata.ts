// Title, language and base URL of a parsed page. Read before cleaning: cleaning removes <head>.
import { collapseWhitespace, findElement, textOf, type HtmlDocument } from './parse.js';

export interface PageMetadata {
  readonly title: string | undefined;
  readonly lang: string | undefined;
  /** Absolute URL that relative links resolve against: `<base href>` resolved against the page URL, else the page URL. */
  readonly baseUrl: string;
  /** The page says it is one article: `og:type` is `article` (Open Graph). */
  readonly declaresArticle: boolean;
}

// Site names ride on titles after a separator: "Story headline | Site", "Site — Story headline".
const TITLE_SEPARATOR = /\s+[|\-–—:·»/]\s+/;

export function readMetadata(doc: HtmlDocument, pageUrl: string): PageMetadata {
  const html = findElement(doc, (el) => el.name === 'html');
  const lang = html?.attribs.lang?.trim() || undefined;
  return { title: readTitle(doc), lang, baseUrl: readBaseUrl(doc, pageUrl), declaresArticle: declaresArticle(doc) };
}

function declaresArticle(doc: HtmlDocument): boolean {
  const og = findElement(doc, (el) => el.name === 'meta' && (el.attribs.property ?? el.attribs.name) === 'og:type');
  return og?.attribs.content?.trim().toLowerCase().startsWith('article') ?? false;
}

function readBaseUrl(doc: HtmlDocument, pageUrl: string): string {
  return baseUrlOf(
    findElement(doc, (el) => el.name === 'base' && el.attribs.href !== undefined)?.attribs.href,
    pageUrl,
  );
}

/** What links resolve against: the first `<base>` with an href (`href`), resolved against the page URL, else it. */
export function baseUrlOf(baseHref: string | undefined, pageUrl: string): string {
  const href = baseHref?.trim();
  if (!href) return pageUrl;
  try {
    const base = new URL(href, pageUrl);
    // A base that is not http(s) (javascript:, data:) would turn every link into that scheme: ignore it.
    return base.protocol === 'http:' || base.protocol === 'https:' ? base.href : pageUrl;
  } catch {
    // An unparseable base href is ignored, as browsers do.
    return pageUrl;
  }
}

function readTitle(doc: HtmlDocument): string | undefined {
  const og = findElement(doc, (el) => el.name === 'meta' && (el.attribs.property ?? el.attribs.name) === 'og:title');
  const ogTitle = collapseWhitespace(og?.attribs.content);
  if (ogTitle) return ogTitle;
  const titleElement = findElement(doc, (el) => el.name === 'title');
  const title = collapseWhitespace(titleElement ? textOf(titleElement) : undefined);
  const h1Element = findElement(doc, (el) => el.name === 'h1');
  const h1 = collapseWhitespace(h1Element ? textOf(h1Element) : undefined);
  if (title) return stripSiteName(title, h1);
  return h1 || undefined;
}

// Keep the longest separator-delimited part when it has a few words (Readability's rule, simplified): the site
// name is the short part. A heading contained in the title wins outright.
function stripSiteName(title: string, h1: string): string {
  if (h1 && title.includes(h1)) return h1;
  const parts = title.split(TITLE_SEPARATOR);
  if (parts.length < 2) return title;
  const longest = parts.reduce((a, b) => (b.length > a.length ? b : a));
  return longest.split(' ').length >= 3 ? longest : title;
}
