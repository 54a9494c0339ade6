// The pure functions a worker may run, by name. Each takes structured-clonable input and returns the same.
import { extractArticle } from '../extract/extract-article.js';
import { extractLinks } from '../extract/links.js';
import { scrapeHtml } from '../extract/scrape.js';
import type { SelectOptions } from '../extract/select.js';
import { decodeBody } from '../fetch/decode.js';
import {
  feedLinks,
  readArticle,
  readHtmlBody,
  readPdfBody,
  readSitemapBody,
  readTextBody,
  readTwinBody,
} from './read-body.js';

export const TASKS: Record<string, (input: never) => unknown> = {
  article: (input: { html: string; baseUrl: string; withLinks?: boolean }) =>
    extractArticle(input.html, { baseUrl: input.baseUrl, withLinks: input.withLinks }),
  // readPage's own steps (src/workers/read-body.ts): bytes in, clean text out.
  readText: readTextBody,
  readHtml: readHtmlBody,
  readTwin: readTwinBody,
  readArticle: readArticle,
  // The tools that work on the page's own text (src/tools/load-document.ts).
  decode: (input: { bytes: Uint8Array; contentType: string | undefined }) =>
    decodeBody(input.bytes, input.contentType).text,
  feedLinks,
  sitemap: readSitemapBody,
  links: (input: { html: string; baseUrl: string }) => extractLinks(input.html, input.baseUrl),
  scrape: (input: { html: string; baseUrl: string; select?: SelectOptions }) =>
    scrapeHtml(input.html, input.baseUrl, input.select),
  // Async (PDF.js answers in promises); the worker awaits it. The bytes arrive as a copy, PDF.js may detach them.
  readPdf: readPdfBody,
  // A task for tests of the pool itself: never returns, so only the time limit can end it.
  spin: () => {
    for (;;);
  },
};
