// The engine every front door ends up in (MCP, HTTP API, CLI, library), along its two jobs: loading, URL → fetched
// snapshot (load-page.ts), and reading, snapshot → what a model reads (read-page.ts). I/O comes in through EngineIO
// so tests and the library can replace the network or the worker pool; the defaults are the real ones.
import type { Config } from '../config.js';
import type { ResumeStore } from '../crawl/resume-store.js';
import type { ParsedSitemap } from '../crawl/sitemap.js';
import type { Article } from '../extract/extract-article.js';
import type { ExtractedLinks } from '../extract/link-set.js';
import type { ScrapedHtml } from '../extract/scrape.js';
import type { SelectOptions } from '../extract/select.js';
import type { PageCache } from '../fetch/page-cache.js';
import type { RequestQueue } from '../fetch/queue.js';
import type { FetchedPage, FetchPage } from '../fetch/types.js';
import {
  createSharedState,
  type McpSessionSharing,
  type SharedState,
  type SharedStateHealth,
} from '../shared-state/shared-state.js';
import { CACHE_MAX_BYTES, createPageLoader, type LoadedPage, type LoadOptions } from './load-page.js';
import type { PageContent, ReadOptions } from './page-content.js';
import { createPageReader } from './read-page.js';
import {
  attemptRender,
  browserPageRenderer,
  cachedRenderer,
  type PageRenderer,
  type RenderAttempt,
  type RenderOptions,
  type StaticRead,
} from './render-step.js';
import { createExtractor, type Extractor } from '../workers/extractor.js';
import type { LlmsTxt } from '../formats/llms-txt.js';
import { createLlmsTxtIndex } from './llms-txt-index.js';

export interface EngineIO {
  readonly fetchPage?: FetchPage;
  /** The browser that renders JavaScript pages (src/browser/); none, and `auto` reads statically. */
  readonly renderer?: PageRenderer;
  readonly extractor?: Extractor;
  readonly cache?: PageCache;
  readonly queue?: RequestQueue;
  /** What replicas share; by default chosen from REDIS_URL (src/shared-state/shared-state.ts). */
  readonly sharedState?: SharedState;
}

export interface Engine {
  readonly config: Config;
  /** Fetches through the guard, or returns the cached snapshot; retries a bot wall once with the honest UA. */
  loadPage(url: string, options?: LoadOptions): Promise<LoadedPage>;
  /**
   * After a static read of HTML: the page rendered in a browser to read instead, or why the static read stands —
   * the one render rule (render-step.ts attemptRender), with RENDER_JS when the call names no policy.
   */
  renderAfter(url: string, staticRead: StaticRead, options?: RenderOptions): Promise<RenderAttempt>;
  /** loadPage, then turns the body into what a model reads (rendering it too when the policy says so). */
  readPage(url: string, options?: ReadOptions): Promise<PageContent>;
  /** Runs main-content extraction (off the main thread) on HTML the caller already has. */
  extractArticle(html: string, baseUrl: string): Promise<Article>;
  /** Every visible link of HTML the caller already has, resolved, in document order (off the main thread). */
  extractLinks(html: string, baseUrl: string): Promise<ExtractedLinks>;
  /**
   * web_scraper's document: text with `[n]` markers, references, outline, metadata (off the main thread); with
   * `select`, exclusions removed first and only what `selector` matches read.
   */
  scrapeHtml(html: string, baseUrl: string, select?: SelectOptions): Promise<ScrapedHtml>;
  /** A fetched body decoded by its charset, as the server sent it (off the main thread). */
  decodeText(page: FetchedPage): Promise<string>;
  /** A feed's entry links (off the main thread). */
  extractFeedLinks(xml: string, baseUrl: string): Promise<ExtractedLinks>;
  /** A sitemap's URLs, its body decoded by its charset (off the main thread). */
  parseSitemap(body: Uint8Array, contentType: string | undefined): Promise<ParsedSitemap>;
  /** The URL's origin's /llms.txt, read once per CACHE_TTL and shared with readPage's twins; none when it has none. */
  readLlmsTxt(url: string, signal?: AbortSignal): Promise<LlmsTxt | undefined>;
  /** Whether the state shared with other replicas is reachable: `off` without REDIS_URL (/healthz). */
  sharedStateHealth(): Promise<SharedStateHealth>;
  /** MCP sessions shared with other replicas (transports/http/mcp-sessions.ts); none without REDIS_URL. */
  mcpSessionSharing?(): Promise<McpSessionSharing | undefined>;
  /** Crawl states shared with other replicas (REDIS_URL); undefined: the crawl tool keeps its own in memory. */
  sharedResumeStore(): Promise<ResumeStore | undefined>;
  close(): Promise<void>;
}

export function createEngine(config: Config, io: EngineIO = {}): Engine {
  const extractor = io.extractor ?? createExtractor(config);
  const decodeText = (page: FetchedPage) => extractor.decode(page.body, page.headers['content-type']);
  const shared = io.sharedState ?? createSharedState(config, { localCacheMaxBytes: CACHE_MAX_BYTES });
  const cache = io.cache ?? shared.pageCache;
  const loadPage = createPageLoader(config, {
    turns: shared.turns,
    claims: shared.claims,
    robotsStore: shared.robotsStore,
    ...io,
    cache,
    decodeText,
  });
  const renderer = cachedRenderer(io.renderer ?? browserPageRenderer(config), cache);
  const llmsTxt = createLlmsTxtIndex({
    loadPage,
    decodeText,
    ttlMs: config.cacheTtlSeconds * 1000,
    fetchTimeoutMs: config.fetchTimeoutMs,
  });
  const readPage = createPageReader({ extractor, loadPage, renderer, renderPolicy: config.renderJs, llmsTxt });
  return {
    config,
    loadPage,
    readPage,
    renderAfter: (url, staticRead, options = {}) =>
      attemptRender(renderer, url, options.render ?? config.renderJs, staticRead, options),
    extractArticle: (html, baseUrl) => extractor.extract(html, baseUrl),
    extractLinks: (html, baseUrl) => extractor.links(html, baseUrl),
    scrapeHtml: (html, baseUrl, select) => extractor.scrape(html, baseUrl, select),
    decodeText,
    extractFeedLinks: (xml, baseUrl) => extractor.feedLinks(xml, baseUrl),
    parseSitemap: (body, contentType) => extractor.sitemap(body, contentType),
    readLlmsTxt: (url, signal) => llmsTxt.read(url, signal),
    sharedStateHealth: () => shared.health(),
    mcpSessionSharing: async () => shared.mcpSessions,
    sharedResumeStore: async () => shared.resumeStore,
    close: async () => {
      await Promise.all([extractor.close(), renderer.close(), shared.close()]);
    },
  };
}
