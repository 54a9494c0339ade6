// The `map` tool's listing: a site's URLs without reading their pages. Three sources, listed in this order —
// /llms.txt (few, chosen by the site for models, with titles), the start page's links (its navigation), then the
// sitemaps (robots.txt `Sitemap:` lines, else /sitemap.xml; indexes followed; often thousands) — so that when
// max_urls cuts the list, what is cut is the long tail of the sitemaps. Every URL is normalised as the crawl does
// (normalize-url.ts), listed once (the first source names it; a later one may add a title) and kept only when in
// scope (url-scope.ts: allowed_domains, patterns) and, with `search`, when its URL or title contains it.
//
// Bounded: at most MAX_MAP_SITEMAP_FILES sitemap files per call (an index naming thousands is cut, and says so),
// MAX_URLS_PER_SITEMAP URLs read from one file, the listing stops at max_urls, and everything runs within the
// call's time limit. The fetching is MapIO's (src/tools/map-tool.ts binds it to the engine).
import { FetchError, TimeoutError, errorMessage } from '../errors.js';
import type { LlmsTxt } from '../formats/llms-txt.js';
import type { CrawlIO } from './crawl-io.js';
import { normalizedUrl } from './normalize-url.js';
import { asPageError, asPageFailure, type RobotsFailure } from './robots-first.js';
import { createScope, parseAllowedDomains } from './url-scope.js';

/** The network failure that kept robots.txt unread, as the error the start page would have met. */
function unreachableError(url: string, failure: RobotsFailure): Error {
  if (failure.code === 'TIMEOUT') return new TimeoutError(url, 0, undefined, failure.message);
  return new FetchError('CONNECT_FAILED', url, asPageFailure(url, failure)?.message ?? failure.message);
}

/**
 * The notes a map gives the agent (src/output/map-report.ts capitalises them; crawl/ is below src/output/, so they
 * are named here, not in src/output/notices.ts).
 */
export const MAP_NOTES = {
  unreachable: (why: string) => `the site could not be reached, so the start page's links were not read: ${why}`,
  robotsDisallowStart: 'robots.txt disallows the start page, so its links were not read',
  startPageFailed: (why: string) => `the start page's links could not be read: ${why}`,
  sitemapLimit: (left: number) => `${left} more sitemap files were not read: at most ${MAX_MAP_SITEMAP_FILES} per call`,
  sitemapFailed: (url: string, why: string) => `sitemap ${url} could not be read: ${why}`,
  timeLimit: (seconds: number) => `stopped at the time limit (${seconds} s) with the URLs found so far`,
};

/** Sitemap files read per map call: an index and its children. */
export const MAX_MAP_SITEMAP_FILES = 50;

/** Sitemaps that failed named in the notes; the rest only counted in the file cap. */
const MAX_FAILURE_NOTES = 5;

export type MapSource = 'sitemap' | 'llms.txt' | 'page';

export interface MappedUrl {
  readonly url: string;
  readonly source: MapSource;
  title?: string;
}

export interface MapIO extends Pick<CrawlIO, 'loadRobots' | 'loadSitemap'> {
  /** The origin's /llms.txt, or undefined when it has none. */
  loadLlmsTxt(url: string, signal: AbortSignal): Promise<LlmsTxt | undefined>;
  /** The absolute URLs a page links to; throws the fetch's error. */
  loadPageLinks(url: string, signal: AbortSignal): Promise<string[]>;
}

export interface MapSiteOptions {
  /** The start URL, normalised. */
  readonly url: string;
  /** Default: the start URL's host. */
  readonly allowedDomains?: readonly string[];
  readonly patterns: readonly string[];
  readonly maxUrls: number;
  readonly search?: string;
  /** RESPECT_ROBOTS is not `never`: the start page is fetched only when robots.txt allows it, as a crawl's pages. */
  readonly respectRobots: boolean;
  readonly timeLimitMs: number;
  /** The caller is gone: the map throws its reason. */
  readonly signal?: AbortSignal;
}

export interface MapResult {
  readonly url: string;
  readonly urls: readonly MappedUrl[];
  /** URLs listed per source. */
  readonly counts: Readonly<Record<MapSource, number>>;
  /** The list is incomplete: max_urls, the sitemap file cap or the time limit stopped it. */
  readonly truncated: boolean;
  readonly stopReason: 'complete' | 'max_urls' | 'sitemap_limit' | 'time_limit';
  readonly sitemapsRead: number;
  /** What the agent should know: a source that failed, a limit that cut the list. */
  readonly notes: readonly string[];
  /** Why the start page's links could not be read, when so. */
  readonly startPageError?: unknown;
}

class ListFull extends Error {}

