// Main-content extraction behind one small interface, run on a worker pool with a per-page time limit.
import { availableParallelism } from 'node:os';
import type { Config } from '../config.js';
import type { ParsedSitemap } from '../crawl/sitemap.js';
import type { Article } from '../extract/extract-article.js';
import type { ExtractedLinks } from '../extract/link-set.js';
import type { ScrapedHtml } from '../extract/scrape.js';
import type { SelectOptions } from '../extract/select.js';
import { createWorkerPool } from './pool.js';
import type {
  ArticleContent,
  ArticleInput,
  HtmlBody,
  HtmlBodyInput,
  PdfBody,
  TextBody,
  TextBodyInput,
  TwinBodyInput,
} from './read-body.js';

export interface Extractor {
  /** Main content as Markdown; with `withLinks`, the page's links from the same parse too. */
  extract(html: string, baseUrl: string, options?: { withLinks?: boolean }): Promise<Article>;
  /** Every visible `<a href>`, resolved, in document order (links, web links mode, extract_links, crawl). */
  links(html: string, baseUrl: string): Promise<ExtractedLinks>;
  /** web_scraper's text with `[n]` markers, references, outline and metadata; `select`: the caller's selectors. */
  scrape(html: string, baseUrl: string, select?: SelectOptions): Promise<ScrapedHtml>;
  /**
   * A PDF's text as Markdown page by page, clean; a PDF is many pages of work, so it gets PDF_TIMEOUT_FACTOR times
   * the page limit.
   */
  readPdf(bytes: Uint8Array): Promise<PdfBody>;
  /** A text body that is not HTML, decoded, rendered and clean (src/workers/read-body.ts). */
  readText(input: TextBodyInput): Promise<TextBody>;
  /** An HTML body decoded, with its clean copy, title and Markdown twin. */
  readHtml(input: HtmlBodyInput): Promise<HtmlBody>;
  /** A Markdown twin's body under its notice, clean; undefined when empty. */
  readTwin(input: TwinBodyInput): Promise<string | undefined>;
  /** readPage's extraction: main content under its title, clean, and the empty/needs_js outcome. */
  readArticle(input: ArticleInput): Promise<ArticleContent>;
  /** The body decoded by its charset (src/fetch/decode.ts), as the server sent it. */
  decode(bytes: Uint8Array, contentType: string | undefined): Promise<string>;
  /** A feed's entry links. */
  feedLinks(xml: string, baseUrl: string): Promise<ExtractedLinks>;
  /** A sitemap's URLs, the body decoded by its charset (src/crawl/sitemap.ts). */
  sitemap(bytes: Uint8Array, contentType: string | undefined): Promise<ParsedSitemap>;
  close(): Promise<void>;
}

// Worker threads load JavaScript: when this module runs from TypeScript sources (vitest), the pool runs the
// compiled worker from dist/, which `npm test` builds before the tests.
function workerScript(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('../../dist/workers/extract-worker.js', import.meta.url);
  return new URL('./extract-worker.js', import.meta.url);
}

// EXTRACT_TIMEOUT is sized for one HTML page; a long PDF is hundreds of pages of text (docs/benchmarks.md, PDF).
const PDF_TIMEOUT_FACTOR = 6;

// Decoding, rendering a feed or JSON, and cleaning a body are linear in its size, at most MAX_RESPONSE_SIZE: about
// 0.5 s for a 9 MB feed on one core (issue 10). They used to run unbounded on the main thread, so a page limit set
// low to cut slow extraction short must not fail them: they get the page limit, but never less than this. Past it
// the read fails with EXTRACTION_TIMEOUT (there is no text yet to fall back to).
const LINEAR_WORK_MIN_MS = 5000;

export function createExtractor(config: Config, size = Math.max(1, Math.min(4, availableParallelism()))): Extractor {
  const pool = createWorkerPool(workerScript(), size);
  const linearLimitMs = Math.max(config.extractTimeoutMs, LINEAR_WORK_MIN_MS);
  return {
    extract: (html, baseUrl, options) =>
      pool.run<Article>('article', { html, baseUrl, withLinks: options?.withLinks }, config.extractTimeoutMs),
    links: (html, baseUrl) => pool.run<ExtractedLinks>('links', { html, baseUrl }, config.extractTimeoutMs),
    scrape: (html, baseUrl, select) =>
      pool.run<ScrapedHtml>('scrape', { html, baseUrl, select }, config.extractTimeoutMs),
    readPdf: (bytes) => pool.run<PdfBody>('readPdf', { bytes }, config.extractTimeoutMs * PDF_TIMEOUT_FACTOR),
    readText: (input) => pool.run<TextBody>('readText', input, linearLimitMs),
    readHtml: (input) => pool.run<HtmlBody>('readHtml', input, linearLimitMs),
    readTwin: (input) => pool.run<string | undefined>('readTwin', input, linearLimitMs),
    readArticle: (input) => pool.run<ArticleContent>('readArticle', input, config.extractTimeoutMs),
    decode: (bytes, contentType) => pool.run<string>('decode', { bytes, contentType }, linearLimitMs),
    feedLinks: (xml, baseUrl) => pool.run<ExtractedLinks>('feedLinks', { xml, baseUrl }, linearLimitMs),
    sitemap: (bytes, contentType) => pool.run<ParsedSitemap>('sitemap', { bytes, contentType }, linearLimitMs),
    close: () => pool.close(),
  };
}
