// The crawl's frontier: the URLs still to visit in breadth-first order with their depth, the seen set that lets a URL
// enter at most once, the URLs each read page stands for (redirects and canonicals), and the plain data a later call
// continues from (CrawlState, what continue_from resumes). URLs arrive as pages spell them and are normalised
// (normalize-url.ts) and judged (url-scope.ts) here; the ones out of scope or too deep are listed with the reason.
import { normalizedUrl, normalizeUrl } from './normalize-url.js';
import { createScope } from './url-scope.js';
import { CRAWL_REASONS } from './reasons.js';

export interface CrawlEntry {
  readonly url: string;
  readonly depth: number;
}

/** What a crawl is: its start, scope and budgets. Plain data, kept in a CrawlState for the calls that continue it. */
export interface CrawlScope {
  readonly url: string;
  /** For the whole crawl, the calls that continue it included. */
  readonly maxTokens: number;
  /** For the whole crawl, the calls that continue it included. */
  readonly maxPages: number;
  readonly maxDepth: number;
  /** Host names; sub-domains are included. */
  readonly allowedDomains: readonly string[];
  readonly patterns: readonly string[];
  readonly excludePatterns: readonly string[];
  readonly respectRobots: boolean;
  readonly concurrency: number;
  /**
   * `allowedDomains` is the start URL's host because the caller named none: when the start page lands on a host
   * outside it (www → apex), the crawl's scope moves there (crawl-site.ts). Cleared once the start page is read.
   */
  readonly followStartRedirect?: boolean;
  /** The start page's final URL when it landed on another host: its sitemaps are that site's. */
  readonly landedUrl?: string;
}

/**
 * Where a crawl stopped by its time limit or a graceful stop stands: enough to continue it with the same frontier,
 * seen set, scope and remaining budget. Plain JSON-serialisable data (a resume store may keep it out of process).
 */
export interface CrawlState {
  readonly version: 1;
  readonly scope: CrawlScope;
  /** URLs still to visit, in breadth-first order; pages abandoned in flight come first. */
  readonly frontier: readonly CrawlEntry[];
  /** Every normalised URL enqueued, skipped or read so far. */
  readonly seen: readonly string[];
  /** Normalised URLs a read page stands for → the page's URL (for duplicates by redirect or canonical). */
  readonly readAs: readonly (readonly [string, string])[];
  readonly pagesRead: number;
  readonly tokensUsed: number;
  readonly processed: number;
  readonly sitemapsMerged: boolean;
  /** Origin → when its last request started (epoch ms), so Crawl-delay holds across calls. */
  readonly lastStartByOrigin: Readonly<Record<string, number>>;
}

/** The serialisable part of the options: what a continuation keeps. */
export function scopeOf(options: CrawlScope): CrawlScope {
  return {
    url: options.url,
    maxTokens: options.maxTokens,
    maxPages: options.maxPages,
    maxDepth: options.maxDepth,
    allowedDomains: [...options.allowedDomains],
    patterns: [...options.patterns],
    excludePatterns: [...options.excludePatterns],
    respectRobots: options.respectRobots,
    concurrency: options.concurrency,
    ...(options.followStartRedirect && { followStartRedirect: true }),
    ...(options.landedUrl !== undefined && { landedUrl: options.landedUrl }),
  };
}

export interface FrontierOptions {
  /** The normalised start URL. */
  readonly startUrl: string;
  /** Which URLs the crawl may follow (the crawl's own scope when it is a continuation). */
  readonly scope: CrawlScope;
  /** The crawl this one continues: its frontier, seen set and read pages are taken over. */
  readonly resume?: CrawlState;
}

