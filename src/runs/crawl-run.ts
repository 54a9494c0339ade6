// The crawl run: a crawl (src/crawl/crawl-site.ts) bound to the engine (fetch, extraction, cache, queue, SSRF guard)
// and to where stopped crawls wait (crawl-resume.ts), with the notes its report adds. Shared by the crawl tool
// (src/tools/crawl-tool.ts: its arguments and its presentation) and the CLI's crawl (src/cli/crawl-command.ts:
// pages to files), which both hand it a CrawlRequest in the engine's terms, not the tool's arguments.
import type { CrawlResult } from '../crawl/commit.js';
import type { CrawlIO } from '../crawl/crawl-io.js';
import type { CrawlOptions, CrawlProgress } from '../crawl/crawl-site.js';
import type { CrawlState } from '../crawl/frontier.js';
import type { ResumeStore, RunningCrawl } from '../crawl/resume-store.js';
import { parseAllowedDomains } from '../crawl/url-scope.js';
import type { Engine } from '../engine/engine.js';
import type { ReadOptions } from '../engine/page-content.js';
import { InvalidArgumentError } from '../errors.js';
import { bindCredentials } from '../fetch/credentials.js';
import { parseUrlArgument } from '../fetch/url-argument.js';
import { CRAWL_SUMMARY_TOKENS } from '../output/crawl-report.js';
import { crawlBudgetLowered, crawlLandedNote, CRAWL_URL_MISSING, selectorMatchedNothing } from '../output/notices.js';
import { capLimit } from '../output/truncate.js';
import { statusLine } from '../output/page-text.js';
import { pageBody } from '../output/answer-text.js';
import { handOutResumeId, resumeStoreFor, takeResumeState } from './crawl-resume.js';
import { loadRobots, loadSitemap } from './site-files.js';

