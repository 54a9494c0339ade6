// The `crawl` tool of seeds/url-reader-architecture.md: breadth-first from a URL, within an exact token budget
// (SPEC "Crawl budgets that hold exactly"), polite (robots.txt with Crawl-delay, the shared queue), observable
// (notifications/progress after every page) and cancellable. src/crawl/bfs.ts is the crawler; this file binds it
// to the engine (fetch, extraction, cache, queue, SSRF guard) and renders the result.
import { z } from 'zod';
import { crawlSite, type CrawlIO, type CrawlProgress, type CrawlResult } from '../crawl/bfs.js';
import { parseAllowedDomains } from '../crawl/url-scope.js';
import { parseSitemap } from '../crawl/sitemap.js';
import { parseUrlArgument, type Engine, type Outcome } from '../engine.js';
import { errorMessage, HttpStatusError, SecurityError } from '../errors.js';
import { ALLOW_ALL, disallowAll, parseRobots, robotsUrlFor, type RobotsRules } from '../fetch/robots.js';
import { renderCrawl } from '../render/crawl-report.js';
import { urlArgument } from './arguments.js';
import { loadDocument } from './load-document.js';
import { statusLine } from './page-output.js';
import { READ_ONLY_WEB, type ToolDefinition, type ToolOutput } from './types.js';

/** Entries per skipped list in structuredContent; the counts are always complete. */
export const STRUCTURED_LIST_LIMIT = 1000;

const integerArgument = (name: string, min: number, max: number) => {
  const message = `${name} must be an integer between ${min} and ${max}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

const stringList = (name: string) =>
  z.array(
    z.string({ error: `${name} must be a list of strings` }).min(1, { error: `${name} entries must not be empty` }),
    {
      error: `${name} must be a list of strings`,
    },
  );

const inputShape = {
  url: urlArgument('URL to start crawling from (http or https)'),
  // No static default: DEFAULT_MAX_TOKENS is configuration, resolved when the tool runs.
  max_tokens: integerArgument('max_tokens', 1, 10_000_000)
    .optional()
    .describe(
      'Token budget for all pages together (default DEFAULT_MAX_TOKENS, 100000, lowered to MAX_OUTPUT_TOKENS when that is smaller). Never exceeded: the page that does not fit is cut with a notice',
    ),
  allowed_domains: stringList('allowed_domains')
    .optional()
    .describe("Domains the crawl may visit, sub-domains included (default: the start URL's host)"),
  patterns: stringList('patterns')
    .default([])
    .describe(
      "Only follow URLs whose path matches one of these: globs ('/docs/**', '/blog/*/2024-*'; * stays within a path segment, ** crosses them), or 're:' + a regular expression searched in path and query",
    ),
  exclude_patterns: stringList('exclude_patterns')
    .default([])
    .describe('Never follow URLs matching one of these (same syntax as patterns)'),
  max_pages: integerArgument('max_pages', 1, 10000).default(100).describe('Maximum number of pages to read'),
  max_depth: integerArgument('max_depth', 0, 100)
    .default(5)
    .describe('Maximum link distance from the start URL (0 reads the start page only)'),
};

export type CrawlArguments = z.infer<z.ZodObject<typeof inputShape>>;

const skippedShape = z.array(z.object({ url: z.string(), reason: z.string() }));

const outputShape = {
  status: z
    .enum(['ok', 'truncated', 'robots_denied', 'error'])
    .describe('ok: everything in scope was read; truncated: a limit stopped the crawl (see stop_reason)'),
  url: z.string().describe('The start URL, normalised'),
  pages: z.array(
    z.object({
      url: z.string(),
      final_url: z.string(),
      title: z.string(),
      depth: z.number().int(),
      tokens: z.number().int().describe("Tokens of the page's section in the Markdown, notice included"),
      cut: z.boolean().describe('The page was cut to fit the budget'),
      content: z.string(),
    }),
  ),
  pages_read: z.number().int(),
  tokens_used: z.number().int(),
  max_tokens: z.number().int().describe('The budget applied'),
  max_pages: z.number().int(),
  elapsed_ms: z.number().int(),
  stop_reason: z.enum(['frontier_empty', 'max_pages', 'max_tokens', 'cancelled']),
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

/** RFC 9309 §2.3.1: robots.txt through the same guard, cache and queue as every page. */
async function loadRobotsRules(engine: Engine, url: string, signal: AbortSignal): Promise<RobotsRules> {
  const robotsUrl = robotsUrlFor(url);
  try {
    const document = await loadDocument(engine, robotsUrl, { signal });
    return parseRobots(robotsUrl, document.text);
  } catch (error) {
    if (signal.aborted || error instanceof SecurityError) throw error;
    if (error instanceof HttpStatusError && error.status >= 400 && error.status < 500 && error.status !== 429) {
      return ALLOW_ALL; // "unavailable": no rules (§2.3.1.3)
    }
    if (error instanceof HttpStatusError) return disallowAll(`robots.txt answered HTTP ${error.status}`);
    return disallowAll(`robots.txt could not be read: ${errorMessage(error)}`); // "unreachable" (§2.3.1.4)
  }
}

/** The crawler's I/O, bound to the engine: the same fetch, extraction, link extraction, cache and queue as every tool. */
export function engineCrawlIO(engine: Engine): CrawlIO {
  return {
    async readPage(url, signal) {
      const page = await engine.readPage(url, { signal, withLinks: true });
      return {
        finalUrl: page.finalUrl,
        title: page.title,
        content: page.content,
        ...(page.kind === 'html' && page.raw !== '' ? { html: page.raw } : {}),
        ...(page.links ? { links: page.links } : {}),
        ...(page.outcome !== 'ok'
          ? { unreadable: { code: page.outcome.toUpperCase(), message: statusLine(page) } }
          : {}),
      };
    },
    async extractLinks(html, baseUrl) {
      const found = await engine.extractLinks(html, baseUrl);
      const urls = [...new Set(found.links.map((link) => link.url))];
      return { urls, ...(found.canonicalUrl ? { canonicalUrl: found.canonicalUrl } : {}) };
    },
    loadRobots: (url, signal) => loadRobotsRules(engine, url, signal),
    async loadSitemap(url, signal) {
      return parseSitemap((await loadDocument(engine, url, { signal })).text);
    },
  };
}

export interface CrawlRun {
  readonly result: CrawlResult;
  /** What the summary adds (a budget lowered to MAX_OUTPUT_TOKENS). */
  readonly notes: string[];
}

export interface RunCrawlOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: CrawlProgress) => void;
  /** Overrides the engine's crawl I/O (tests). */
  readonly io?: CrawlIO;
}

/** Validated arguments → the crawl; shared by the tool and the CLI (which writes pages to files). */
export async function runCrawl(engine: Engine, args: CrawlArguments, options: RunCrawlOptions = {}): Promise<CrawlRun> {
  const start = parseUrlArgument(args.url);
  const { config } = engine;
  const requested = args.max_tokens ?? config.defaultMaxTokens;
  const cap = config.maxOutputTokens;
  // SPEC "Context-safe by default": MAX_OUTPUT_TOKENS caps a result unless the caller's own limit is smaller.
  const maxTokens = cap > 0 && requested > cap ? cap : requested;
  const notes =
    maxTokens < requested
      ? [`max_tokens ${requested} was lowered to MAX_OUTPUT_TOKENS (${cap}), the server's cap on one result`]
      : [];
  const result = await crawlSite(
    {
      url: start.href,
      maxTokens,
      maxPages: args.max_pages,
      maxDepth: args.max_depth,
      allowedDomains: parseAllowedDomains(args.allowed_domains ?? [start.hostname]),
      patterns: args.patterns,
      excludePatterns: args.exclude_patterns,
      respectRobots: config.respectRobots !== 'never',
      concurrency: config.maxConcurrent,
      signal: options.signal,
      onProgress: options.onProgress,
    },
    options.io ?? engineCrawlIO(engine),
  );
  return { result, notes };
}

