// Loading: URL → fetched snapshot, in this order — the URL checked once (fetch/url-argument.ts), robots.txt when
// RESPECT_ROBOTS=always, the page cache, a fetch of the same URL already in flight (shared, reference-counted), the
// per-host queue (MAX_CONCURRENT, PER_DOMAIN_INTERVAL, QUEUE_TIMEOUT), the guarded fetch with its one deadline, and
// one retry with the honest User-Agent after a bot wall. Reading the snapshot is read-page.ts's job.
//
// The User-Agent: USER_AGENT (browser-like by default) unless the call names its own — the crawler's
// (Config.crawlerUserAgent), for `crawl` and `map`. Not keyed by it: a cached page, or a fetch of the same URL
// already in flight for another tool, serves the crawler without a request of its own.
//
// With REDIS_URL (src/shared-state/) the cache, the queue's spacing, robots.txt answers and the in-flight fetch are
// shared with other replicas too: a fetch this process would start is first claimed across replicas
// (fetch/fetch-claims.ts), and a call finding it claimed waits for the holder's page.
import type { Config } from '../config.js';
import { PRODUCT_USER_AGENT } from '../config.js';
import { HttpStatusError } from '../errors.js';
import { carriesCredentials, type Credentials } from '../fetch/credentials.js';
import { claimOrWait, type FetchClaims } from '../fetch/fetch-claims.js';
import { createFetcher } from '../fetch/guarded-fetch.js';
import { createPageCache, DEFAULT_CACHE_MAX_BYTES, snapshotKey, type PageCache } from '../fetch/page-cache.js';
import { createRequestQueue, type HostTurns, type RequestQueue } from '../fetch/queue.js';
import { createRobotsGate, siteFileTtlMs, type RobotsStore } from '../fetch/robots-gate.js';
import { productTokenOf, type RobotsRules } from '../fetch/robots.js';
import { sniffContent } from '../formats/sniff.js';
import type { FetchedPage, FetchOptions, FetchPage } from '../fetch/types.js';
import { parseUrlArgument } from '../fetch/url-argument.js';
import { log, logUrl } from '../log.js';
import { observeUpstreamLatency } from '../metrics.js';

export interface LoadOptions {
  readonly signal?: AbortSignal;
  /** Overrides FETCH_TIMEOUT for this call. */
  readonly timeoutMs?: number;
  /** `max_age`: a cached snapshot older than this many seconds is not used (0: fetch now). CACHE_TTL when absent. */
  readonly maxAgeSeconds?: number;
  /**
   * `headers`, bound to the origin they were given for (src/fetch/credentials.ts), sent by src/fetch/guarded-fetch.ts
   * only on that origin. A load whose URL is on that origin (carriesCredentials) never comes from the cache, never
   * joins another call's fetch, and is never cached: no other call can be served a page fetched with someone's
   * cookie. A load on another origin (a twin there, a crawl link) carries none, and is anyone's page.
   */
  readonly credentials?: Credentials;
  /** Overrides USER_AGENT for this call: the crawler's own (Config.crawlerUserAgent) for `crawl` and `map`. */
  readonly userAgent?: string;
  /** A request nobody asked for (the /llms.txt lookup): an idle turn in the host's queue (fetch/queue.ts). */
  readonly idle?: boolean;
}

export interface LoadedPage {
  readonly page: FetchedPage;
  readonly fromCache: boolean;
  /** The DOM of a browser that ran the page's scripts (render-step.ts), not the bytes the server sent. */
  readonly rendered?: boolean;
}

export interface LoaderIO {
  readonly fetchPage?: FetchPage;
  readonly cache?: PageCache;
  readonly queue?: RequestQueue;
  /** A fetched body as text by its charset (robots.txt). */
  readonly decodeText: (page: FetchedPage) => Promise<string>;
  /** Shared with other replicas (REDIS_URL); each absent: this process alone decides. */
  readonly turns?: HostTurns;
  readonly claims?: FetchClaims;
  readonly robotsStore?: RobotsStore;
}

export type LoadPage = (url: string, options?: LoadOptions) => Promise<LoadedPage>;

/** loadPage, and the robots.txt rules of a URL's origin from the same gate its RESPECT_ROBOTS=always check uses. */
export interface PageLoader extends LoadPage {
  /** RFC 9309: the origin's rules for the crawler; throws only for a refused address or `signal`. */
  robotsRules(url: string, signal?: AbortSignal): Promise<RobotsRules>;
}

