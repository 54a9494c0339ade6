// The engine every front door ends up in (MCP, HTTP API, CLI, library): URL → fetched snapshot (guard, cache,
// network) → content kind → what a model reads. I/O comes in through EngineIO so tests and the library can
// replace the network or the worker pool; the defaults are the real ones.
import type { Config } from './config.js';
import { PRODUCT_USER_AGENT } from './config.js';
import { describeBinaryType, sniffContent, type ContentKind } from './formats/sniff.js';
import { renderNonHtml } from './formats/render-non-html.js';
import { ExtractionError, HttpStatusError } from './errors.js';
import type { Article } from './extract/extract-article.js';
import type { ExtractedLinks, LinkTargets } from './extract/links.js';
import type { ExplainEntry } from './extract/trace.js';
import type { ScrapedHtml } from './extract/scrape.js';
import { createFetcher } from './fetch/guarded-fetch.js';
import { cacheKey, createPageCache, type PageCache } from './fetch/page-cache.js';
import { createRequestQueue, type RequestQueue } from './fetch/queue.js';
import type { FetchedPage, FetchOptions, FetchPage } from './fetch/types.js';
import { createRobotsGate } from './fetch/robots-gate.js';
import { parseUrlArgument } from './fetch/url-argument.js';
import { createExtractor, type Extractor } from './workers/extractor.js';
import type { ArticleContent } from './workers/read-body.js';
import type { Outcome } from './outcome.js';
import { cleanText } from './clean-text.js';

export interface LoadOptions {
  readonly signal?: AbortSignal;
  /** Overrides FETCH_TIMEOUT for this call. */
  readonly timeoutMs?: number;
}

export interface ReadOptions extends LoadOptions {
  /** Also list an HTML page's links, from the same parse as its content (the crawler). */
  readonly withLinks?: boolean;
  /**
   * Also return extraction's trace as `explain` (`--explain`). The page cache holds fetched bytes, not extraction
   * results, and every read extracts again: a cached page is explained as fully as a fresh one.
   */
  readonly explain?: boolean;
}

export interface LoadedPage {
  readonly page: FetchedPage;
  readonly fromCache: boolean;
}

export interface PageContent {
  readonly url: string;
  readonly finalUrl: string;
  readonly httpStatus: number;
  readonly mediaType: string;
  readonly kind: ContentKind;
  readonly title: string | undefined;
  /** The decoded body as the server sent it ('' for binary content). */
  readonly raw: string;
  /** What a model reads: Markdown of the main content, pretty JSON, text as is, or a one-line status. */
  readonly content: string;
  /** Main-content extraction found nothing usable; `content` is the raw body (seed fallback). */
  readonly extractionFailed: boolean;
  readonly outcome: Exclude<Outcome, 'error'>;
  readonly fromCache: boolean;
  readonly hiddenBlocksDropped: number;
  readonly byteLength: number;
  readonly fetchedAt: Date;
  /** PDF only: the number of pages in the document. */
  readonly pageCount?: number;
  /** HTML whose declared text/markdown alternate was fetched and used instead of extraction. */
  readonly markdownTwinUrl?: string;
  /** For an outcome other than ok: why, in words the agent reads (an encrypted or image-only PDF). */
  readonly statusDetail?: string;
  /** With `withLinks`, for HTML whose content was extracted: where its visible links lead, and rel=canonical. */
  readonly links?: LinkTargets;
  /**
   * With `explain`, for HTML: each block extraction removed and why, the chosen block and its runners-up, the retry
   * and fallback passes (src/extract/trace.ts); a note instead when a Markdown twin was read or extraction failed.
   * Absent for other kinds, which are not extracted.
   */
  readonly explain?: readonly ExplainEntry[];
}

export interface EngineIO {
  readonly fetchPage?: FetchPage;
  readonly extractor?: Extractor;
  readonly cache?: PageCache;
  readonly queue?: RequestQueue;
}

export interface Engine {
  readonly config: Config;
  /** Fetches through the guard, or returns the cached snapshot; retries a bot wall once with the honest UA. */
  loadPage(url: string, options?: LoadOptions): Promise<LoadedPage>;
  /** loadPage, then turns the body into what a model reads. */
  readPage(url: string, options?: ReadOptions): Promise<PageContent>;
  /** Runs main-content extraction (off the main thread) on HTML the caller already has. */
  extractArticle(html: string, baseUrl: string): Promise<Article>;
  /** Every visible link of HTML the caller already has, resolved, in document order (off the main thread). */
  extractLinks(html: string, baseUrl: string): Promise<ExtractedLinks>;
  /** web_scraper's document: text with `[n]` markers, references, outline, metadata (off the main thread). */
  scrapeHtml(html: string, baseUrl: string): Promise<ScrapedHtml>;
  /** A fetched body decoded by its charset, as the server sent it (off the main thread). */
  decodeText(page: FetchedPage): Promise<string>;
  /** A feed's entry links (off the main thread). */
  extractFeedLinks(xml: string, baseUrl: string): Promise<ExtractedLinks>;
  close(): Promise<void>;
}

