// The pure functions a worker may run, by name. Each takes structured-clonable input and returns the same.
import { resourceLimits } from 'node:worker_threads';
import { decodeBody } from '../fetch/decode.js';
import {
  readDocumentBody,
  readHtmlBody,
  readHtmlWork,
  readPdfBody,
  readSitemapBody,
  readTextBody,
  readTwinBody,
} from './read-body.js';

export const TASKS: Record<string, (input: never) => unknown> = {
  // readPage's steps (src/workers/read-body.ts): bytes in, clean text out, each page's bytes crossing once.
  readText: readTextBody,
  readHtml: readHtmlBody,
  readHtmlWork,
  readTwin: readTwinBody,
  // `query` (issue 26): the passages of a page's Markdown that best answer it (src/extract/rank-passages.ts).
  // Loaded with the first query, not with every worker (MiniSearch is the only module it brings).
  answerQuery: async (input: { markdown: string; query: string }) =>
    (await import('../extract/rank-passages.js')).rankPassages(input.markdown, input.query),
  // fetch `since` (issue 28 item 4): what changed in a page's Markdown; jsdiff loaded with the first such call.
  diffMarkdown: async (input: { before: string; after: string }) =>
    (await import('../extract/page-diff.js')).diffMarkdown(input.before, input.after),
  // The engine's own files for machines (llms.txt, robots.txt under RESPECT_ROBOTS=always), decoded as sent.
  decode: (input: { bytes: Uint8Array; contentType: string | undefined }) =>
    decodeBody(input.bytes, input.contentType).text,
  sitemap: readSitemapBody,
  // Async (PDF.js answers in promises); the worker awaits it. The bytes arrive as a copy, PDF.js may detach them.
  readPdf: readPdfBody,
  // A scanned page's image for OCR (issue 27), one page a task so that one page's pixels are in memory at a time.
  pdfPageImage: async (input: { bytes: Uint8Array; page: number; maxPixels: number }) =>
    (await import('../formats/pdf-page-image.js')).readPdfPageImage(input.bytes, input.page, input.maxPixels),
  // Office and e-book files (issue 27): unzipped and read under the caps of src/formats/zip.ts.
  readDocument: readDocumentBody,
  // Tasks for tests of the pool itself: one never returns, so only the time limit can end it; one says the heap
  // limits its worker was started with.
  spin: () => {
    for (;;);
  },
  resourceLimits: () => resourceLimits,
};
