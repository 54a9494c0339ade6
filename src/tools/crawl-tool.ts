// The `crawl` tool of seeds/url-reader-architecture.md: breadth-first from a URL, within an exact token budget
// (SPEC "Crawl budgets that hold exactly"), polite (robots.txt with Crawl-delay, the shared queue), observable
// (notifications/progress after every page), cancellable, and done in time: it stops at max_seconds with what it
// has read and a continue_from id that resumes it. src/crawl/crawl-site.ts is the crawler; this file binds it to the
// engine (fetch, extraction, cache, queue, SSRF guard) and renders the result.
import { z } from 'zod';
import type { CrawlResult } from '../crawl/commit.js';
import type { CrawlIO } from '../crawl/crawl-io.js';
import type { CrawlOptions, CrawlProgress } from '../crawl/crawl-site.js';
import type { ResumeStore, RunningCrawl } from '../crawl/resume-store.js';
import { crawlIdNote, handOutResumeId, resumeStoreFor, takeResumeState } from './crawl-resume.js';
import { parseAllowedDomains } from '../crawl/url-scope.js';
import type { Engine } from '../engine/engine.js';
import { parseUrlArgument } from '../fetch/url-argument.js';
import { InvalidArgumentError } from '../errors.js';
import { renderCrawl } from '../output/crawl-report.js';
import { crawlContinueLine, crawlLandedNote, selectorMatchedNothing } from '../output/notices.js';
import { boundedString, integerBetween, patternList, stringList, urlArgument } from './arguments.js';
import { renderOptions, renderShape } from './render-arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { selectOptions, selectShape } from './select-arguments.js';
import type { ReadOptions } from '../engine/page-content.js';
import { loadRobots, loadSitemap } from './site-files.js';
import { statusLine } from '../output/page-text.js';
import { READ_ONLY_WEB, type ToolDefinition, type ToolOutput, type ToolProgress } from './types.js';

/** Entries per skipped list in structuredContent; the counts are always complete. */
export const STRUCTURED_LIST_LIMIT = 1000;

/**
 * max_seconds by default: below the 60 s request timeout of the MCP TypeScript SDK client
 * (DEFAULT_REQUEST_TIMEOUT_MSEC) that many clients keep, with room for the result to travel.
 */
export const DEFAULT_MAX_SECONDS = 45;
export const MAX_MAX_SECONDS = 3600;

const inputShape = {
  url: urlArgument('URL to start crawling from (http or https); not needed with continue_from').optional(),
  // No static default: DEFAULT_MAX_TOKENS is configuration, resolved when the tool runs.
  max_tokens: integerBetween('max_tokens', 1, 10_000_000)
    .optional()
    .describe(
      'Token budget for all pages together (default DEFAULT_MAX_TOKENS, 100000, lowered to MAX_OUTPUT_TOKENS when that is smaller). Never exceeded: the page that does not fit is cut with a notice',
    ),
  allowed_domains: stringList('allowed_domains')
    .optional()
    .describe(
      "Domains the crawl may visit, sub-domains included (default: the start URL's host, or the host it redirects to)",
    ),
  patterns: patternList('patterns')
    .default([])
    .describe(
      "Only follow URLs whose path matches one of these: globs ('/docs/**', '/blog/*/2024-*'; * stays within a path segment, ** crosses them), or 're:' + a regular expression searched in path and query (RE2 syntax: no backreferences or lookarounds). At most 100 entries of 500 characters; a URL whose path and query pass 2048 characters is not followed",
    ),
  exclude_patterns: patternList('exclude_patterns')
    .default([])
    .describe('Never follow URLs matching one of these (same syntax and limits as patterns)'),
  max_pages: integerBetween('max_pages', 1, 10000).default(100).describe('Maximum number of pages to read'),
  max_depth: integerBetween('max_depth', 0, 100)
    .default(5)
    .describe('Maximum link distance from the start URL (0 reads the start page only)'),
  max_seconds: integerBetween('max_seconds', 1, MAX_MAX_SECONDS)
    .default(DEFAULT_MAX_SECONDS)
    .describe(
      'Stop after this many seconds with the pages read so far and a continue_from id (default 45, below the 60 s most MCP clients wait)',
    ),
  continue_from: boundedString('continue_from', 'the id a stopped crawl gave', 100)
    .optional()
    .describe(
      'Continue a crawl that stopped at its time limit: the id its result gave. The crawl keeps its URL, scope and budgets (max_tokens and max_pages count every page of the crawl); only max_seconds, render and wait_for apply anew',
    ),
  ...renderShape,
  ...requestShape,
  // Like render and wait_for, these apply to the call that gives them: a continuation gives them again.
  ...selectShape,
};