/** One network fetch and the callers waiting on it (loadPage). */
interface SharedFetch {
  readonly page: Promise<FetchedPage>;
  readonly controller: AbortController;
  callers: number;
}

// Half the memory budget of a small server: enough for a few hundred typical pages.
const CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** An explanation that is one note, for a read that ran no extraction; nothing when none was asked for. */
function explainNote(options: ReadOptions, reason: string): { explain?: ExplainEntry[] } {
  return options.explain ? { explain: [{ phase: 'fallback', action: 'note', reason }] } : {};
}

/** A bot challenge rather than a real refusal: worth one retry with the honest User-Agent. */
export function isBotChallenge(status: number, headers: Readonly<Record<string, string>>): boolean {
  if (headers['cf-mitigated']?.toLowerCase() === 'challenge') return true;
  return (status === 403 || status === 503) && /challenge|captcha/i.test(headers['server-timing'] ?? '');
}

export function createEngine(config: Config, io: EngineIO = {}): Engine {
  const fetchPage = io.fetchPage ?? createFetcher(config);
  const extractor = io.extractor ?? createExtractor(config);
  const cache = io.cache ?? createPageCache({ ttlSeconds: config.cacheTtlSeconds, maxBytes: CACHE_MAX_BYTES });
  const queue =
    io.queue ??
    createRequestQueue({
      maxConcurrent: config.maxConcurrent,
      perDomainIntervalMs: config.perDomainIntervalMs,
      maxWaitMs: config.queueTimeoutMs,
    });
  // Requests for the same URL that overlap share one network request (see joinSharedFetch).
  const inFlight = new Map<string, SharedFetch>();
  // RESPECT_ROBOTS=always: robots.txt is read through this same loadPage (guard, cache, queue) before any other URL.
  const robots =
    config.respectRobots === 'always'
      ? createRobotsGate(async (robotsUrl, signal) => {
          const { page } = await loadPage(robotsUrl, { signal });
          return extractor.decode(page.body, page.headers['content-type']);
        }, config.cacheTtlSeconds * 1000)
      : undefined;

  // Every request to the network waits its turn (MAX_CONCURRENT, PER_DOMAIN_INTERVAL, at most QUEUE_TIMEOUT);
  // cache hits never queue. The network deadline (FETCH_TIMEOUT) starts when the request leaves the queue.
  function queuedFetch(url: string, options: FetchOptions): Promise<FetchedPage> {
    const timeoutMs = options.timeoutMs ?? config.fetchTimeoutMs;
    const run = (signal: AbortSignal) => fetchPage(url, { ...options, signal, timeoutMs });
    return queue.schedule(url, run, { signal: options.signal, timeoutMs });
  }

  async function fetchWithFallback(url: string, options: LoadOptions): Promise<FetchedPage> {
    try {
      return await queuedFetch(url, options);
    } catch (error) {
      const page = error instanceof HttpStatusError ? error.page : undefined;
      if (!(error instanceof HttpStatusError) || !page || !isBotChallenge(error.status, page.headers)) throw error;
      // SPEC "Honest fallback on bot walls": the browser-like default met a challenge; ask once as ourselves.
      return await queuedFetch(url, { ...options, userAgent: PRODUCT_USER_AGENT });
    }
  }

  async function loadPage(url: string, options: LoadOptions = {}): Promise<LoadedPage> {
    const key = cacheKey(parseUrlArgument(url).href);
    await robots?.check(key, options.signal);
    const cached = cache.get(key);
    if (cached) return { page: cached, fromCache: true };
    options.signal?.throwIfAborted();
    let shared = inFlight.get(key);
    if (!shared) {
      // The first caller's deadline applies to the shared fetch; its cancellation is the callers' together.
      const controller = new AbortController();
      const page = fetchWithFallback(key, { ...options, signal: controller.signal })
        .then((fetched) => {
          cache.set(key, fetched);
          return fetched;
        })
        .finally(() => {
          if (inFlight.get(key) === entry) inFlight.delete(key);
        });
      const entry: SharedFetch = { page, controller, callers: 0 };
      shared = entry;
      inFlight.set(key, entry);
    }
    return { page: await joinSharedFetch(key, shared, options.signal), fromCache: false };
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

  // Output hygiene at the source (src/clean-text.ts): every reader's text is clean before a tool counts its tokens,
  // cuts it at max_length or continues it at start_index, so the numbers an agent sees match the text it gets.
  // Markdown and text the page wrote itself keep their words, but links to other schemes than http, https and mailto
  // are made literal (src/render/disarm-markdown.ts); extracted Markdown never has them (src/link-target.ts).
  async function readPage(url: string, options: ReadOptions = {}): Promise<PageContent> {
    const { page, fromCache } = await loadPage(url, options);
    const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
    const base = {
      url,
      finalUrl: page.finalUrl,
      httpStatus: page.status,
      mediaType: page.mediaType,
      kind,
      fromCache,
      byteLength: page.body.byteLength,
      fetchedAt: page.fetchedAt,
    };
    if (kind === 'pdf') {
      const pdf = await extractor.readPdf(page.body);
      return {
        ...base,
        title: pdf.title,
        raw: '',
        content: pdf.content,
        extractionFailed: false,
        outcome: pdf.outcome,
        hiddenBlocksDropped: 0,
        pageCount: pdf.pageCount,
        statusDetail: pdf.statusDetail,
      };
    }
    if (kind === 'binary') {
      const type = describeBinaryType(page.mediaType, page.body);
      const content = renderNonHtml({ kind, mediaType: type, text: '', byteLength: page.body.byteLength });
      return {
        ...base,
        title: undefined,
        raw: '',
        content: cleanText(content),
        extractionFailed: false,
        outcome: 'not_html',
        hiddenBlocksDropped: 0,
      };
    }
    const contentType = page.headers['content-type'];
    // From here on the worker pool decodes, renders and cleans (src/workers/read-body.ts): on a body of megabytes
    // that is hundreds of milliseconds the event loop would otherwise be held. What comes back is already clean.
    if (kind !== 'html') {
      const body = await extractor.readText({
        bytes: page.body,
        contentType,
        kind,
        mediaType: page.mediaType,
        finalUrl: page.finalUrl,
      });
      return {
        ...base,
        title: body.title,
        raw: body.raw,
        content: body.content ?? body.raw,
        extractionFailed: false,
        outcome: body.empty ? 'empty' : 'ok',
        hiddenBlocksDropped: 0,
      };
    }
    const html = await extractor.readHtml({ bytes: page.body, contentType, finalUrl: page.finalUrl });
    const raw = html.raw;
    const twin = html.twinUrl === undefined ? undefined : await readMarkdownTwin(html.twinUrl, options);
    if (twin) {
      return {
        ...base,
        title: html.title,
        raw,
        content: twin.content,
        extractionFailed: false,
        outcome: 'ok',
        hiddenBlocksDropped: 0,
        markdownTwinUrl: twin.url,
        ...explainNote(options, 'the page declares a Markdown version, which was read instead: no extraction ran'),
      };
    }
    let article: ArticleContent | undefined;
    try {
      const input = {
        bytes: page.body,
        contentType,
        baseUrl: page.finalUrl,
        withLinks: options.withLinks,
        explain: options.explain,
      };
      article = await extractor.readArticle(input);
    } catch (error) {
      // A page that defeats the extractor (time limit, parser crash) still gets the seed's raw fallback.
      if (!(error instanceof ExtractionError)) throw error;
    }
    // Only a finished extraction can say a page is empty: one that failed says so, with the raw body.
    if (article?.emptyOutcome) {
      return {
        ...base,
        title: article.title,
        raw,
        content: '',
        extractionFailed: false,
        outcome: article.emptyOutcome,
        hiddenBlocksDropped: article.hiddenBlocksDropped,
        ...(article.explain ? { explain: article.explain } : {}),
      };
    }
    const extractionFailed = article?.content === undefined;
    return {
      ...base,
      title: article?.title,
      raw,
      content: article?.content ?? raw,
      extractionFailed,
      outcome: 'ok',
      hiddenBlocksDropped: article?.hiddenBlocksDropped ?? 0,
      ...(article?.links ? { links: article.links } : {}),
      ...(article?.explain
        ? { explain: article.explain }
        : explainNote(options, 'extraction did not finish (time limit or parser failure): the raw body is returned')),
    };
  }

  // SPEC "Ask for Markdown first": the page's own Markdown twin, fetched through the same guard, cache and
  // queue. Any failure (refused address, 404, HTML instead of Markdown) falls back to extracting the HTML.
  async function readMarkdownTwin(
    url: string,
    options: LoadOptions,
  ): Promise<{ url: string; content: string } | undefined> {
    try {
      const { page } = await loadPage(url, options);
      const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
      if (kind !== 'markdown' && kind !== 'text') return undefined;
      const input = { bytes: page.body, contentType: page.headers['content-type'], twinUrl: page.finalUrl };
      const content = await extractor.readTwin(input);
      return content === undefined ? undefined : { url: page.finalUrl, content };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return undefined; // the twin is a bonus: the HTML page itself is still there to read
    }
  }

  return {
    config,
    loadPage,
    readPage,
    extractArticle: (html, baseUrl) => extractor.extract(html, baseUrl),
    extractLinks: (html, baseUrl) => extractor.links(html, baseUrl),
    scrapeHtml: (html, baseUrl) => extractor.scrape(html, baseUrl),
    decodeText: (page) => extractor.decode(page.body, page.headers['content-type']),
    extractFeedLinks: (xml, baseUrl) => extractor.feedLinks(xml, baseUrl),
    close: () => extractor.close(),
  };
}