/** One network fetch and the callers waiting on it (loadPage). */
interface SharedFetch {
  readonly page: Promise<FetchedPage>;
  readonly controller: AbortController;
  callers: number;
}

/**
 * A fetch claim's lease across replicas, renewed by its holder while it lives (redis-fetch-claims.ts): a replica
 * that dies holds the others back at most this long, well inside their patience (QUEUE_TIMEOUT + FETCH_TIMEOUT).
 */
const CLAIM_LEASE_MS = 5000;

/** Whether a cached snapshot is young enough for a call's `max_age` (none: the cache's own CACHE_TTL decides). */
export function isFresh(page: FetchedPage, maxAgeSeconds: number | undefined, now = Date.now()): boolean {
  return maxAgeSeconds === undefined || now - page.fetchedAt.getTime() < maxAgeSeconds * 1000;
}

/** A bot challenge rather than a real refusal: worth one retry with the honest User-Agent. */
export function isBotChallenge(status: number, headers: Readonly<Record<string, string>>): boolean {
  if (headers['cf-mitigated']?.toLowerCase() === 'challenge') return true;
  return (status === 403 || status === 503) && /challenge|captcha/i.test(headers['server-timing'] ?? '');
}

export function createPageLoader(config: Config, io: LoaderIO): PageLoader {
  const fetchPage = io.fetchPage ?? createFetcher(config);
  const cache = io.cache ?? createPageCache({ ttlSeconds: config.cacheTtlSeconds, maxBytes: DEFAULT_CACHE_MAX_BYTES });
  const queue =
    io.queue ??
    createRequestQueue({
      maxConcurrent: config.maxConcurrent,
      perDomainIntervalMs: config.perDomainIntervalMs,
      maxWaitMs: config.queueTimeoutMs,
      turns: io.turns,
    });
  // Requests for the same URL that overlap share one network request (see joinSharedFetch).
  const inFlight = new Map<string, SharedFetch>();
  // The one robots.txt gate (fetch/robots-gate.ts): checked before every URL under RESPECT_ROBOTS=always, and the
  // rules crawl and map obey (robotsRules). robots.txt is read through this same loadPage (guard, cache, queue), as
  // the crawler by its own name (site-files.ts) and with nobody's credentials: its answer is shared by every caller.
  const robots = createRobotsGate(
    async (robotsUrl) => {
      const { page } = await loadPage(robotsUrl, { userAgent: config.crawlerUserAgent });
      const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
      return kind === 'binary' || kind === 'pdf' ? '' : io.decodeText(page); // no text: no rules
    },
    siteFileTtlMs(config.cacheTtlSeconds),
    Date.now,
    productTokenOf(config.crawlerUserAgent),
    io.robotsStore,
  );
  const checkRobots = config.respectRobots === 'always' ? robots.check : undefined;

  // Every request to the network waits its turn (MAX_CONCURRENT, PER_DOMAIN_INTERVAL, at most QUEUE_TIMEOUT);
  // cache hits never queue. The network deadline (FETCH_TIMEOUT) starts when the request leaves the queue.
  function queuedFetch(url: string, options: FetchOptions & { readonly idle?: boolean }): Promise<FetchedPage> {
    const timeoutMs = options.timeoutMs ?? config.fetchTimeoutMs;
    const run = (signal: AbortSignal) => {
      const started = performance.now();
      return fetchPage(url, { ...options, signal, timeoutMs }).finally(() =>
        observeUpstreamLatency(performance.now() - started),
      );
    };
    return queue.schedule(url, run, { signal: options.signal, timeoutMs, idle: options.idle });
  }

  async function fetchWithFallback(url: string, options: LoadOptions): Promise<FetchedPage> {
    try {
      return await queuedFetch(url, options);
    } catch (error) {
      const page = error instanceof HttpStatusError ? error.page : undefined;
      if (!(error instanceof HttpStatusError) || !page || !isBotChallenge(error.status, page.headers)) throw error;
      if ((options.userAgent ?? config.userAgent) === PRODUCT_USER_AGENT) throw error; // it was us already
      // SPEC "Honest fallback on bot walls": the browser-like default met a challenge; ask once as ourselves.
      log(
        'info',
        `${logUrl(url)} answered a bot challenge (HTTP ${error.status}); asking once more as ${PRODUCT_USER_AGENT}`,
      );
      return await queuedFetch(url, { ...options, userAgent: PRODUCT_USER_AGENT });
    }
  }

  // A fetch shared by concurrent calls runs, and logs, in the context of the call that started it (src/log.ts):
  // the calls that join it get the page, not its log lines.
  async function loadPage(url: string, options: LoadOptions = {}): Promise<LoadedPage> {
    const key = snapshotKey(parseUrlArgument(url).href);
    await checkRobots?.(key, options.signal);
    if (carriesCredentials(options.credentials, key)) {
      options.signal?.throwIfAborted();
      return { page: await fetchWithFallback(key, options), fromCache: false };
    }
    const cached = await cache.get(key);
    if (cached && isFresh(cached, options.maxAgeSeconds)) return { page: cached, fromCache: true };
    options.signal?.throwIfAborted();
    let shared = inFlight.get(key);
    if (!shared) {
      // The first caller's deadline applies to the shared fetch; its cancellation is the callers' together. It is
      // anyone's page: credentials for another origin are never sent on a chain that starts here (guarded-fetch.ts).
      const controller = new AbortController();
      const page = fetchAndCache(key, { ...options, signal: controller.signal }, cached).finally(() => {
        if (inFlight.get(key) === entry) inFlight.delete(key);
      });
      const entry: SharedFetch = { page, controller, callers: 0 };
      shared = entry;
      inFlight.set(key, entry);
    }
    return { page: await joinSharedFetch(key, shared, options.signal), fromCache: false };
  }

  // The network fetch behind a shared one, its page cached. With other replicas, claimed first: the one holding the
  // claim fetches, the others take its page from the shared cache. A page older than the `stale` copy this call
  // came to replace does not answer it; a page that appears during the wait is as fresh as `max_age` can ask.
  async function fetchAndCache(key: string, options: LoadOptions, stale: FetchedPage | undefined) {
    const claims = config.cacheTtlSeconds > 0 ? io.claims : undefined; // nothing to hand over without a cache
    if (!claims) {
      const fetched = await fetchWithFallback(key, options);
      await cache.set(key, fetched);
      return fetched;
    }
    const timeoutMs = options.timeoutMs ?? config.fetchTimeoutMs;
    const outcome = await claimOrWait(key, {
      claims,
      claimTtlMs: CLAIM_LEASE_MS,
      maxWaitMs: config.queueTimeoutMs + timeoutMs,
      accepts: (page) => !stale || page.fetchedAt.getTime() > stale.fetchedAt.getTime(),
      signal: options.signal,
    });
    if ('page' in outcome) return outcome.page; // the next read copies it into this process's cache
    let fetched: FetchedPage;
    try {
      fetched = await fetchWithFallback(key, options);
    } catch (error) {
      void outcome.claim.release();
      throw error;
    }
    // The caller has its page now; the claim goes once the page is in the shared cache, where the waiters look.
    void Promise.resolve(cache.set(key, fetched))
      .catch(() => {}) // a cache that cannot store it: the waiters claim the URL in turn
      .finally(() => outcome.claim.release());
    return fetched;
  }

  // One caller of a shared fetch. A caller whose signal aborts leaves at once with its own reason; the fetch itself
  // is aborted only when every caller waiting on it has gone, so one caller's hang-up never cancels another's read.
  function joinSharedFetch(key: string, shared: SharedFetch, signal: AbortSignal | undefined): Promise<FetchedPage> {
    shared.callers++;
    return new Promise<FetchedPage>((resolve, reject) => {
      let gone = false;
      const leave = () => {
        gone = true;
        reject(signal!.reason);
        if (--shared.callers > 0) return;
        if (inFlight.get(key) === shared) inFlight.delete(key); // a later caller starts afresh
        shared.controller.abort(signal!.reason);
      };
      signal?.addEventListener('abort', leave, { once: true });
      shared.page.then(resolve, reject).finally(() => {
        signal?.removeEventListener('abort', leave);
        if (!gone) shared.callers--;
      });
    });
  }

  return Object.assign(loadPage, { robotsRules: robots.rulesFor });
}
