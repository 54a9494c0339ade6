// Links of a parsed page: every `<a href>` resolved against `<base href>` then the page's final URL, with its anchor
// text, in document order (seeds links-tool.md "Link Processing", web-tool.md "links" mode,
// url-reader-architecture.md link-resolver). Pure: the `links`, `web`, `extract_links` tools and the crawler share it.
// Not handled: links made by scripts, <area> image maps, and hiding by stylesheet classes (see clean-hidden.ts).
import { cleanText } from '../clean-text.js';
import { resolveLinkTarget } from '../link-target.js';
import { removeHidden } from './clean-hidden.js';
import { parsePage } from './parse-page.js';
import { collapseWhitespace, findElement, isElement, textOf, type HtmlDocument, type HtmlElement } from './parse.js';

export interface PageLink {
  /** Absolute URL, fragment kept (`/a#x` and `/a#y` are different links, as in the seeds). */
  readonly url: string;
  /** Anchor text, whitespace collapsed; '' when the link has none. */
  readonly text: string;
}

export interface ExtractedLinks {
  readonly links: PageLink[];
  /** Hidden elements removed first, so a hidden link never reaches the model (SPEC "Hidden text is dropped"). */
  readonly hiddenBlocksDropped: number;
  /** The page's `<link rel="canonical">`, resolved; the crawler de-duplicates by it. */
  readonly canonicalUrl?: string;
}

/** What a crawler follows from a page: where its links lead, each once, and its canonical URL. */
export interface LinkTargets {
  /** Unique resolved link URLs in document order (no anchor text: a crawler reads none). */
  readonly urls: string[];
  readonly canonicalUrl?: string;
}

export interface RankedLink extends PageLink {
  /** How many times the URL occurs on the page. */
  readonly count: number;
}

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

/** All links under `root` in document order, resolved against `baseUrl`; hidden elements must be removed first. */
export function listLinks(root: HtmlElement | HtmlDocument, baseUrl: string): PageLink[] {
  const links: PageLink[] = [];
  forEachElement(root, (el) => {
    if (el.name !== 'a' || el.attribs.href === undefined) return;
    const url = resolveHref(el.attribs.href, baseUrl);
    if (url) links.push({ url, text: anchorText(el) });
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

/** HTML text → its visible links (the worker task behind `links`, `web` links mode and `extract_links`). */
export function extractLinks(html: string, pageUrl: string): ExtractedLinks {
  const { doc, metadata, sheet } = parsePage(html, pageUrl);
  const { baseUrl } = metadata;
  // Read before cleaning removes <head>.
  const canonicalUrl = readCanonicalUrl(doc, baseUrl);
  const hiddenBlocksDropped = removeHidden(doc, { sheet });
  // Anchor text clean at the source (src/clean-text.ts): link lists measure and cut the lines they return.
  const links = listLinks(doc, baseUrl).map((link) => ({ url: link.url, text: cleanText(link.text) }));
  return { links, hiddenBlocksDropped, ...(canonicalUrl ? { canonicalUrl } : {}) };
}

/** http and https only: what an agent can fetch next. */
export function isWebUrl(url: string): boolean {
  return url.startsWith('http://') || url.startsWith('https://');
}

// Two-label public suffixes under a country code (example.co.uk, example.com.au): without a public-suffix list,
// a short second label under a two-letter TLD is taken as part of the suffix.
const SECOND_LEVEL = /^(?:co|com|net|org|gov|edu|ac|or|ne|go|gob|mil|nic|ltd|plc|sch)$/;

/**
 * The registrable part of a host name ("site", HTML §7.1.1 "same site", approximated): `docs.example.com` and
 * `www.example.com` are both `example.com`. An IP address or a single-label host is its own site.
 */
export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) return host;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const tld = labels.at(-1)!;
  const second = labels.at(-2)!;
  const keep = tld.length === 2 && SECOND_LEVEL.test(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** Same site as the page: same registrable domain, any scheme or sub-domain (http→https is still the site). */
export function isSameSite(url: string, pageUrl: string): boolean {
  if (!isWebUrl(url)) return false;
  try {
    return siteOf(new URL(url).hostname) === siteOf(new URL(pageUrl).hostname);
  } catch {
    return false; // not a URL with a host: not part of the site
  }
}

/**
 * One entry per URL, most frequent first, ties in order of first appearance; the text is the first occurrence's,
 * or, when that occurrence has none (an icon link), the first text any occurrence has.
 */
export function rankLinks(links: readonly PageLink[]): RankedLink[] {
  const byUrl = new Map<string, { url: string; text: string; count: number; first: number }>();
  links.forEach((link, index) => {
    const entry = byUrl.get(link.url);
    if (!entry) byUrl.set(link.url, { url: link.url, text: link.text, count: 1, first: index });
    else {
      entry.count++;
      if (entry.text === '') entry.text = link.text;
    }
  });
  return [...byUrl.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .map(({ url, text, count }) => ({ url, text, count }));
}

/** One entry per URL in order of first appearance, with the first non-empty anchor text. */
export function uniqueLinks(links: readonly PageLink[]): PageLink[] {
  const byUrl = new Map<string, { url: string; text: string }>();
  for (const link of links) {
    const entry = byUrl.get(link.url);
    if (!entry) byUrl.set(link.url, { url: link.url, text: link.text });
    else if (entry.text === '') entry.text = link.text;
  }
  return [...byUrl.values()];
}
