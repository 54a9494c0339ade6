// Main-content extraction behind one small interface, run on a worker pool with a per-page time limit.
import { availableParallelism } from 'node:os';
import type { Config } from '../config.js';
import type { PdfText } from '../content/pdf.js';
import type { Article } from '../extract/extract-article.js';
import type { ExtractedLinks } from '../extract/links.js';
import type { ScrapedHtml } from '../extract/scrape.js';
import { createWorkerPool } from './pool.js';

export interface Extractor {
  /** Main content as Markdown; with `withLinks`, the page's links from the same parse too. */
  extract(html: string, baseUrl: string, options?: { withLinks?: boolean }): Promise<Article>;
  /** Every visible `<a href>`, resolved, in document order (links, web links mode, extract_links, crawl). */
  links(html: string, baseUrl: string): Promise<ExtractedLinks>;
  /** web_scraper's text with `[n]` markers, references, outline and metadata. */
  scrape(html: string, baseUrl: string): Promise<ScrapedHtml>;
  /** PDF text page by page; a PDF is many pages of work, so it gets PDF_TIMEOUT_FACTOR times the page limit. */
  readPdf(bytes: Uint8Array): Promise<PdfText>;
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

export function createExtractor(config: Config, size = Math.max(1, Math.min(4, availableParallelism()))): Extractor {
  const pool = createWorkerPool(workerScript(), size);
  return {
    extract: (html, baseUrl, options) =>
      pool.run<Article>('article', { html, baseUrl, withLinks: options?.withLinks }, config.extractTimeoutMs),
    links: (html, baseUrl) => pool.run<ExtractedLinks>('links', { html, baseUrl }, config.extractTimeoutMs),
    scrape: (html, baseUrl) => pool.run<ScrapedHtml>('scrape', { html, baseUrl }, config.extractTimeoutMs),
    readPdf: (bytes) => pool.run<PdfText>('pdf', { bytes }, config.extractTimeoutMs * PDF_TIMEOUT_FACTOR),
    close: () => pool.close(),
  };
}