export type CrawlArguments = z.infer<z.ZodObject<typeof inputShape>>;

const skippedShape = z.array(z.object({ url: z.string(), reason: z.string() }));

const outputShape = {
  status: z
    .enum(['ok', 'robots_denied', 'error'])
    .describe('ok: pages were read; robots_denied: robots.txt refuses the start URL; error: nothing could be read'),
  truncated: z
    .boolean()
    .describe('A limit stopped the crawl before everything in scope was read (see stop_reason and continue_from)'),
  url: z.string().describe('The start URL, normalised'),
  pages: z.array(
    z.object({
      url: z.string(),
      final_url: z.string(),
      title: z.string(),
      depth: z.number().int(),
      tokens: z.number().int().describe("Tokens of the page's section in the Markdown, notice included"),
      cut: z.boolean().describe('The page was cut to fit the budget'),
      rendered: z.boolean().describe("Read from a headless browser's DOM after the page's scripts ran"),
      content: z.string(),
    }),
  ),
  pages_read: z.number().int(),
  tokens_used: z.number().int(),
  max_tokens: z.number().int().describe('The budget applied'),
  max_pages: z.number().int(),
  elapsed_ms: z.number().int(),
  total_pages_read: z.number().int().describe('Pages read by this crawl, the calls it continues included'),
  total_tokens_used: z.number().int().describe('Tokens used by this crawl, the calls it continues included'),
  max_seconds: z.number().int().describe('The time limit applied to this call'),
  stop_reason: z
    .enum(['frontier_empty', 'max_pages', 'max_tokens', 'time_limit', 'stopped', 'cancelled'])
    .describe(
      'frontier_empty: nothing was left to visit (with status error or robots_denied: not even the start page could be read)',
    ),
  continue_from: z
    .string()
    .optional()
    .describe('Present when the crawl stopped at its time limit or a server stop: call crawl with continue_from'),
  skipped: z.object({
    robots: skippedShape,
    scope: skippedShape,
    budget: skippedShape,
    errors: z.array(z.object({ url: z.string(), code: z.string(), message: z.string() })),
    duplicates: skippedShape,
  }),
  skipped_counts: z.object({
    robots: z.number().int(),
    scope: z.number().int(),
    budget: z.number().int(),
    errors: z.number().int(),
    duplicates: z.number().int(),
  }),
  notes: z.array(z.string()),
};

export type CrawlToolResult = z.infer<z.ZodObject<typeof outputShape>>;

