// The crawl's schema, shared by the crawl tool (src/tools/crawl-tool.ts) and the CLI's crawl (src/cli/crawl-command.ts),
// which presents the same run: its arguments, what they become (a CrawlRequest, src/runs/crawl-run.ts), and its
// structured result (MCP structuredContent, the HTTP API's `result`, the CLI's --json).
import { z } from 'zod';
import type { CrawlResult } from '../crawl/commit.js';
import type { CrawlRequest, CrawlRun } from '../runs/crawl-run.js';
import { boundedString, integerBetween, patternList, stringList, urlArgument } from './arguments.js';
import { renderOptions, renderShape } from './render-arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { queryShape, selectOptions, selectShape } from './select-arguments.js';

/** Entries per skipped list in structuredContent; the counts are always complete. */
export const STRUCTURED_LIST_LIMIT = 1000;

/**
 * max_seconds by default: below the 60 s request timeout of the MCP TypeScript SDK client
 * (DEFAULT_REQUEST_TIMEOUT_MSEC) that many clients keep, with room for the result to travel.
 */
export const DEFAULT_MAX_SECONDS = 45;
export const MAX_MAX_SECONDS = 3600;

export const crawlInputShape = {
  url: urlArgument('URL to start crawling from (http or https); not needed with continue_from').optional(),
  // No static default: DEFAULT_MAX_TOKENS is configuration, resolved when the tool runs.
  max_tokens: integerBetween('max_tokens', 1, 10_000_000)
    .optional()
    .describe(
      'Token budget for all pages together (default DEFAULT_MAX_TOKENS, 100000, lowered so that the pages and the summary fit MAX_OUTPUT_TOKENS when that is smaller). Never exceeded: the page that does not fit is cut with a notice',
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
  // Ranks each page's passages: a page's section of the crawl holds only those that answer it.
  ...queryShape,
};

export type CrawlArguments = z.infer<z.ZodObject<typeof crawlInputShape>>;

/** Validated arguments → the crawl in the engine's terms (src/runs/crawl-run.ts). */
export function crawlRequest(args: CrawlArguments): CrawlRequest {
  return {
    url: args.url,
    continueFrom: args.continue_from,
    maxTokens: args.max_tokens,
    maxPages: args.max_pages,
    maxDepth: args.max_depth,
    maxSeconds: args.max_seconds,
    allowedDomains: args.allowed_domains,
    patterns: args.patterns,
    excludePatterns: args.exclude_patterns,
    // render, wait_for, max_age and headers apply to this call, like max_seconds; a continuation is given them anew
    // (a resume state never keeps a caller's credentials).
    // `headers` are bound to the start URL by the run, which knows it on continue_from too.
    reading: { ...renderOptions(args), ...requestOptions({ max_age: args.max_age }), ...selectOptions(args) },
    ...(args.headers && { headers: args.headers }),
  };
}

const skippedShape = z.array(z.object({ url: z.string(), reason: z.string() }));

export const crawlOutputShape = {
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

export type CrawlToolResult = z.infer<z.ZodObject<typeof crawlOutputShape>>;

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
