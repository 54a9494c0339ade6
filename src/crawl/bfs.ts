// Breadth-first crawl within an exact token budget (seeds/url-reader-architecture.md "crawl", SPEC "Crawl budgets
// that hold exactly"). Fetching, extraction, robots.txt and sitemaps come in through CrawlIO: this module never
// touches the network, so tests drive it with plain functions.
//
// Order and concurrency: up to `concurrency` URLs from the head of the frontier are fetched at once (the shared
// queue still enforces MAX_CONCURRENT and PER_DOMAIN_INTERVAL), but results are taken in frontier order, so the
// pages, the budget and the links enqueued are exactly those of a one-at-a-time BFS. When the frontier runs dry
// behind a page still being read, links of later finished pages are started early and taken over at their turn.
// Pages are never started beyond what max_pages could still use. Once the budget is spent, pages still in flight
// (or started early) are dropped and listed.
//
// Time: a crawl may be given a deadline (the tool's max_seconds) and a graceful stop (server shutdown). Either one
// ends the crawl at once with what it has read: pages already fetched at the head of the frontier are still taken,
// pages in flight are abandoned (aborted, not waited on) and go back to the frontier. What is left — frontier, seen
// set, budget spent — is returned as a CrawlState, plain data, from which a later call resumes the same crawl.
import { errorMessage, WebReaderError } from '../errors.js';
import type { LinkTargets } from '../extract/links.js';
import type { RobotsRules } from '../fetch/robots.js';
import { fitSection } from './budget.js';
import { normalizedUrl, normalizeUrl } from './normalize-url.js';
import type { ParsedSitemap } from './sitemap.js';
import { createScope } from './url-scope.js';

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
}

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

export interface CrawledPage {
  readonly url: string;
  readonly finalUrl: string;
  readonly title: string;
  readonly depth: number;
  /** The page's section in the Markdown, as counted. */
  readonly section: string;
  readonly tokens: number;
  readonly content: string;
  readonly isCut: boolean;
}

export interface SkippedUrl {
  readonly url: string;
  readonly reason: string;
}

export interface FailedUrl {
  readonly url: string;
  readonly code: string;
  readonly message: string;
}

export type StopReason = 'frontier_empty' | 'max_pages' | 'max_tokens' | 'time_limit' | 'stopped' | 'cancelled';

export interface CrawlResult {
  readonly startUrl: string;
  /** The pages this call read. */
  readonly pages: CrawledPage[];
  /** Tokens of this call's pages. */
  readonly tokensUsed: number;
  /** Pages and tokens of the earlier calls this one continues (0 for a new crawl). */
  readonly earlier: { readonly pages: number; readonly tokens: number };
  readonly maxTokens: number;
  readonly maxPages: number;
  readonly elapsedMs: number;
  readonly timeLimitMs: number | undefined;
  readonly stopReason: StopReason;
  /** With stop reason time_limit or stopped and work left: where to continue from. */
  readonly resume?: CrawlState;
  readonly skipped: {
    readonly robots: SkippedUrl[];
    readonly scope: SkippedUrl[];
    readonly budget: SkippedUrl[];
    readonly errors: FailedUrl[];
    readonly duplicates: SkippedUrl[];
  };
}

/** A Crawl-delay above this is treated as this: one robots.txt line must not hold a crawl for hours. */
export const MAX_CRAWL_DELAY_SECONDS = 30;
/** Sitemap files read per crawl (an index and its children) and URLs taken from them. */
export const MAX_SITEMAP_FILES = 10;
export const MAX_SITEMAP_URLS = 10000;
/** Finished visits that may wait for an earlier one, per unit of concurrency. */
const LOOKAHEAD_FACTOR = 4;

export interface CrawlEntry {
  readonly url: string;
  readonly depth: number;
}
type Entry = CrawlEntry;

interface Task {
  readonly entry: Entry;
  readonly result: Promise<TaskResult>;
  done: boolean;
  /** The result once settled: a finished page's links can be read before its turn. */
  value?: TaskResult;
  /** How many of its links have been looked at for pages to start early. */
  linksLooked: number;
}