/** The crawler's I/O, bound to the engine: the same fetch, extraction, link extraction, cache and queue as every tool. */
export function engineCrawlIO(engine: Engine, options: ReadOptions = {}): CrawlIO {
  return {
    // Each page by the same render rule as fetch (src/engine/render-step.ts): a script-built page is read, and its
    // links followed, from its rendered DOM. `credentials` are bound to the start URL's origin (request-arguments.ts):
    // the crawl's other hosts (allowed_domains) never see them (src/fetch/guarded-fetch.ts).
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
        content: page.selectorMatched === 0 ? selectorMatchedNothing(page.finalUrl) : page.content,
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
  /** What the summary adds (a budget lowered to MAX_OUTPUT_TOKENS). */
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
   * Where stopped crawls wait to be continued; by default the one shared by replicas (REDIS_URL), else the engine's
   * in-memory store.
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

/** Validated arguments → the crawl; shared by the tool and the CLI (which writes pages to files). */
export async function runCrawl(engine: Engine, args: CrawlArguments, options: RunCrawlOptions = {}): Promise<CrawlRun> {
  const { config } = engine;
  const store = options.resumeStore ?? (await engine.sharedResumeStore()) ?? resumeStoreFor(engine);
  const runtime = {
    signal: options.signal,
    stopSignal: options.stopSignal,
    timeLimitMs: args.max_seconds * 1000,
    onProgress: options.onProgress,
    onVisit: options.onVisit,
  };
  // render, wait_for, max_age and headers apply to this call, like max_seconds; a continuation is given them anew
  // (a resume state never keeps a caller's credentials).
  const reading = (startUrl: string) => ({
    ...renderOptions(args),
    ...requestOptions(args, startUrl),
    ...selectOptions(args),
  });
  const ioFor = (startUrl: string) => options.io ?? engineCrawlIO(engine, reading(startUrl));
  let result: CrawlResult;
  const notes: string[] = [];
  // The crawler loads with the first crawl, not with the server (start-up: npm run bench:start).
  const { crawlSite } = await import('../crawl/crawl-site.js');
  // With a store that checkpoints crawls, the crawl has its id from the start (docs/scale-out.md "Crawls").
  let running: RunningCrawl | undefined;
  const crawlWith = async (crawlOptions: CrawlOptions): Promise<CrawlResult> => {
    try {
      if (running) options.onRunning?.(running.id);
      const checkpoint = running && { checkpoint: running.checkpoint };
      return await crawlSite({ ...crawlOptions, ...checkpoint }, ioFor(crawlOptions.url));
    } catch (error) {
      await running?.release(); // its last checkpoint stays: the id still continues it
      throw error;
    }
  };
  if (args.continue_from !== undefined) {
    const taken = await takeResumeState(store, args.continue_from, config.crawlResumeTtlSeconds);
    running = taken.running;
    const resume = taken.state;
    result = await crawlWith({ ...resume.scope, ...runtime, resume });
  } else {
    if (args.url === undefined) {
      throw new InvalidArgumentError(
        'url',
        'Invalid arguments for tool crawl: url is missing. Give url (where to start) for a new crawl, or ' +
          'continue_from (the id a stopped crawl gave) to continue one.',
      );
    }
    const start = parseUrlArgument(args.url);
    const requested = args.max_tokens ?? config.defaultMaxTokens;
    const cap = config.maxOutputTokens;
    // SPEC "Context-safe by default": MAX_OUTPUT_TOKENS caps a result unless the caller's own limit is smaller.
    const maxTokens = cap > 0 && requested > cap ? cap : requested;
    if (maxTokens < requested) {
      notes.push(`max_tokens ${requested} was lowered to MAX_OUTPUT_TOKENS (${cap}), the server's cap on one result`);
    }
    const scope = {
      url: start.href,
      maxTokens,
      maxPages: args.max_pages,
      maxDepth: args.max_depth,
      allowedDomains: parseAllowedDomains(args.allowed_domains ?? [start.hostname]),
      // The start host by default, so where a redirecting start URL lands instead (crawl-site.ts).
      followStartRedirect: args.allowed_domains === undefined,
      patterns: args.patterns,
      excludePatterns: args.exclude_patterns,
      respectRobots: config.respectRobots !== 'never',
      concurrency: config.maxConcurrent,
    };
    running = await store.checkpoints?.begin();
    result = await crawlWith({ ...scope, ...runtime });
  }
  if (result.landedUrl !== undefined) notes.push(crawlLandedNote(result.startUrl, result.landedUrl));
  const { continueFrom, note } = await handOutResumeId(store, running, result);
  if (note !== undefined) notes.push(note);
  return { result, notes, ...(continueFrom !== undefined && { continueFrom }) };
}

export function crawlStatus(result: CrawlResult): CrawlToolResult['status'] {
  // Stopped in time before the first page, with a continuation ready: nothing failed, the rest is one call away.
  if (result.pages.length === 0 && !result.resume) {
    return result.skipped.robots.some((entry) => entry.url === result.startUrl) ? 'robots_denied' : 'error';
  }
  return 'ok';
}

/** A limit (budget, pages, time, a stop) ended the crawl before everything in scope was read. */
export function crawlTruncated(result: CrawlResult): boolean {
  return result.resume !== undefined || result.stopReason !== 'frontier_empty';
}

export function crawlToolResult({ result, notes, continueFrom }: CrawlRun): CrawlToolResult {
  const { skipped } = result;
  const cap = <T>(entries: readonly T[]) => entries.slice(0, STRUCTURED_LIST_LIMIT);
  return {
    status: crawlStatus(result),
    truncated: crawlTruncated(result),
    url: result.startUrl,
    pages: result.pages.map((page) => ({
      url: page.url,
      final_url: page.finalUrl,
      title: page.title,
      depth: page.depth,
      tokens: page.tokens,
      cut: page.isCut,
      rendered: page.rendered,
      content: page.content,
    })),
    pages_read: result.pages.length,
    tokens_used: result.tokensUsed,
    max_tokens: result.maxTokens,
    max_pages: result.maxPages,
    total_pages_read: result.earlier.pages + result.pages.length,
    total_tokens_used: result.earlier.tokens + result.tokensUsed,
    elapsed_ms: Math.round(result.elapsedMs),
    max_seconds: Math.round((result.timeLimitMs ?? 0) / 1000),
    stop_reason: result.stopReason,
    ...(continueFrom ? { continue_from: continueFrom } : {}),
    skipped: {
      robots: cap(skipped.robots),
      scope: cap(skipped.scope),
      budget: cap(skipped.budget),
      errors: cap(skipped.errors),
      duplicates: cap(skipped.duplicates),
    },
    skipped_counts: {
      robots: skipped.robots.length,
      scope: skipped.scope.length,
      budget: skipped.budget.length,
      errors: skipped.errors.length,
      duplicates: skipped.duplicates.length,
    },
    notes,
  };
}

/**
 * The MCP progress of a crawl. `progress` is the URLs finished (it must rise with every notification, MCP
 * "Progress"); `total` adds the URLs the crawl still expects, capped by what max_pages allows. max_pages alone is
 * no total a bar can use: most crawls end sooner (the site or the token budget runs out) and failed URLs count
 * as finished but not as pages. The bar can move back when a page adds many links, and reaches the end when the
 * crawl does (a crawl stopped at its time limit ends short of it: the rest is for its continuation).
 */
export function toolProgress(progress: CrawlProgress, crawlId?: string): ToolProgress {
  return {
    progress: progress.processed,
    total: progress.processed + progress.remaining,
    message: progressMessage(progress) + (crawlId === undefined ? '' : crawlIdNote(crawlId)),
  };
}

export function progressMessage(progress: CrawlProgress): string {
  return (
    `${progress.pagesRead} pages read, ${progress.tokensUsed} of ${progress.maxTokens} tokens, ` +
    `${progress.frontierSize} URLs in the frontier`
  );
}

export const crawlTool: ToolDefinition<typeof inputShape> = {
  name: 'crawl',
  title: 'Crawl a site section within a token budget',
  description:
    'Read a website breadth-first from a URL and return each page as Markdown (title, URL, content) within a token ' +
    'budget that is never exceeded, followed by a summary: pages read, tokens used, and the URLs skipped for ' +
    'robots.txt, scope, budget or errors. Stays on the start URL host (or the host it redirects to) unless ' +
    'allowed_domains says otherwise; ' +
    'patterns and exclude_patterns narrow it by path. Returns within max_seconds (default 45) with what it has ' +
    'read; if pages are left, the result gives a continue_from id: call crawl again with just continue_from to read ' +
    'the rest (no page twice, the same budgets).',
  tags: ['web', 'crawl', 'markdown'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Crawl a site section within a token budget' },
  async run(args, { engine, signal, stopSignal, onProgress, onContinueFrom }): Promise<ToolOutput> {
    let crawlId: string | undefined;
    const run = await runCrawl(engine, args, {
      signal,
      stopSignal,
      onProgress: onProgress ? (progress) => onProgress(toolProgress(progress, crawlId)) : undefined,
      // Told at once, before the first page: a replica may die before it reads one.
      onRunning: (id) => {
        crawlId = id;
        onProgress?.({ progress: 0, message: `crawl started${crawlIdNote(id)}` });
        onContinueFrom?.(id);
      },
    });
    return {
      text: renderCrawl(run.result, run.notes, run.continueFrom && crawlContinueLine(run.continueFrom)),
      structured: crawlToolResult(run),
      // Nothing read yet but a continuation ready (a slow start page at the time limit) is not a failure.
      ...(run.result.pages.length === 0 && !run.continueFrom ? { isError: true } : {}),
    };
  },
};
