// The `map` tool (issue 14 item 5): a site's URLs without reading their pages — robots.txt sitemaps (indexes and
// gzipped files included, else /sitemap.xml), /llms.txt and the start page's links, normalised, de-duplicated and
// in scope as a crawl's (src/crawl/map-site.ts). This file binds it to the engine (guard, cache, queue) and renders
// the result. The start page is fetched only when robots.txt allows it (unless RESPECT_ROBOTS=never), as a crawl's
// pages; robots.txt, sitemaps and llms.txt are files for machines and are always read.
import { z } from 'zod';
import type { MapIO, MapResult } from '../crawl/map-site.js';
import { normalizeUrl } from '../crawl/normalize-url.js';
import type { Engine } from '../engine/engine.js';
import { parseUrlArgument } from '../fetch/url-argument.js';
import { limitLines } from '../output/link-list.js';
import { mapHeading, mapLine, mapNotes, renderMap } from '../output/map-report.js';
import { capLimit, frameTokens } from '../output/truncate.js';
import { boundedString, integerBetween, patternList, stringList, urlArgument } from './arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { loadRobots, loadSitemap } from '../runs/site-files.js';
import type { LoadOptions } from '../engine/load-page.js';
import { READ_ONLY_WEB, type ToolDefinition, type ToolOutput } from './types.js';

/**
 * The time a map call may take: below the 60 s request timeout of the MCP TypeScript SDK client
 * (DEFAULT_REQUEST_TIMEOUT_MSEC), like crawl's default max_seconds. At the limit the URLs found so far are returned.
 */
export const MAP_TIME_LIMIT_MS = 45_000;
export const MAX_MAX_URLS = 100_000;

const inputShape = {
  url: urlArgument('URL of the site to map (http or https); its start page and its origin are read'),
  max_urls: integerBetween('max_urls', 1, MAX_MAX_URLS).default(500).describe('Maximum number of URLs to return'),
  search: boundedString('search', 'text to look for in URLs', 200)
    .optional()
    .describe('Keep only URLs (or their titles) containing this text, case-insensitive'),
  allowed_domains: stringList('allowed_domains')
    .optional()
    .describe("Domains whose URLs are listed, sub-domains included (default: the start URL's host)"),
  patterns: patternList('patterns')
    .default([])
    .describe(
      "Only list URLs whose path matches one of these: globs ('/docs/**'; * stays within a path segment, ** " +
        "crosses them), or 're:' + a regular expression searched in path and query (the crawl's syntax and limits)",
    ),
  // For the start page, the one page map reads (robots.txt, sitemaps and llms.txt are the site's files for machines).
  ...requestShape,
};

const outputShape = {
  status: z.enum(['ok', 'empty']).describe('ok: URLs were found; empty: none in scope'),
  url: z.string().describe('The start URL, normalised'),
  total: z.number().int().describe('URLs listed in this result'),
  truncated: z.boolean().describe('More URLs exist than are listed (max_urls, the sitemap file cap, the time limit)'),
  stop_reason: z.enum(['complete', 'max_urls', 'sitemap_limit', 'time_limit', 'max_output_tokens']),
  max_urls: z.number().int(),
  urls: z.array(
    z.object({
      url: z.string(),
      title: z.string().optional().describe('From llms.txt or a sitemap, when it gives one'),
      source: z.enum(['sitemap', 'llms.txt', 'page']).describe('Where the URL was found first'),
    }),
  ),
  counts: z.object({ sitemap: z.number().int(), 'llms.txt': z.number().int(), page: z.number().int() }),
  sitemaps_read: z.number().int(),
  notes: z.array(z.string()),
};

/** The map's I/O, bound to the engine: the same guard, cache and queue as every tool. */
export function engineMapIO(engine: Engine, startPage: Pick<LoadOptions, 'maxAgeSeconds' | 'credentials'> = {}): MapIO {
  return {
    loadRobots: (url, signal) => loadRobots(engine, url, signal),
    loadSitemap: (url, signal) => loadSitemap(engine, url, signal),
    // The engine's per-origin llms.txt, shared with the Markdown twins of readPage: one request per CACHE_TTL.
    loadLlmsTxt: (url, signal) => engine.readLlmsTxt(url, signal),
    async loadPageLinks(url, signal) {
      const page = await engine.readPage(url, {
        ...startPage,
        signal,
        want: 'links',
        withoutRaw: true,
        render: 'never',
        userAgent: engine.config.crawlerUserAgent, // map walks a site as the crawler does (site-files.ts)
      });
      return (page.linkList?.links ?? []).map((link) => link.url);
    },
  };
}

export type MapArguments = z.infer<z.ZodObject<typeof inputShape>>;

export async function runMap(engine: Engine, args: MapArguments, signal?: AbortSignal): Promise<MapResult> {
  const start = parseUrlArgument(args.url);
  // The site walker loads with the first map, not with the server (start-up: npm run bench:start).
  const { mapSite } = await import('../crawl/map-site.js');
  return mapSite(
    {
      url: normalizeUrl(start.href) ?? start.href,
      allowedDomains: args.allowed_domains,
      patterns: args.patterns,
      maxUrls: args.max_urls,
      search: args.search,
      respectRobots: engine.config.respectRobots !== 'never',
      timeLimitMs: MAP_TIME_LIMIT_MS,
      signal,
    },
    engineMapIO(engine, requestOptions(args)),
  );
}

export const mapTool: ToolDefinition<typeof inputShape> = {
  name: 'map',
  title: "List a site's URLs",
  description:
    "List a website's URLs without reading their pages: from its sitemaps (robots.txt, /sitemap.xml), its " +
    '/llms.txt and the links of the start page, one URL a line with a title where the site gives one. Fast way to ' +
    'see what a site has before choosing pages to fetch or a section to crawl. Stays on the start URL host unless ' +
    'allowed_domains says otherwise; patterns narrows by path, search keeps URLs containing a word.',
  tags: ['web', 'links', 'sitemap'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: "List a site's URLs" },
  async run(args, { engine, signal }): Promise<ToolOutput> {
    const result = await runMap(engine, args, signal);
    // Nothing found and the start page failed: that failure is the answer (a refused address, a 404, a timeout).
    if (result.urls.length === 0 && result.startPageError !== undefined) throw result.startPageError;
    // The heading and the notes (the cap's own among them) count inside MAX_OUTPUT_TOKENS (capLimit).
    const cap = engine.config.maxOutputTokens;
    const frame = await frameTokens(cap, [
      mapHeading(result.urls.length, result.url),
      mapNotes(result, args.max_urls, 0).join('\n'),
    ]);
    const limited = await limitLines(result.urls.map(mapLine), {
      maxLength: 0,
      startIndex: 0,
      maxTokens: capLimit(Infinity, cap, frame),
    });
    const shown = result.urls.slice(0, limited.lines.length);
    const capped = shown.length < result.urls.length;
    const notes = mapNotes(result, args.max_urls, shown.length);
    return {
      text: renderMap(result, limited.lines, notes),
      structured: {
        status: shown.length > 0 ? 'ok' : 'empty',
        url: result.url,
        total: shown.length,
        truncated: result.truncated || capped,
        stop_reason: capped ? 'max_output_tokens' : result.stopReason,
        max_urls: args.max_urls,
        urls: shown.map(({ url, title, source }) => ({ url, ...(title ? { title } : {}), source })),
        counts: result.counts,
        sitemaps_read: result.sitemapsRead,
        notes,
      },
    };
  },
};
