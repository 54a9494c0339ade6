// Links of a parsed page: every `<a href>` resolved against `<base href>` then the page's final URL, with its anchor
// text, in document order (seeds links-tool.md "Link Processing", web-tool.md "links" mode,
// url-reader-architecture.md link-resolver). Pure: the `links`, `web`, `extract_links` tools and the crawler share it.
// Not handled: links made by scripts, <area> image maps, and hiding by stylesheet classes (see clean-hidden.ts).
import { cleanText } from '../clean-text.js';
import { resolveLinkTarget } from '../link-target.js';
import { pageReadableLength } from './block-stats.js';
import { removeHidden } from './clean-hidden.js';
import { cutPage, parsePage, type CutPage } from './parse-page.js';
import { streamLinks } from './link-stream.js';
import { collapseWhitespace, findElement, isElement, textOf, type HtmlDocument, type HtmlElement } from './parse.js';
import type { ExtractedLinks, PageLink } from './link-set.js';

/** The words a reader sees for a link: its text, else an image's alt, else aria-label or title. */
export function anchorText(a: HtmlElement): string {
  const text = collapseWhitespace(textOf(a));
  if (text) return text;
  const alt = collapseWhitespace(
    findElement(a, (el) => el.name === 'img' && Boolean(el.attribs.alt?.trim()))?.attribs.alt,
  );
  if (alt) return alt;
  return collapseWhitespace(a.attribs['aria-label']) || collapseWhitespace(a.attribs.title);
}

/** Calls `visit` for every element under `root`, in document order. */
export function forEachElement(root: HtmlElement | HtmlDocument, visit: (el: HtmlElement) => void): void {
  for (const child of root.children) {
    if (!isElement(child)) continue;
    visit(child);
    forEachElement(child, visit);
  }
}

/**
 * Resolves an href the way a browser does, or returns undefined for what is not a link an agent may be shown: an
 * empty href, a fragment-only reference (`#top`), an unparseable value, or a scheme other than http, https and
 * mailto (`javascript:`, `data:`, custom schemes; src/link-target.ts).
 */
export function resolveHref(href: string | null, baseUrl: string): string | undefined {
  const value = href?.trim() ?? '';
  if (value === '' || value.startsWith('#')) return undefined;
  return resolveLinkTarget(value, baseUrl);
}

/**
 * All links under `root` in document order, resolved against `baseUrl`, their text clean (src/clean-text.ts: link
 * lists measure and cut the lines they return); hidden elements must be removed first.
 */
export function listLinks(root: HtmlElement | HtmlDocument, baseUrl: string): PageLink[] {
  const links: PageLink[] = [];
  forEachElement(root, (el) => {
    if (el.name !== 'a' || el.attribs.href === undefined) return;
    const url = resolveHref(el.attribs.href, baseUrl);
    if (url) links.push({ url, text: cleanText(anchorText(el)) });
  });
  return links;
}

/** The unique targets of all links under `root`, in document order; hidden elements must be removed first. */
export function listLinkTargets(root: HtmlElement | HtmlDocument, baseUrl: string): string[] {
  // A page repeats its navigation links; each distinct href is resolved once.
  const byHref = new Map<string, string | undefined>();
  forEachElement(root, (el) => {
    const href = el.name === 'a' ? el.attribs.href : undefined;
    if (href !== undefined && !byHref.has(href)) byHref.set(href, resolveHref(href, baseUrl));
  });
  const urls = new Set<string>();
  for (const url of byHref.values()) if (url) urls.add(url);
  return [...urls];
}

/** The page's `<link rel="canonical">`, resolved; read before cleaning removes `<head>`. */
export function readCanonicalUrl(doc: HtmlDocument, baseUrl: string): string | undefined {
  const canonical = findElement(
    doc,
    (el) => el.name === 'link' && /(?:^|\s)canonical(?:\s|$)/i.test(el.attribs.rel ?? '') && Boolean(el.attribs.href),
  )?.attribs.href;
  return canonical === undefined ? undefined : resolveHref(canonical, baseUrl);
}

/**
 * HTML text → its visible links (the worker task behind `links`, `web` links mode and `extract_links`): read from
 * the parser's events without a tree where the page allows it (link-stream.ts), else from its tree.
 */
export function extractLinks(html: string, pageUrl: string): ExtractedLinks {
  const cut = cutPage(html);
  const streamed = streamLinks(cut, pageUrl);
  if (!streamed) return extractLinksFromTree(html, pageUrl, cut);
  const { baseUrl, canonicalHref } = streamed;
  // Resolved in place: a list of 200,000 links is not copied into a second (issue 23).
  const links = streamed.links;
  let kept = 0;
  for (const link of links) {
    const url = resolveHref(link.url, baseUrl);
    if (url !== undefined) links[kept++] = { url, text: link.text };
  }
  links.length = kept;
  const canonicalUrl = canonicalHref === undefined ? undefined : resolveHref(canonicalHref, baseUrl);
  const { hiddenBlocksDropped, pageTextLength } = streamed;
  return { links, hiddenBlocksDropped, pageTextLength, ...(canonicalUrl ? { canonicalUrl } : {}) };
}

/** extractLinks from the page's tree: any page, hiding rules of its sheets included. */
export function extractLinksFromTree(html: string, pageUrl: string, cut: CutPage = cutPage(html)): ExtractedLinks {
  const { doc, metadata, sheet } = parsePage(html, pageUrl, cut);
  const { baseUrl } = metadata;
  // Read before cleaning removes <head>.
  const canonicalUrl = readCanonicalUrl(doc, baseUrl);
  const hiddenBlocksDropped = removeHidden(doc, { sheet });
  const links = listLinks(doc, baseUrl); // one list: 200,000 links are not copied into a second (issue 23)
  // The page's visible text decides its outcome (src/outcome.ts) when its links are all that is read of it.
  const pageTextLength = pageReadableLength(doc);
  return { links, hiddenBlocksDropped, pageTextLength, ...(canonicalUrl ? { canonicalUrl } : {}) };
}

/**
 * HTML text → the characters of the whole page's visible text, hidden blocks removed, counted as far as the outcome
 * rules compare (pageReadableLength): what extractLinks measures for a page's outcome, for a read whose own count is
 * of its main block only (src/outcome.ts looksScriptBuilt).
 */
export function pageTextLengthOf(html: string, pageUrl: string): number {
  const { doc, sheet } = parsePage(html, pageUrl);
  removeHidden(doc, { sheet });
  return pageReadableLength(doc);
}
