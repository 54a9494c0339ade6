// Title, language and base URL of a parsed page. Read before cleaning: cleaning removes <head>.
import { collapseWhitespace, textOf, type HtmlElement } from './parse.js';
import type { NamedElements } from './tree-parser.js';

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

/** The element names readMetadata reads: parsePage has the parse list them (parseHtml's `named`). */
export const METADATA_ELEMENTS: readonly string[] = ['html', 'meta', 'base', 'title', 'h1'];

/** `named`: the page's elements of METADATA_ELEMENTS, each list in document order, as parseHtml listed them. */
export function readMetadata(named: NamedElements, pageUrl: string): PageMetadata {
  const first = firstElements(named);
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
 * The elements readMetadata reads, from the lists the parse made: a walk of the whole tree for six kinds of element,
 * most of them in `<head>`, cost more than the rest of reading the metadata.
 */
function firstElements(named: NamedElements): FirstElements {
  const first: FirstElements = {
    html: named.get('html')?.[0],
    base: named.get('base')?.find((base) => base.attribs.href !== undefined),
    title: named.get('title')?.[0],
    h1: named.get('h1')?.[0],
  };
  for (const meta of named.get('meta') ?? []) {
    const key = meta.attribs.property ?? meta.attribs.name;
    if (key === 'og:type') first.ogType ??= meta;
    else if (key === 'og:title') first.ogTitle ??= meta;
  }
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
