// Links as data, apart from any page: their shapes, which are web URLs, which share a site, and the ranked and
// de-duplicated lists the tools print. Pure URL work: the tools use it on the main thread without loading the HTML
// parser, which stays in the extraction workers (links.ts).

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
  /** Characters of the page's visible text (hidden blocks removed) as its outcome reads them (pageReadableLength). */
  readonly pageTextLength?: number;
  /**
   * Read with a `siteLinksLimit`: the page's same-site links ranked, the first that many, and how many there are;
   * `links` is then empty, so that a page of 200,000 links does not cross from the worker for 100 (issue 23).
   */
  readonly site?: SiteLinks;
}

/** A page's same-site links ranked (rankLinks), perhaps only the first of them, and how many there are in all. */
export interface SiteLinks {
  readonly ranked: RankedLink[];
  readonly total: number;
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

/** The same-site links of a page (`pageUrl`), ranked (rankLinks): the first `limit`, and how many there are. */
export function rankSiteLinks(links: readonly PageLink[], pageUrl: string, limit = Infinity): SiteLinks {
  const ranked = rankLinks(links.filter((link) => isSameSite(link.url, pageUrl)));
  return { ranked: ranked.length > limit ? ranked.slice(0, limit) : ranked, total: ranked.length };
}
