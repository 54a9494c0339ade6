// Breadth-first crawl within an exact token budget (seeds/url-reader-architecture.md "crawl", SPEC "Crawl budgets
// that hold exactly"), put together from its parts: the frontier (frontier.ts), the visits (visit.ts) and their
// politeness (politeness.ts), the slot scheduler (scheduler.ts), the commit of each result in frontier order
// (commit.ts) and the sitemaps (read-sitemaps.ts). Fetching, extraction, robots.txt and sitemaps come in through
// CrawlIO: no part touches the network, so tests drive the crawl with plain functions.
//
// Time: a crawl may be given a deadline (the tool's max_seconds) and a graceful stop (server shutdown). Either one
// ends the crawl at once with what it has read: pages already fetched at the head of the frontier are still taken,
// pages in flight are abandoned (aborted, not waited on) and go back to the frontier. What is left — frontier, seen
// set, budget spent — is returned as a CrawlState, plain data, from which a later call resumes the same crawl.
//
// Checkpoints: given `checkpoint`, the same state is handed to it before the first page and after every committed
// page, and awaited, so a page counted in a progress notification is in the state a continuation takes (a shared
// store keeps it, and a crawl whose process dies is continued from there: docs/scale-out.md).
import { createCommit, type CrawlResult, type StopReason } from './commit.js';
import type { CrawlIO } from './crawl-io.js';
import { createFrontier, scopeOf, type CrawlEntry, type CrawlScope, type CrawlState } from './frontier.js';
import { normalizeUrl } from './normalize-url.js';
import { createPoliteness } from './politeness.js';
import { readSitemaps } from './read-sitemaps.js';
import { createScheduler } from './scheduler.js';
import { isAllowedHost } from './url-scope.js';
import { createVisit, type VisitResult } from './visit.js';

export interface CrawlOptions extends CrawlScope {
  /** Cancellation: the caller is gone; the crawl stops at once and nothing can continue it. */
  readonly signal?: AbortSignal;
  /** A graceful stop (server shutdown): the crawl stops like at its time limit, stop reason 'stopped'. */
  readonly stopSignal?: AbortSignal;
  /** Stop after this long (the tool's max_seconds), keeping what was read and the state to continue from. */
  readonly timeLimitMs?: number;
  /** Continue a crawl a time limit or a stop ended (its scope and budgets replace this one's). */
  readonly resume?: CrawlState;
  readonly onProgress?: (progress: CrawlProgress) => void;
  /** A URL's visit begins (robots.txt, then its page): what a progress line says is being read. */
  readonly onVisit?: (url: string) => void;
  /** Keeps the crawl's state as it goes (before the first page, after each committed one); awaited. */
  readonly checkpoint?: (state: CrawlState) => Promise<void>;
}

export interface CrawlProgress {
  /** URLs taken from the frontier and finished (read, failed or skipped): rises by one each time. */
  readonly processed: number;
  readonly pagesRead: number;
  readonly tokensUsed: number;
  readonly maxTokens: number;
  readonly maxPages: number;
  readonly frontierSize: number;
  /**
   * URLs this crawl still expects to finish (frontier and in flight), bounded by the pages max_pages still allows;
   * 0 once a limit is reached or nothing is left. `processed + remaining` is a total a progress bar can use.
   */
  readonly remaining: number;
}