export function crawlStatus(result: CrawlResult): CrawlToolResult['status'] {
  if (result.pages.length === 0) {
    return result.skipped.robots.some((entry) => entry.url === result.startUrl) ? 'robots_denied' : 'error';
  }
  return result.stopReason === 'frontier_empty' ? 'ok' : 'truncated';
}

export function crawlToolResult({ result, notes }: CrawlRun): CrawlToolResult {
  const { skipped } = result;
  const cap = <T>(entries: readonly T[]) => entries.slice(0, STRUCTURED_LIST_LIMIT);
  return {
    status: crawlStatus(result),
    url: result.startUrl,
    pages: result.pages.map((page) => ({
      url: page.url,
      final_url: page.finalUrl,
      title: page.title,
      depth: page.depth,
      tokens: page.tokens,
      cut: page.isCut,
      content: page.content,
    })),
    pages_read: result.pages.length,
    tokens_used: result.tokensUsed,
    max_tokens: result.maxTokens,
    max_pages: result.maxPages,
    elapsed_ms: Math.round(result.elapsedMs),
    stop_reason: result.stopReason,
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
    'robots.txt, scope, budget or errors. Stays on the start URL host unless allowed_domains says otherwise; ' +
    'patterns and exclude_patterns narrow it by path.',
  tags: ['web', 'crawl', 'markdown'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Crawl a site section within a token budget' },
  async run(args, { engine, signal, onProgress }): Promise<ToolOutput> {
    const run = await runCrawl(engine, args, {
      signal,
      onProgress: onProgress
        ? (progress) => onProgress({ progress: progress.processed, message: progressMessage(progress) })
        : undefined,
    });
    const structured = crawlToolResult(run);
    const status: Outcome = structured.status;
    return {
      text: renderCrawl(run.result, run.notes),
      structured: { ...structured, status },
      ...(run.result.pages.length === 0 ? { isError: true } : {}),
    };
  },
};