export async function mapSite(options: MapSiteOptions, io: MapIO): Promise<MapResult> {
  const start = new URL(options.url);
  const timeLimit = AbortSignal.timeout(options.timeLimitMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeLimit]) : timeLimit;
  const inScope = createScope({
    allowedDomains: parseAllowedDomains(options.allowedDomains ?? [start.hostname]),
    patterns: options.patterns,
    excludePatterns: [],
  });
  const search = options.search?.toLowerCase();
  const found = new Map<string, MappedUrl>();
  const counts: Record<MapSource, number> = { 'llms.txt': 0, page: 0, sitemap: 0 };
  const notes: string[] = [];
  let stopReason: MapResult['stopReason'] = 'complete';
  let sitemapsRead = 0;
  let startPageError: unknown;

  const matchesSearch = (href: string, title: string | undefined) => {
    if (search === undefined) return true;
    if (href.toLowerCase().includes(search) || title?.toLowerCase().includes(search)) return true;
    try {
      return decodeURI(href).toLowerCase().includes(search); // `café` finds `caf%C3%A9`
    } catch {
      return false; // a malformed escape: the URL as written was already compared
    }
  };

  function add(raw: string, source: MapSource, title?: string): void {
    const normal = normalizedUrl(raw);
    if (!normal || !inScope(normal).inScope) return;
    const known = found.get(normal.href);
    if (known) {
      if (known.title === undefined && title) known.title = title;
      return;
    }
    if (!matchesSearch(normal.href, title)) return;
    if (found.size >= options.maxUrls) throw new ListFull();
    found.set(normal.href, { url: normal.href, source, ...(title ? { title } : {}) });
    counts[source]++;
  }

  // The time limit ends the listing with what it has; the caller's cancellation ends the call.
  const stopped = (error: unknown): boolean => {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof ListFull) {
      stopReason = 'max_urls';
      return true;
    }
    if (timeLimit.aborted) {
      stopReason = 'time_limit';
      return true;
    }
    return false;
  };

  try {
    // RFC 9309 §2.3.1: throws only for a refused address or cancellation, which the caller reports.
    const robots = await io.loadRobots(start.href, signal).catch((error: unknown) => {
      throw asPageError(start.href, error);
    });

    const llmsTxt = await io.loadLlmsTxt(start.href, signal);
    for (const entry of llmsTxt?.entries ?? []) add(entry.url, 'llms.txt', entry.title || undefined);

    if (options.respectRobots && robots.unreachable) {
      // The site did not answer at all: not a refusal by robots.txt (and RFC 9309 keeps its pages unread anyway).
      // That failure is the start page's, as crawl reports it: with nothing listed, the map is an error.
      notes.push(MAP_NOTES.unreachable(robots.unreachable.message));
      startPageError = unreachableError(start.href, robots.unreachable);
    } else if (options.respectRobots && !robots.isAllowed(start.href)) {
      notes.push(MAP_NOTES.robotsDisallowStart);
    } else {
      try {
        for (const link of await io.loadPageLinks(start.href, signal)) add(link, 'page');
      } catch (error) {
        if (stopped(error)) throw error;
        startPageError = error;
        notes.push(MAP_NOTES.startPageFailed(errorMessage(error)));
      }
    }

    // A site that did not answer robots.txt is not asked for its sitemap either.
    const guessed = robots.unreachable ? [] : [new URL('/sitemap.xml', start).href];
    const queue = robots.sitemaps.length > 0 ? [...robots.sitemaps] : guessed;
    const seen = new Set<string>();
    let failed = 0;
    while (queue.length > 0) {
      const sitemapUrl = queue.shift()!;
      if (seen.has(sitemapUrl)) continue; // an index that names itself, or a child twice
      if (sitemapsRead + failed >= MAX_MAP_SITEMAP_FILES) {
        const left = new Set([sitemapUrl, ...queue].filter((url) => !seen.has(url))).size;
        notes.push(MAP_NOTES.sitemapLimit(left));
        stopReason = 'sitemap_limit';
        break;
      }
      seen.add(sitemapUrl);
      try {
        const sitemap = await io.loadSitemap(sitemapUrl, signal);
        sitemapsRead++;
        for (const url of sitemap.urls) add(url, 'sitemap', sitemap.titles?.get(url));
        queue.push(...sitemap.sitemaps);
      } catch (error) {
        if (stopped(error)) throw error;
        // A sitemap is a hint: one that cannot be read leaves the others (and /sitemap.xml's absence is normal).
        failed++;
        if (robots.sitemaps.length > 0 && failed <= MAX_FAILURE_NOTES) {
          notes.push(MAP_NOTES.sitemapFailed(sitemapUrl, errorMessage(error)));
        }
      }
    }
  } catch (error) {
    if (!stopped(error)) throw error;
  }

  // Set inside stopped(), which TypeScript's narrowing does not follow.
  if ((stopReason as MapResult['stopReason']) === 'time_limit') {
    notes.push(MAP_NOTES.timeLimit(Math.round(options.timeLimitMs / 1000)));
  }
  return {
    url: start.href,
    urls: [...found.values()],
    counts,
    truncated: stopReason !== 'complete',
    stopReason,
    sitemapsRead,
    notes,
    ...(startPageError !== undefined ? { startPageError } : {}),
  };
}