type TaskResult =
  | { kind: 'page'; entry: Entry; page: CrawlFetched; links: string[]; canonical: string | undefined }
  | { kind: 'robots'; entry: Entry; reason: string }
  | { kind: 'error'; entry: Entry; code: string; message: string };

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    function stop(): void {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}

function failureOf(entry: Entry, error: unknown): TaskResult {
  const code = error instanceof WebReaderError ? error.code : 'INTERNAL';
  return { kind: 'error', entry, code, message: errorMessage(error) };
}

/** Why a crawl ended early on purpose, as opposed to a limit of its budget. */
type Halt = 'time_limit' | 'stopped';

export async function crawlSite(crawlOptions: CrawlOptions, io: CrawlIO): Promise<CrawlResult> {
  const { resume } = crawlOptions;
  // A continuation keeps the crawl's own scope and budgets; only the run-time options are this call's.
  const options: CrawlOptions = resume ? { ...crawlOptions, ...resume.scope } : crawlOptions;
  const now = io.now ?? Date.now;
  const sleep = io.sleep ?? sleepFor;
  const started = now();
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const startUrl = normalizeUrl(options.url);
  if (!startUrl) throw new Error(`not an http(s) URL: ${options.url}`); // the tool validated it
  const judge = createScope(options);

  const pages: CrawledPage[] = [];
  const skipped: CrawlResult['skipped'] = { robots: [], scope: [], budget: [], errors: [], duplicates: [] };
  const frontier: Entry[] = resume ? [...resume.frontier] : [{ url: startUrl, depth: 0 }];
  let head = 0;
  // Every normalised URL enqueued, skipped or read: a URL enters the frontier at most once.
  const seen = new Set<string>(resume ? resume.seen : [startUrl]);
  // Normalised URLs a read page stands for (its own, its final URL, its canonical) → the page's URL.
  const readAs = new Map<string, string>(resume?.readAs ?? []);
  const robotsByOrigin = new Map<string, Promise<RobotsRules>>();
  const lastStartByOrigin = new Map<string, Promise<number>>(
    Object.entries(resume?.lastStartByOrigin ?? {}).map(([origin, at]) => [origin, Promise.resolve(at)]),
  );
  // The same starts as plain numbers, for the state a continuation takes.
  const lastStartTimes = new Map<string, number>(Object.entries(resume?.lastStartByOrigin ?? {}));
  const earlier = { pages: resume?.pagesRead ?? 0, tokens: resume?.tokensUsed ?? 0 };
  let tokensUsed = earlier.tokens; // over the whole crawl: the budget is the crawl's, not one call's
  let processed = resume?.processed ?? 0;
  let stopReason: StopReason | undefined;
  const pagesRead = (): number => earlier.pages + pages.length;

  // The time limit and the graceful stop. `halted` is what the loop checks; `halt` is what it waits on beside the
  // pages in flight, so a deadline that passes while a page is slow ends the wait at once.
  let halted: Halt | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const halt = new Promise<void>((resolve) => {
    const end = (reason: Halt) => {
      halted ??= reason;
      resolve();
    };
    if (options.timeLimitMs !== undefined) timer = setTimeout(() => end('time_limit'), options.timeLimitMs);
    onStop = () => end('stopped');
    if (options.stopSignal?.aborted) end('stopped');
    else options.stopSignal?.addEventListener('abort', onStop, { once: true });
  });

  const robotsFor = (url: string): Promise<RobotsRules> => {
    const origin = new URL(url).origin;
    let rules = robotsByOrigin.get(origin);
    if (!rules) {
      rules = io.loadRobots(url, signal);
      robotsByOrigin.set(origin, rules);
    }
    return rules;
  };

  // Crawl-delay: request starts to one origin are spaced by the delay. Each request waits for the previous one's
  // actual start (not its planned one), so a late timer on a busy event loop delays the requests after it instead
  // of squeezing the next gap.
  async function waitForTurn(url: string, delaySeconds: number): Promise<void> {
    const origin = new URL(url).origin;
    const delayMs = Math.min(delaySeconds, MAX_CRAWL_DELAY_SECONDS) * 1000;
    const previous = lastStartByOrigin.get(origin);
    const turn = (async () => {
      const previousStart = previous ? await previous : -Infinity;
      const wait = previousStart + delayMs - now();
      if (wait > 0) await sleep(wait, signal);
      const at = now();
      lastStartTimes.set(origin, at);
      return at;
    })();
    // A cancelled wait ends the crawl; later waiters only need a time to count from.
    lastStartByOrigin.set(
      origin,
      turn.catch(() => now()),
    );
    await turn;
  }

  let firstRequestMade!: () => void;
  const firstRequest = new Promise<void>((resolve) => (firstRequestMade = resolve));

  async function visit(entry: Entry): Promise<TaskResult> {
    try {
      signal.throwIfAborted();
      if (options.respectRobots) {
        const rules = await robotsFor(entry.url);
        if (!rules.isAllowed(entry.url)) {
          return { kind: 'robots', entry, reason: rules.disallowAllReason ?? 'disallowed by robots.txt' };
        }
        if (rules.crawlDelaySeconds) await waitForTurn(entry.url, rules.crawlDelaySeconds);
      }
      const reading = io.readPage(entry.url, signal);
      firstRequestMade(); // the page's request is queued: a sitemap's request to the same host goes behind it
      const page = await reading;
      if (page.unreadable) return { kind: 'error', entry, ...page.unreadable };
      if (!page.html) return { kind: 'page', entry, page, links: [], canonical: undefined };
      const found = page.links ?? (await io.extractLinks(page.html, page.finalUrl));
      return { kind: 'page', entry, page, links: found.urls, canonical: found.canonicalUrl };
    } catch (error) {
      if (signal.aborted) throw error;
      return failureOf(entry, error);
    } finally {
      firstRequestMade();
    }
  }

  // Sitemaps (robots.txt `Sitemap:` lines, else /sitemap.xml) are read while the start page is fetched; their
  // URLs join the frontier at depth 1, after the start page's links. A sitemap lists the whole site, so only
  // the URLs under the start URL's directory are taken (all of them when the crawl starts at the root).
  async function readSitemaps(): Promise<string[]> {
    if (options.maxDepth < 1 || options.maxPages < 2) return [];
    let listed: readonly string[] = [];
    if (options.respectRobots) {
      try {
        listed = (await robotsFor(startUrl!)).sitemaps;
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
  // A continuation whose first call stopped before the sitemaps were merged reads them again (from the cache).
  let sitemapsMerged = resume?.sitemapsMerged ?? false;
  // The sitemap is asked for after the first page of this call: on one host, with PER_DOMAIN_INTERVAL between
  // requests, asking first would hold the start page back by a whole interval — a page a short max_seconds misses.
  const sitemapUrls = sitemapsMerged ? Promise.resolve([]) : firstRequest.then(readSitemaps);
  sitemapUrls.catch(() => undefined); // awaited in commit, or abandoned when the crawl halts first

  // Links as pages spell them, already judged: a site's navigation repeats the same links on every page, and
  // one look-up is cheaper than normalising them again.
  const linksSeen = new Set<string>();

  function enqueue(url: string, depth: number): void {
    if (linksSeen.has(url)) return;
    linksSeen.add(url);
    const normal = normalizedUrl(url);
    if (!normal || seen.has(normal.href)) return;
    const key = normal.href;
    seen.add(key);
    const verdict = judge(normal);
    if (!verdict.inScope) skipped.scope.push({ url: key, reason: verdict.reason });
    else if (depth > options.maxDepth)
      skipped.scope.push({ url: key, reason: `deeper than max_depth ${options.maxDepth}` });
    else frontier.push({ url: key, depth });
  }

  function report(): void {
    processed++;
    const known = frontier.length - head + inFlight.length;
    options.onProgress?.({
      processed,
      pagesRead: pagesRead(),
      tokensUsed,
      maxTokens: options.maxTokens,
      maxPages: options.maxPages,
      frontierSize: frontier.length - head,
      remaining: stopReason ? 0 : Math.max(0, Math.min(known, options.maxPages - pagesRead())),
    });
  }

  async function commit(result: TaskResult): Promise<void> {
    await commitResult(result);
    if (!sitemapsMerged && !stopReason && !halted) {
      // After the start URL's own result, whatever it was (a start page that failed still has a sitemap), and
      // after its links: the pages the site itself links first come first. A halt does not wait for them: the
      // continuation reads them again.
      await Promise.race([sitemapUrls, halt]);
      if (!halted) {
        sitemapsMerged = true;
        for (const url of await sitemapUrls) enqueue(url, 1);
      }
    }
    report();
  }

  async function commitResult(result: TaskResult): Promise<void> {
    const { entry } = result;
    if (result.kind === 'robots') {
      skipped.robots.push({ url: entry.url, reason: result.reason });
      return;
    }
    if (result.kind === 'error') {
      skipped.errors.push({ url: entry.url, code: result.code, message: result.message });
      return;
    }
    const { page } = result;
    const aliases = [entry.url, normalizeUrl(page.finalUrl), result.canonical && normalizeUrl(result.canonical)]
      .filter((key): key is string => Boolean(key))
      .filter((key, index, all) => all.indexOf(key) === index);
    const original = aliases.map((key) => readAs.get(key)).find(Boolean);
    aliases.forEach((key) => seen.add(key)); // a redirect target or canonical URL is not fetched again
    if (original) {
      skipped.duplicates.push({ url: entry.url, reason: `same page as ${original} (canonical or redirect)` });
      return;
    }
    const fitted = await fitSection(
      { index: pagesRead() + 1, title: page.title ?? '', url: page.finalUrl, content: page.content },
      options.maxTokens - tokensUsed,
      options.maxTokens,
    );
    if (!fitted) {
      skipped.budget.push({ url: entry.url, reason: 'did not fit in the tokens left of max_tokens' });
      stopReason = 'max_tokens';
      return;
    }
    aliases.forEach((key) => readAs.set(key, entry.url));
    tokensUsed += fitted.tokens;
    pages.push({
      url: entry.url,
      finalUrl: page.finalUrl,
      title: page.title?.trim() || page.finalUrl,
      depth: entry.depth,
      section: fitted.text,
      tokens: fitted.tokens,
      content: page.content.trim().slice(0, fitted.shownLength),
      isCut: fitted.isCut,
    });
    if (fitted.isCut) stopReason = 'max_tokens';
    else if (pagesRead() >= options.maxPages) stopReason = 'max_pages';
    if (!stopReason) for (const link of result.links) enqueue(link, entry.depth + 1);
  }

  // Visits in frontier order. Up to `concurrency` run at once; a finished one frees its slot at once, even while an
  // earlier one is still running, and results wait (at most LOOKAHEAD of them) to be committed in frontier order.
  const inFlight: Task[] = [];
  // Pages started ahead of their turn. When the frontier has run dry while an earlier page is still being read (a
  // site whose pages link to few others), the links of later pages that have finished are started early; each
  // joins the frontier in its proper order when its page is committed and takes the result already fetched. Pages,
  // order and budget stay those of a one-at-a-time BFS.
  const early = new Map<string, Task>();
  const lookahead = options.concurrency * LOOKAHEAD_FACTOR;

  function start(entry: Entry): Task {
    return settle({ entry, result: visit(entry), done: false, linksLooked: 0 });
  }

  /** A task started early, now at its turn in the frontier: its result, under the frontier's entry. */
  function adopt(task: Task, entry: Entry): Task {
    return settle({ entry, result: task.result.then((result) => ({ ...result, entry })), done: false, linksLooked: 0 });
  }

  function settle(task: Task): Task {
    // Rejections (cancellation) are collected below; this only keeps a not-yet-awaited one from being reported.
    task.result.then(
      (value) => {
        task.done = true;
        task.value = value;
      },
      () => (task.done = true),
    );
    return task;
  }

  const running = (): Task[] => [...inFlight, ...early.values()].filter((task) => !task.done);

  /** The next link of a finished page waiting for its turn that the crawl does not know yet and may follow. */
  function nextEarlyEntry(): Entry | undefined {
    for (const task of inFlight) {
      if (task.value?.kind !== 'page') continue;
      const { links } = task.value;
      while (task.linksLooked < links.length) {
        const link = normalizedUrl(links[task.linksLooked++]!);
        const depth = task.entry.depth + 1;
        if (!link || seen.has(link.href) || early.has(link.href) || depth > options.maxDepth) continue;
        if (judge(link).inScope) return { url: link.href, depth };
      }
    }
    return undefined;
  }

  // Starts what may start: the frontier's next entries in order (an entry started early is taken over without a
  // new slot), then, with the frontier dry and slots free, pages ahead of their turn. Early starts count against
  // max_pages and the look-ahead among themselves only, so they never hold up the frontier.
  function fill(): void {
    for (;;) {
      const entry = frontier[head];
      const ahead = entry && early.get(entry.url);
      if (entry && ahead) {
        head++;
        early.delete(entry.url);
        inFlight.push(adopt(ahead, entry));
        continue;
      }
      if (running().length >= options.concurrency) return;
      if (entry) {
        if (inFlight.length >= lookahead || pagesRead() + inFlight.length >= options.maxPages) return;
        head++;
        inFlight.push(start(entry));
        continue;
      }
      const started = pagesRead() + inFlight.length + early.size;
      if (inFlight.length + early.size >= lookahead || started >= options.maxPages) return;
      const next = nextEarlyEntry();
      if (!next) return;
      early.set(next.url, start(next));
    }
  }

  try {
    while (!stopReason) {
      signal.throwIfAborted();
      // Halted: what has already been fetched at the head is still taken (it costs no more waiting); nothing new
      // starts.
      if (!halted) fill();
      const next = inFlight[0];
      if (next?.done && next.value) {
        inFlight.shift();
        await commit(next.value);
        continue;
      }
      if (next?.done) await next.result; // rejected: cancellation, rethrown here
      if (halted) {
        stopReason = halted;
        break;
      }
      const busy = running();
      if (busy.length === 0) {
        stopReason = 'frontier_empty';
        break;
      }
      // Wait for whichever running visit ends first (its slot is refilled, or the head committed, on the next
      // turn), or for the time limit or a stop.
      await Promise.race([...busy.map((task) => task.result), halt]);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    stopReason = 'cancelled';
  } finally {
    clearTimeout(timer);
    if (onStop) options.stopSignal?.removeEventListener('abort', onStop);
  }
  if (options.signal?.aborted) stopReason = 'cancelled';
  // Whatever is still in flight or waiting was not read because a limit was reached (or the caller cancelled).
  controller.abort();
  let resumeState: CrawlState | undefined;
  if (stopReason === 'time_limit' || stopReason === 'stopped') {
    // Abandoned, not waited on: the caller's time is up. Pages in flight go back to the head of the frontier (in
    // their order) and are read by the continuation; pages started early were never enqueued, so their links
    // find them again.
    const left = [...inFlight.map((task) => task.entry), ...frontier.slice(head)];
    if (left.length > 0 || !sitemapsMerged) {
      resumeState = {
        version: 1,
        scope: scopeOf(options),
        frontier: left,
        seen: [...seen],
        readAs: [...readAs],
        pagesRead: pagesRead(),
        tokensUsed,
        processed,
        sitemapsMerged,
        lastStartByOrigin: Object.fromEntries(lastStartTimes),
      };
    } else {
      stopReason = 'frontier_empty'; // halted with nothing left to do: the crawl is complete
    }
  } else {
    await Promise.allSettled([...inFlight, ...early.values()].map((task) => task.result));
  }
  if (stopReason !== 'cancelled' && !resumeState) {
    const reason = stopReason === 'max_pages' ? `max_pages (${options.maxPages}) reached` : 'max_tokens spent';
    for (const { entry } of inFlight) skipped.budget.push({ url: entry.url, reason });
    for (const entry of frontier.slice(head)) skipped.budget.push({ url: entry.url, reason });
    // Started early, never reached: fetched, so listed.
    for (const url of early.keys()) if (!seen.has(url)) skipped.budget.push({ url, reason });
  }
  return {
    startUrl,
    pages,
    tokensUsed: tokensUsed - earlier.tokens,
    earlier,
    maxTokens: options.maxTokens,
    maxPages: options.maxPages,
    elapsedMs: now() - started,
    timeLimitMs: options.timeLimitMs,
    stopReason: stopReason ?? 'frontier_empty',
    ...(resumeState ? { resume: resumeState } : {}),
    skipped,
  };
}

/** The serialisable part of the options: what a continuation keeps. */
function scopeOf(options: CrawlScope): CrawlScope {
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
  };
}