/** A crawl in the engine's terms: what the crawl tool's arguments and the CLI's crawl flags both become. */
export interface CrawlRequest {
  /** Where to start (http or https); absent with `continueFrom`. */
  readonly url?: string;
  /** The id a stopped crawl gave: the crawl keeps its URL, scope and budgets. */
  readonly continueFrom?: string;
  /** The token budget of all pages together; DEFAULT_MAX_TOKENS when absent, lowered to MAX_OUTPUT_TOKENS. */
  readonly maxTokens?: number;
  readonly maxPages: number;
  readonly maxDepth: number;
  /** This call's time limit; the crawl stops with what it has read and a continue_from id. */
  readonly maxSeconds: number;
  /** Domains the crawl may visit, sub-domains included; absent: the start URL's host, or where it redirects. */
  readonly allowedDomains?: string[];
  readonly patterns: string[];
  readonly excludePatterns: string[];
  /** How each page is read (render, wait_for, max_age, selectors): this call's, never resumed. */
  readonly reading: Omit<ReadOptions, 'credentials'>;
  /** `headers`: this call's, never resumed; bound to the crawl's start URL's origin (src/fetch/credentials.ts). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The crawler's I/O, bound to the engine: the same fetch, extraction, link extraction, cache and queue as every tool. */
export function engineCrawlIO(engine: Engine, options: ReadOptions = {}): CrawlIO {
  return {
    // Each page by the same render rule as fetch (src/engine/render-step.ts): a script-built page is read, and its
    // links followed, from its rendered DOM. `credentials` are bound to the start URL's origin (runCrawl): the
    // crawl's other hosts (allowed_domains) never see them (src/fetch/guarded-fetch.ts).
    async readPage(url, signal) {
      const page = await engine.readPage(url, {
        ...options,
        signal,
        withLinks: true,
        userAgent: engine.config.crawlerUserAgent, // by its own name (site-files.ts), rendered or not
      });
      return {
        finalUrl: page.finalUrl,
        title: page.title,
        // A selector that matched nothing on this page says so in its place; the crawl still follows its links.
        // With a query, the passages that answer it, under headings below the page's own (level 2).
        content:
          page.selectorMatched === 0 ? selectorMatchedNothing(page.finalUrl, options.selector) : pageBody(page, 3),
        rendered: page.rendered,
        ...(page.kind === 'html' && page.raw !== '' ? { html: page.raw } : {}),
        ...(page.links ? { links: page.links } : {}),
        ...(page.outcome !== 'ok'
          ? { unreadable: { code: page.outcome.toUpperCase(), message: statusLine(page) } }
          : {}),
      };
    },
    // Only for a page whose reading gave no links (its extraction did not finish): its links alone, from the
    // snapshot just read (the page cache), through the same reading path.
    async extractLinks(_html, baseUrl) {
      const { credentials, maxAgeSeconds } = options;
      const userAgent = engine.config.crawlerUserAgent;
      const reading = { credentials, maxAgeSeconds, want: 'links', render: 'never', userAgent } as const;
      const page = await engine.readPage(baseUrl, reading);
      const found = page.linkList;
      const urls = [...new Set((found?.links ?? []).map((link) => link.url))];
      return { urls, ...(found?.canonicalUrl ? { canonicalUrl: found.canonicalUrl } : {}) };
    },
    // RFC 9309 §2.3.1: robots.txt through the same guard, cache and queue as every page; sitemaps gzipped or not.
    loadRobots: (url, signal) => loadRobots(engine, url, signal),
    loadSitemap: (url, signal) => loadSitemap(engine, url, signal),
  };
}

export interface CrawlRun {
  readonly result: CrawlResult;
  /** What the summary adds (a budget lowered to fit MAX_OUTPUT_TOKENS). */
  readonly notes: string[];
  /** The id that continues the crawl, when it stopped at its time limit or a graceful stop with work left. */
  readonly continueFrom?: string;
}

export interface RunCrawlOptions {
  /** Cancellation: the caller is gone. */
  readonly signal?: AbortSignal;
  /** A graceful stop (server shutdown): the crawl returns what it has, with a continue_from id. */
  readonly stopSignal?: AbortSignal;
  readonly onProgress?: (progress: CrawlProgress) => void;
  /** A URL's visit begins (the CLI's progress line says what is being read). */
  readonly onVisit?: (url: string) => void;
  /**
   * Where stopped crawls wait to be continued: the composition root's (src/shared-state/, in memory or on Redis), or
   * the CLI's files; by default one store in memory per engine.
   */
  readonly resumeStore?: ResumeStore;
  /**
   * The crawl's continue_from id from its start, with a store that checkpoints crawls as they run (REDIS_URL): if
   * this call is lost with its replica, the id continues the crawl from its last committed page.
   */
  readonly onRunning?: (id: string) => void;
  /** Overrides the engine's crawl I/O (tests). */
  readonly io?: CrawlIO;
}

/** A crawl → its run; shared by the crawl tool and the CLI (which writes pages to files). */
export async function runCrawl(
  engine: Engine,
  request: CrawlRequest,
  options: RunCrawlOptions = {},
): Promise<CrawlRun> {
  const { config } = engine;
  const store = options.resumeStore ?? resumeStoreFor(engine);
  const runtime = {
    signal: options.signal,
    stopSignal: options.stopSignal,
    timeLimitMs: request.maxSeconds * 1000,
    onProgress: options.onProgress,
    onVisit: options.onVisit,
  };
  // render, wait_for, max_age and headers apply to this call, like max_seconds; a continuation is given them anew
  // (a resume state never keeps a caller's credentials).
  // `headers` are bound to the crawl's start URL (its own on continue_from), and to no other origin.
  const reading = (startUrl: string) => {
    const credentials = bindCredentials(startUrl, request.headers);
    return { ...request.reading, ...(credentials && { credentials }) };
  };
  const ioFor = (startUrl: string) => options.io ?? engineCrawlIO(engine, reading(startUrl));
  let result: CrawlResult;
  const notes: string[] = [];
  let budgetLowered: { readonly said: boolean; readonly note: string } | undefined;
  // The crawler loads with the first crawl, not with the server (start-up: npm run bench:start).
  const { crawlSite } = await import('../crawl/crawl-site.js');
  // With a store that checkpoints crawls, the crawl has its id from the start (docs/scale-out.md "Crawls").
  let running: RunningCrawl | undefined;
  // A continued crawl keeps its id (one crawl, one id): what this call took, to write back under it.
  let continued: { readonly id: string; readonly taken: CrawlState } | undefined;
  const crawlWith = async (crawlOptions: CrawlOptions): Promise<CrawlResult> => {
    try {
      if (running) options.onRunning?.(running.id);
      const checkpoint = running && { checkpoint: running.checkpoint };
      return await crawlSite({ ...crawlOptions, ...checkpoint }, ioFor(crawlOptions.url));
    } catch (error) {
      // Its last checkpoint stays, or the state this call took is kept again: the id still continues it.
      if (running) await running.release();
      else if (continued) await store.save(continued.taken, continued.id);
      throw error;
    }
  };
  if (request.continueFrom !== undefined) {
    const id = request.continueFrom.trim();
    // Held for this call's time limit and a little more (its last page, its answer).
    const holdMs = (request.maxSeconds + 30) * 1000;
    const taken = await takeResumeState(store, id, config.crawlResumeTtlSeconds, holdMs);
    running = taken.running;
    const resume = taken.state;
    continued = { id, taken: resume };
    result = await crawlWith({ ...resume.scope, ...runtime, resume });
  } else {
    if (request.url === undefined) {
      throw new InvalidArgumentError('url', CRAWL_URL_MISSING);
    }
    const start = parseUrlArgument(request.url);
    const requested = request.maxTokens ?? config.defaultMaxTokens;
    const cap = config.maxOutputTokens;
    // SPEC "Context-safe by default": MAX_OUTPUT_TOKENS caps a result unless the caller's own limit is smaller, and
    // the summary counts inside it (src/output/crawl-report.ts).
    const maxTokens = capLimit(requested, cap, CRAWL_SUMMARY_TOKENS);
    // Said when the caller's own max_tokens was lowered, or when the lowered default is what stopped the crawl (the
    // agent learns that asking for more will not help in one call). A note on every default crawl would be noise.
    if (maxTokens < requested) {
      budgetLowered = { said: request.maxTokens !== undefined, note: crawlBudgetLowered(requested, maxTokens, cap) };
    }
    const scope = {
      url: start.href,
      maxTokens,
      maxPages: request.maxPages,
      maxDepth: request.maxDepth,
      allowedDomains: parseAllowedDomains(request.allowedDomains ?? [start.hostname]),
      // The start host by default, so where a redirecting start URL lands instead (crawl-site.ts).
      followStartRedirect: request.allowedDomains === undefined,
      patterns: request.patterns,
      excludePatterns: request.excludePatterns,
      respectRobots: config.respectRobots !== 'never',
      concurrency: config.maxConcurrent,
    };
    running = await store.checkpoints?.begin();
    result = await crawlWith({ ...scope, ...runtime });
  }
  if (budgetLowered && (budgetLowered.said || result.stopReason === 'max_tokens')) notes.unshift(budgetLowered.note);
  if (result.landedUrl !== undefined) notes.push(crawlLandedNote(result.startUrl, result.landedUrl));
  const { continueFrom, note } = await handOutResumeId(store, running, result, continued);
  if (note !== undefined) notes.push(note);
  return { result, notes, ...(continueFrom !== undefined && { continueFrom }) };
}