export interface Frontier {
  /** URLs enqueued out of scope or deeper than max_depth, with why, in the order they were met. */
  readonly outOfScope: { readonly url: string; readonly reason: string }[];
  /** The next entry to visit, left in place. */
  peek(): CrawlEntry | undefined;
  /** Takes the entry peek() gave: it is being visited. */
  take(): void;
  /** Entries not taken yet, in order. */
  remaining(): CrawlEntry[];
  size(): number;
  /** A link of a page at depth - 1: joins the frontier unless seen, out of scope or too deep. */
  enqueue(url: string, depth: number): void;
  hasSeen(normalUrl: string): boolean;
  /** The normalised URL of a link that enqueue would add, without adding it (for pages started ahead of their turn). */
  followable(url: string, depth: number): string | undefined;
  /**
   * A page was read at `url`: the normalised URLs it stands for (its own, its final URL, its canonical) are now seen,
   * so a redirect target or canonical URL is not fetched again. `original` is a page already read as one of them.
   */
  sightPage(url: string, finalUrl: string, canonical: string | undefined): { aliases: string[]; original?: string };
  /** The page read at `url` stands for `aliases` from now on. */
  markRead(aliases: readonly string[], url: string): void;
  /** The parts of a CrawlState the frontier holds. */
  state(): Pick<CrawlState, 'seen' | 'readAs'>;
  /**
   * The start page, just read, whose final URL differs from its own (a redirect): the final URL is known from now on,
   * so no link to it starts it again.
   */
  sightRedirect(url: string, finalUrl: string): void;
  /** Links from now on are judged by these allowed domains (the start page landed on another host). */
  moveScope(allowedDomains: readonly string[]): void;
}

export function createFrontier({ startUrl, scope, resume }: FrontierOptions): Frontier {
  let judge = createScope(scope);
  const { maxDepth } = scope;
  const entries: CrawlEntry[] = resume ? [...resume.frontier] : [{ url: startUrl, depth: 0 }];
  let head = 0;
  // Every normalised URL enqueued, skipped or read: a URL enters the frontier at most once.
  const seen = new Set<string>(resume ? resume.seen : [startUrl]);
  // Normalised URLs a read page stands for (its own, its final URL, its canonical) → the page's URL.
  const readAs = new Map<string, string>(resume?.readAs ?? []);
  // Links as pages spell them, already judged: a site's navigation repeats the same links on every page, and
  // one look-up is cheaper than normalising them again.
  const linksSeen = new Set<string>();
  const outOfScope: Frontier['outOfScope'] = [];

  return {
    outOfScope,
    peek: () => entries[head],
    take: () => void head++,
    remaining: () => entries.slice(head),
    size: () => entries.length - head,
    enqueue(url, depth) {
      if (linksSeen.has(url)) return;
      linksSeen.add(url);
      const normal = normalizedUrl(url);
      if (!normal || seen.has(normal.href)) return;
      const key = normal.href;
      seen.add(key);
      const verdict = judge(normal);
      if (!verdict.inScope) outOfScope.push({ url: key, reason: verdict.reason });
      else if (depth > maxDepth) outOfScope.push({ url: key, reason: CRAWL_REASONS.tooDeep(maxDepth) });
      else entries.push({ url: key, depth });
    },
    hasSeen: (normalUrl) => seen.has(normalUrl),
    followable(url, depth) {
      const link = normalizedUrl(url);
      if (!link || seen.has(link.href) || depth > maxDepth) return undefined;
      return judge(link).inScope ? link.href : undefined;
    },
    sightPage(url, finalUrl, canonical) {
      const aliases = [url, normalizeUrl(finalUrl), canonical && normalizeUrl(canonical)]
        .filter((key): key is string => Boolean(key))
        .filter((key, index, all) => all.indexOf(key) === index);
      const original = aliases.map((key) => readAs.get(key)).find(Boolean);
      aliases.forEach((key) => seen.add(key));
      return original ? { aliases, original } : { aliases };
    },
    sightRedirect(url, finalUrl) {
      const final = normalizeUrl(finalUrl);
      if (final && final !== url) seen.add(final);
    },
    markRead(aliases, url) {
      aliases.forEach((key) => readAs.set(key, url));
    },
    state: () => ({ seen: [...seen], readAs: [...readAs] }),
    moveScope(allowedDomains) {
      judge = createScope({ ...scope, allowedDomains });
    },
  };
}
