// Title, language and base URL of a parsed page. Read before cleaning: cleaning removes <head>.
import { collapseWhitespace, isElement, textOf, type HtmlDocument, type HtmlElement } from './parse.js';

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
  const first = firstElements(doc);
  const lang = first.html?.attribs.lang?.trim() || undefined;
  return {
    title: readTitle(first),
    lang,
    baseUrl: baseUrlOf(first.base?.attribs.href, pageUrl),
    // The page says it is one article: `og:type` is `article` (Open Graph).
    declaresArticle: first.ogType?.attribs.content?.trim().toLowerCase().startsWith('article') ?? false,
  };
}

/** The first element of each kind the metadata is read from, in document order. */
interface FirstElements {
  html?: HtmlElement;
  /** `<meta>` whose `property` (else `name`) is `og:type`. */
  ogType?: HtmlElement;
  ogTitle?: HtmlElement;
  /** `<base>` with an `href`. */
  base?: HtmlElement;
  title?: HtmlElement;
  h1?: HtmlElement;
}

/**
 * The elements readMetadata reads, found in one walk of the tree: six `findElement` walks (one per kind, most of them
 * over the whole page, as a page rarely has a `<base>`) were the largest share of reading the metadata.
 */
function firstElements(doc: HtmlDocument): FirstElements {
  const first: FirstElements = {};
  const visit = (node: HtmlElement | HtmlDocument): void => {
    // Indexed: the walk runs mostly before it is optimized, where `for…of` makes an iterator result per child.
    const children = node.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!isElement(child)) continue;
      switch (child.name) {
        case 'html':
          first.html ??= child;
          break;
        case 'meta': {
          const key = child.attribs.property ?? child.attribs.name;
          if (key === 'og:type') first.ogType ??= child;
          else if (key === 'og:title') first.ogTitle ??= child;
          break;
        }
        case 'base':
          if (child.attribs.href !== undefined) first.base ??= child;
          break;
        case 'title':
          first.title ??= child;
          break;
        case 'h1':
          first.h1 ??= child;
          break;
      }
      visit(child);
    }
  };
  visit(doc);
  return first;
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

function readTitle(first: FirstElements): string | undefined {
  const ogTitle = collapseWhitespace(first.ogTitle?.attribs.content);
  if (ogTitle) return ogTitle;
  const title = collapseWhitespace(first.title ? textOf(first.title) : undefined);
  const h1 = collapseWhitespace(first.h1 ? textOf(first.h1) : undefined);
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
