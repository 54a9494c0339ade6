// The engine every front door ends up in (MCP, HTTP API, CLI, library), along its two jobs: loading, URL → fetched
// snapshot (load-page.ts), and reading, snapshot → what a model reads (read-page.ts). I/O comes in through EngineIO
// so tests and the library can replace the network or the worker pool; the defaults are the real ones. What replicas
// share (cache, host turns, fetch claims, robots.txt answers) is built by the composition root and handed in
// (src/shared-state/shared-state.ts); the engine neither chooses it nor closes it.
import type { Config } from '../config.js';
import type { ParsedSitemap } from '../crawl/sitemap.js';
import type { PageCache } from '../fetch/page-cache.js';
import type { RequestQueue } from '../fetch/queue.js';
import type { RobotsRules } from '../fetch/robots.js';
import type { FetchedPage, FetchPage } from '../fetch/types.js';
import { createMemorySharedState, type SharedState } from '../shared-state/shared-state.js';
import { createPageLoader, type LoadedPage, type LoadOptions } from './load-page.js';
import type { PageContent, ReadOptions } from './page-content.js';
import { createPageReader } from './read-page.js';
import { browserPageRenderer, cachedRenderer, type PageRenderer } from './render-step.js';
import { createExtractor, type Extractor } from '../workers/extractor.js';
import { createOcr, type Ocr } from '../ocr/ocr.js';
import type { LlmsTxt } from '../formats/llms-txt.js';
import { createLlmsTxtIndex } from './llms-txt-index.js';
import { siteFileTtlMs } from '../fetch/robots-gate.js';

export interface EngineIO {
  readonly fetchPage?: FetchPage;
  /** The browser that renders JavaScript pages (src/browser/); none, and `auto` reads statically. */
  readonly renderer?: PageRenderer;
  readonly extractor?: Extractor;
  /** Text in pictures (src/ocr/); by default tesseract as configured (TESSERACT_PATH, OCR_LANGUAGES). */
  readonly ocr?: Ocr;
  readonly cache?: PageCache;
  readonly queue?: RequestQueue;
  /**
   * What replicas share, built once by the composition root (src/shared-state/shared-state.ts createSharedState);
   * by default this engine's own memory. Its owner closes it, not the engine.
   */
  readonly sharedState?: SharedState;
}

export interface Engine {
  readonly config: Config;
  /** Fetches through the guard, or returns the cached snapshot; retries a bot wall once with the honest UA. */
  loadPage(url: string, options?: LoadOptions): Promise<LoadedPage>;
  /**
   * The one reading path of every tool: loadPage, sniff, decode and read in the worker once (what `want` asks: the
   * article, the links, web_scraper's document), the render rule, and the outcome decided from what was read.
   */
  readPage(url: string, options?: ReadOptions): Promise<PageContent>;
  /**
   * The robots.txt rules of the URL's origin for the crawler (RFC 9309), from the one gate RESPECT_ROBOTS=always
   * checks too (fetch/robots-gate.ts): fetched once per origin per CACHE_TTL whoever asks. Crawl and map.
   */
  robotsRules(url: string, signal?: AbortSignal): Promise<RobotsRules>;
  /**
   * The URL's origin's /llms.txt, asked for as the crawler (`map`): read once per origin per site-file TTL and shared
   * with readPage's twins; none when it has none.
   */
  readLlmsTxt(url: string, signal?: AbortSignal): Promise<LlmsTxt | undefined>;
  /** A sitemap's URLs, read off the main thread: its text, or a gzipped one's bytes unpacked. */
  parseSitemap(body: string | Uint8Array): Promise<ParsedSitemap>;
  /**
   * Makes ready what a first read needs before it is asked for: the engine's modules (behind the lazy engine, this
   * call loads them) and an extraction worker. An MCP server calls it once the client is initialized (issue 23).
   */
  warm(): Promise<void>;
  /**
   * Stops the /llms.txt lookups (none is sent after), the extraction workers and the browser; the shared state is
   * its owner's to close.
   */
  close(): Promise<void>;
}

export function createEngine(config: Config, io: EngineIO = {}): Engine {
  const extractor = io.extractor ?? createExtractor(config);
  const decodeText = (page: FetchedPage) => extractor.decode(page.body, page.headers['content-type']);
  const shared = io.sharedState ?? createMemorySharedState(config);
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
    ttlMs: siteFileTtlMs(config.cacheTtlSeconds),
    fetchTimeoutMs: config.fetchTimeoutMs,
  });
  const ocr = { ocr: io.ocr ?? createOcr(config), config };
  const readPage = createPageReader({
    extractor,
    loadPage,
    renderer,
    renderPolicy: config.renderJs,
    llmsTxt,
    snapshots: shared.snapshots,
    ocr,
  });
  return {
    config,
    loadPage,
    readPage,
    // Asked for by `map`, which announces itself as the crawler.
    readLlmsTxt: (url, signal) => llmsTxt.read(url, signal, config.crawlerUserAgent),
    parseSitemap: (body) => extractor.sitemap(body),
    robotsRules: (url, signal) => loadPage.robotsRules(url, signal),
    warm: async () => extractor.warm(),
    close: async () => {
      llmsTxt.close(); // a lookup nobody asked for stops here: nothing fires after close()
      await Promise.all([extractor.close(), renderer.close()]);
    },
  };
}
