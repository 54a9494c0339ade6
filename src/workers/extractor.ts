// Reading a page's bytes behind one small interface, run on a worker pool with a per-page time limit. Each task
// takes the bytes once and returns what the caller asked of them (src/workers/read-body.ts).
import { availableParallelism } from 'node:os';
import type { Config } from '../config.js';
import type { ParsedSitemap } from '../crawl/sitemap.js';
import type { QueryAnswer } from '../extract/rank-passages.js';
import type { PdfPageImage } from '../formats/pdf-page-image.js';
import type { PageDiff } from '../extract/page-diff.js';
import { createWorkerPool, workerResourceLimits } from './pool.js';
import type {
  DocumentBody,
  DocumentBodyInput,
  HtmlBody,
  HtmlBodyInput,
  HtmlWork,
  HtmlWorkInput,
  PdfBody,
  TextBody,
  TextBodyInput,
  TwinBodyInput,
} from './read-body.js';

export interface Extractor {
  /**
   * A PDF's text as Markdown page by page, clean; a PDF is many pages of work, so it gets PDF_TIMEOUT_FACTOR times
   * the page limit.
   */
  readPdf(bytes: Uint8Array): Promise<PdfBody>;
  /** A scanned PDF page's largest image as Netpbm bytes for OCR, never decoded past `maxPixels`. */
  pdfPageImage(bytes: Uint8Array, page: number, maxPixels: number): Promise<PdfPageImage>;
  /**
   * An Office or e-book document as Markdown, clean (src/formats/document.ts); many pages of work like a PDF, so it
   * gets the same PDF_TIMEOUT_FACTOR times the page limit; its links, and with `scrape` web_scraper's document.
   */
  readDocument(input: DocumentBodyInput): Promise<DocumentBody>;
  /** A text body that is not HTML, decoded, rendered and clean (src/workers/read-body.ts); a feed's links too. */
  readText(input: TextBodyInput): Promise<TextBody>;
  /** An HTML body decoded, with its clean copy, title and Markdown twin (the fallback when readHtmlWork fails). */
  readHtml(input: HtmlBodyInput): Promise<HtmlBody>;
  /** An HTML page decoded once and read as asked: its article, its links, web_scraper's document, its outcome. */
  readHtmlWork(input: HtmlWorkInput): Promise<HtmlWork>;
  /** A Markdown twin's body under its notice, clean; undefined when empty. */
  readTwin(input: TwinBodyInput): Promise<string | undefined>;
  /** The passages of a page's Markdown that best answer `query`, ranked (src/extract/rank-passages.ts). */
  answerQuery(markdown: string, query: string): Promise<QueryAnswer>;
  /** What changed between two reads of a page's Markdown, as a bounded unified diff (src/extract/page-diff.ts). */
  diffMarkdown(before: string, after: string): Promise<PageDiff>;
  /** A body decoded by its charset (src/fetch/decode.ts), as the server sent it: the engine's own files (llms.txt). */
  decode(bytes: Uint8Array, contentType: string | undefined): Promise<string>;
  /** A sitemap's URLs: its text, or a gzipped one's bytes unpacked (src/crawl/sitemap.ts). */
  sitemap(body: string | Uint8Array): Promise<ParsedSitemap>;
  /** Starts a worker ahead of the first read (its modules load on another core meanwhile). */
  warm(): void;
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

// One worker per core (at most 4), and one more: a caller holds at most all but one (pool.ts), so the spare is
// there for every other caller while one session's slow pages run on the rest (issue 23).
const DEFAULT_WORKERS = Math.max(1, Math.min(4, availableParallelism())) + 1;

export function createExtractor(config: Config, size = DEFAULT_WORKERS): Extractor {
  const pool = createWorkerPool(workerScript(), size, workerResourceLimits(config.maxResponseBytes));
  const linearLimitMs = Math.max(config.extractTimeoutMs, LINEAR_WORK_MIN_MS);
  return {
    readPdf: (bytes) => pool.run<PdfBody>('readPdf', { bytes }, config.extractTimeoutMs * PDF_TIMEOUT_FACTOR),
    pdfPageImage: (bytes, page, maxPixels) =>
      pool.run<PdfPageImage>('pdfPageImage', { bytes, page, maxPixels }, linearLimitMs),
    readDocument: (input) =>
      pool.run<DocumentBody>('readDocument', input, config.extractTimeoutMs * PDF_TIMEOUT_FACTOR),
    readText: (input) => pool.run<TextBody>('readText', input, linearLimitMs),
    readHtml: (input) => pool.run<HtmlBody>('readHtml', input, linearLimitMs),
    readHtmlWork: (input) => pool.run<HtmlWork>('readHtmlWork', input, config.extractTimeoutMs),
    readTwin: (input) => pool.run<string | undefined>('readTwin', input, linearLimitMs),
    answerQuery: (markdown, query) => pool.run<QueryAnswer>('answerQuery', { markdown, query }, linearLimitMs),
    diffMarkdown: (before, after) => pool.run<PageDiff>('diffMarkdown', { before, after }, linearLimitMs),
    decode: (bytes, contentType) => pool.run<string>('decode', { bytes, contentType }, linearLimitMs),
    sitemap: (body) => pool.run<ParsedSitemap>('sitemap', { body }, linearLimitMs),
    warm: () => pool.warm(),
    close: () => pool.close(),
  };
}
