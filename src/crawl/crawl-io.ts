// What the crawler needs from the outside world: fetching and reading a page, its links, robots.txt and sitemaps,
// and a clock. The crawler itself never touches the network, so tests drive it with plain functions;
// src/runs/crawl-run.ts binds this to the engine (fetch, extraction, cache, queue, SSRF guard).
import type { LinkTargets } from '../extract/link-set.js';
import type { RobotsRules } from '../fetch/robots.js';
import type { ParsedSitemap } from './sitemap.js';

export interface CrawlFetched {
  /** The URL after redirects. */
  readonly finalUrl: string;
  readonly title: string | undefined;
  /** What a model reads (Markdown). */
  readonly content: string;
  /** The HTML to take links from; absent for other content types. */
  readonly html?: string;
  /** Where the page's links lead when reading it already listed them; else they are taken from `html`. */
  readonly links?: LinkTargets;
  /** Read from a browser's DOM after the page's scripts ran. */
  readonly rendered?: boolean;
  /** Why the page has nothing to read (empty, needs JavaScript, binary), when so. */
  readonly unreadable?: { readonly code: string; readonly message: string };
}

export interface CrawlIO {
  /** Fetches and reads one page; throws the fetch's error (HTTP status, refused address, timeout, …). */
  readPage(url: string, signal: AbortSignal): Promise<CrawlFetched>;
  /** Where the page's links lead (the same extraction as the `links` tool), plus its rel=canonical. */
  extractLinks(html: string, baseUrl: string): Promise<LinkTargets>;
  /** The robots.txt rules for the URL's origin; throws only for a refused address or cancellation. */
  loadRobots(url: string, signal: AbortSignal): Promise<RobotsRules>;
  /** A sitemap, or an empty one when there is none. */
  loadSitemap(url: string, signal: AbortSignal): Promise<ParsedSitemap>;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}