export async function crawlSite(crawlOptions: CrawlOptions, io: CrawlIO): Promise<CrawlResult> {
  const { resume } = crawlOptions;
  // A continuation keeps the crawl's own scope and budgets; only the run-time options are this call's.
  const options: CrawlOptions = resume ? { ...crawlOptions, ...resume.scope } : crawlOptions;
  const now = io.now ?? Date.now;
  const started = now();
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const startUrl = normalizeUrl(options.url);
  if (!startUrl) throw new Error(`not an http(s) URL: ${options.url}`); // the tool validated it
  const frontier = createFrontier({ startUrl, scope: options, ...(resume ? { resume } : {}) });
  const earlier = { pages: resume?.pagesRead ?? 0, tokens: resume?.tokensUsed ?? 0 };
  const commit = createCommit({ frontier, maxTokens: options.maxTokens, maxPages: options.maxPages, earlier });
  let processed = resume?.processed ?? 0;
  const politeness = createPoliteness({
    io,
    signal,
    now,
    ...(io.sleep ? { sleep: io.sleep } : {}),
    ...(resume ? { lastStartByOrigin: resume.lastStartByOrigin } : {}),
  });
  let firstRequestMade!: () => void;
  const firstRequest = new Promise<void>((resolve) => (firstRequestMade = resolve));
  const visitEntry = createVisit({
    io,
    politeness,
    respectRobots: options.respectRobots,
    signal,
    onRequest: () => firstRequestMade(),
  });
  // The crawl's scope as a continuation keeps it: the start page may move it (land below).
  let scope = scopeOf(options);
  let landedUrl: string | undefined;
  const visit = async (entry: CrawlEntry): Promise<VisitResult> => {
    options.onVisit?.(entry.url);
    const result = await visitEntry(entry);
    land(result); // before the scheduler sees the result: no link of the start page is judged by the old scope
    // The start page's final URL is known now, before its turn to be committed, and the scheduler may start links
    // of a finished page early: a start URL that redirects (http → https, www → apex) to a home page whose nav
    // links to itself must not fetch it a second time. Only the start page: for a later page, marking its final URL
    // early would let a redirecting alias read ahead stand in for the URL the frontier names.
    if (result.kind === 'page' && entry.url === startUrl && entry.depth === 0) {
      frontier.sightRedirect(entry.url, result.page.finalUrl);
    }
    return result;
  };
  const scheduler = createScheduler({
    frontier,
    visit,
    concurrency: options.concurrency,
    maxPages: options.maxPages,
    pagesRead: commit.pagesRead,
    signal,
    timeLimitMs: options.timeLimitMs,
    stopSignal: options.stopSignal,
  });

  // Sitemaps are read while the start page is fetched; their URLs join the frontier at depth 1, after the start
  // page's links. A continuation whose first call stopped before the sitemaps were merged reads them again (from
  // the cache).
  let sitemapsMerged = resume?.sitemapsMerged ?? false;
  // The start host's sitemaps are read from the start, and given up (even while waiting for the host's turn) when
  // the start page lands on another host: that crawl reads the landed site's instead.
  const startSitemaps = new AbortController();
  const sitemapsOf = (
    siteUrl: string,
    after: Promise<void> = Promise.resolve(),
    readSignal: AbortSignal = signal,
  ): Promise<string[]> => {
    const urls = after.then(() =>
      readSitemaps({ startUrl: siteUrl, scope: options, io, politeness, signal: readSignal }),
    );
    urls.catch(() => undefined); // awaited in commitNext, or abandoned when the crawl halts first
    return urls;
  };
  // The sitemap is asked for after the first page of this call: on one host, with PER_DOMAIN_INTERVAL between
  // requests, asking first would hold the start page back by a whole interval — a page a short max_seconds misses.
  let sitemapUrls = sitemapsMerged
    ? Promise.resolve([])
    : sitemapsOf(scope.landedUrl ?? startUrl, firstRequest, AbortSignal.any([signal, startSitemaps.signal]));

  // A start URL that redirects to another host (www → apex, an old domain) when the caller named no allowed_domains:
  // the crawl is of the site it landed on, so the landed host replaces the start host in scope (a host already in
  // scope, a sub-domain say, changes nothing), and its sitemaps are read instead of the start host's. A continuation
  // keeps the moved scope. Decided once, by the start page's own result.
  function land(result: VisitResult): void {
    if (!scope.followStartRedirect || result.entry.url !== startUrl || result.entry.depth !== 0) return;
    scope = { ...scope, followStartRedirect: false };
    if (result.kind !== 'page') return;
    const landed = new URL(result.page.finalUrl);
    if (isAllowedHost(landed.hostname, scope.allowedDomains)) return;
    landedUrl = normalizeUrl(landed.href) ?? landed.href;
    scope = { ...scope, allowedDomains: [landed.hostname.replace(/\.$/, '')], landedUrl };
    frontier.moveScope(scope.allowedDomains);
    startSitemaps.abort();
    if (!sitemapsMerged) sitemapUrls = sitemapsOf(landedUrl);
  }

  // Where the crawl stands, for a continuation: pages in flight go back to the head of the frontier (in their order)
  // and are read again; pages started early were never enqueued, so their links find them again.
  const stateNow = (): CrawlState => ({
    version: 1,
    scope,
    frontier: [...scheduler.inFlight(), ...frontier.remaining()],
    ...frontier.state(),
    pagesRead: commit.pagesRead(),
    tokensUsed: commit.tokensUsed(),
    processed,
    sitemapsMerged,
    lastStartByOrigin: politeness.lastStarts(),
  });

  function report(): void {
    const known = frontier.size() + scheduler.inFlight().length;
    const pagesRead = commit.pagesRead();
    options.onProgress?.({
      processed,
      pagesRead,
      tokensUsed: commit.tokensUsed(),
      maxTokens: options.maxTokens,
      maxPages: options.maxPages,
      frontierSize: frontier.size(),
      remaining: commit.limit() ? 0 : Math.max(0, Math.min(known, options.maxPages - pagesRead)),
    });
  }

  async function commitNext(result: VisitResult): Promise<void> {
    await commit.commit(result);
    if (!sitemapsMerged && !commit.limit() && !scheduler.halted()) {
      // After the start URL's own result, whatever it was (a start page that failed still has a sitemap), and
      // after its links: the pages the site itself links first come first. A halt does not wait for them: the
      // continuation reads them again.
      await Promise.race([sitemapUrls, scheduler.halt]);
      if (!scheduler.halted()) {
        sitemapsMerged = true;
        for (const url of await sitemapUrls) frontier.enqueue(url, 1);
      }
    }
    processed++;
    await options.checkpoint?.(stateNow());
    report();
  }

  await options.checkpoint?.(stateNow());
  let stopReason: StopReason = await scheduler.run(commitNext, commit.limit);
  if (options.signal?.aborted) stopReason = 'cancelled';
  // Whatever is still in flight or waiting was not read because a limit was reached (or the caller cancelled).
  controller.abort();
  let resumeState: CrawlState | undefined;
  if (stopReason === 'time_limit' || stopReason === 'stopped') {
    // Abandoned, not waited on: the caller's time is up (stateNow returns them to the frontier).
    const state = stateNow();
    if (state.frontier.length > 0 || !sitemapsMerged) {
      resumeState = state;
    } else {
      stopReason = 'frontier_empty'; // halted with nothing left to do: the crawl is complete
    }
  } else {
    await scheduler.settled();
  }
  if (stopReason !== 'cancelled' && !resumeState) {
    const unreached = [...scheduler.inFlight(), ...frontier.remaining()].map((entry) => entry.url);
    // Started early, never reached: fetched, so listed.
    unreached.push(...scheduler.earlyUrls().filter((url) => !frontier.hasSeen(url)));
    commit.skipUnreached(stopReason, unreached);
  }
  return commit.result({
    startUrl,
    elapsedMs: now() - started,
    timeLimitMs: options.timeLimitMs,
    stopReason,
    resume: resumeState,
    ...(landedUrl !== undefined && { landedUrl }),
  });
}
