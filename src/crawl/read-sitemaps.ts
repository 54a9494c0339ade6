// The sitemaps a crawl adds to its frontier: robots.txt `Sitemap:` lines, else /sitemap.xml, then the child
// sitemaps of an index, within MAX_SITEMAP_FILES files and MAX_SITEMAP_URLS URLs. A sitemap lists the whole site,
// so only the URLs under the start URL's directory are taken (all of them when the crawl starts at the root).
// Parsing is sitemap.ts's; fetching is CrawlIO's.
import type { CrawlIO } from './crawl-io.js';
import type { CrawlScope } from './frontier.js';
import { normalizeUrl } from './normalize-url.js';
import type { Politeness } from './politeness.js';

/** Sitemap files read per crawl (an index and its children) and URLs taken from them. */
export const MAX_SITEMAP_FILES = 10;
export const MAX_SITEMAP_URLS = 10000;

export interface ReadSitemapsOptions {
  /** The normalised start URL. */
  readonly startUrl: string;
  readonly scope: Pick<CrawlScope, 'maxDepth' | 'maxPages' | 'respectRobots'>;
  readonly io: Pick<CrawlIO, 'loadSitemap'>;
  readonly politeness: Pick<Politeness, 'robotsFor'>;
  readonly signal: AbortSignal;
}

/** The page URLs the site's sitemaps list under the start URL; none when the crawl could not follow them anyway. */
export async function readSitemaps({
  startUrl,
  scope,
  io,
  politeness,
  signal,
}: ReadSitemapsOptions): Promise<string[]> {
  if (scope.maxDepth < 1 || scope.maxPages < 2) return [];
  let listed: readonly string[] = [];
  if (scope.respectRobots) {
    try {
      listed = (await politeness.robotsFor(startUrl)).sitemaps;
    } catch {
      return []; // the start page reports why its origin cannot be reached
    }
  }
  const section = new URL('./', startUrl).href;
  const queue = listed.length > 0 ? [...listed] : [new URL('/sitemap.xml', startUrl).href];
  const urls: string[] = [];
  for (let files = 0; files < MAX_SITEMAP_FILES && queue.length > 0 && urls.length < MAX_SITEMAP_URLS; files++) {
    const sitemapUrl = queue.shift()!;
    try {
      const sitemap = await io.loadSitemap(sitemapUrl, signal);
      const inSection = sitemap.urls.filter((url) => normalizeUrl(url)?.startsWith(section));
      urls.push(...inSection.slice(0, MAX_SITEMAP_URLS - urls.length));
      queue.push(...sitemap.sitemaps);
    } catch {
      if (signal.aborted) return urls;
      // A sitemap is a hint: one that cannot be read leaves the links to find the pages.
    }
  }
  return urls;
}
