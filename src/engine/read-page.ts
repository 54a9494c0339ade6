// Reading: a fetched snapshot → what a model reads. The kind is sniffed once and one reader per kind decides the
// content (read-html.ts, read-pdf.ts, read-image.ts, read-document.ts, read-text.ts, read-binary.ts); the fields
// every page has are set here, once (page-content.ts). All decoding, extraction and rendering runs in the worker pool,
// off the event loop. Loading the
// snapshot is load-page.ts's job.
//
// HTML may be read twice: statically, then — when the render policy says so (src/outcome.ts shouldRender) — from a
// browser's DOM after the page's scripts ran (render-step.ts), through the same HTML reader.
//
// Output hygiene at the source (src/clean-text.ts): every reader's text is clean before a tool counts its tokens,
// cuts it at max_length or continues it at start_index, so the numbers an agent sees match the text it gets.
// Markdown and text the page wrote itself keep their words, but links to other schemes than http, https and mailto
// are made literal (src/formats/disarm-markdown.ts); extracted Markdown never has them (src/link-target.ts).
import { sniffContent, type ContentKind } from '../formats/sniff.js';
import { outcomeOfRendered, type RenderPolicy } from '../outcome.js';
import type { Extractor } from '../workers/extractor.js';
import type { LoadedPage, LoadPage } from './load-page.js';
import { pageContent, type KindFields, type PageContent, type ReadOptions } from './page-content.js';
import { readBinaryPage } from './read-binary.js';
import { readDocumentPage } from './read-document.js';
import { readHtmlPage } from './read-html.js';
import type { LlmsTxtIndex } from './llms-txt-index.js';
import { readImagePage } from './read-image.js';
import { readPdfPage, type PdfOcrConfig } from './read-pdf.js';
import { readTextPage } from './read-text.js';
import { assertBrowserOptions, attemptRender, hasActions, type PageRenderer } from './render-step.js';
import { InvalidArgumentError } from '../errors.js';
import { quoteInput } from '../quote.js';
import type { Ocr } from '../ocr/ocr.js';
import type { SnapshotStore } from '../shared-state/snapshot-store.js';
import { assertSinceOptions, withChanges } from './page-changes.js';

// The selector checks and the section's message come from extract/, which brings the HTML parser and the selector
// engine: loaded when a call names a selector or misses a section, so a plain read loads neither on this thread
// (the worker reads the page; issue 23 item 7, the first call fast).

/** The page, once it is read as it will be (rendered or not); a `section` it does not have is the caller's error. */
async function withSection(page: PageContent, asked: string | undefined): Promise<PageContent> {
  const section = page.section;
  if (section === undefined || section.found) return page;
  const { sectionNotFoundMessage } = await import('../extract/section.js');
  const message = sectionNotFoundMessage(quoteInput(asked ?? '', 100), section.headings, section.total);
  throw new InvalidArgumentError('section', message);
}

/** The error of `query` with `raw`: the passages are of the Markdown, which a raw read does not make. */
export const QUERY_WITH_RAW =
  'query ranks the passages of the Markdown, and raw returns the body as sent: call again without raw, or without query.';

/**
 * `query`: the passages of the page's text that best answer it, ranked in the worker (src/extract/rank-passages.ts),
 * after `section` has cut the page (the query ranks within the section). Only a page read `ok` with text has them: a
 * status line, a selector that matched nothing or the raw fallback of a failed extraction is shown as it is.
 */
async function withAnswer(page: PageContent, query: string | undefined, extractor: Extractor): Promise<PageContent> {
  if (query === undefined || page.outcome !== 'ok' || page.extractionFailed || page.content.trim() === '') return page;
  return { ...page, answer: await extractor.answerQuery(page.content, query) };
}

export interface ReaderIO {
  readonly extractor: Extractor;
  readonly loadPage: LoadPage;
  /** The browser (render-step.ts); it says when there is none. */
  readonly renderer: PageRenderer;
  /** RENDER_JS: the policy of a call that names none. */
  readonly renderPolicy: RenderPolicy;
  /** Each origin's /llms.txt, for the Markdown twins it names (llms-txt-index.ts). */
  readonly llmsTxt?: LlmsTxtIndex;
  /** Text in pictures (src/ocr/): images and the scanned pages of PDFs; without it they read as before. */
  readonly ocr?: { readonly ocr: Ocr; readonly config: PdfOcrConfig };
  /** fetch `since` snapshots (page-changes.ts); without them `since` is not answered. */
  readonly snapshots?: SnapshotStore;
}

export function createPageReader(io: ReaderIO): (url: string, options?: ReadOptions) => Promise<PageContent> {
  const { extractor, loadPage, renderer } = io;

  function readKind(loaded: LoadedPage, kind: ContentKind, options: ReadOptions): Promise<KindFields> | KindFields {
    const { page } = loaded;
    switch (kind) {
      case 'html':
        return readHtmlPage(page, options, extractor, loadPage, io.llmsTxt);
      case 'pdf':
        return readPdfPage(page, extractor, io.ocr?.ocr, io.ocr?.config, options);
      case 'image':
        return io.ocr ? readImagePage(page, io.ocr.ocr, io.ocr.config, options) : readBinaryPage(page);
      case 'binary':
        return readBinaryPage(page);
      case 'document':
        return readDocumentPage(page, extractor, options);
      default:
        return readTextPage(page, kind, extractor, options);
    }
  }

  async function read(url: string, loaded: LoadedPage, kind: ContentKind, options: ReadOptions) {
    const { page, fromCache } = loaded;
    const source = {
      url,
      finalUrl: page.finalUrl,
      httpStatus: page.status,
      mediaType: page.mediaType,
      ...(page.headers['content-type'] !== undefined && { contentType: page.headers['content-type'] }),
      kind,
      fromCache,
      rendered: loaded.rendered ?? false,
      byteLength: page.body.byteLength,
      fetchedAt: page.fetchedAt,
    };
    const fields = await readKind(loaded, kind, options);
    return pageContent(source, { ...fields, outcome: outcomeOfRendered(fields.outcome, source.rendered) });
  }

  return async function readPage(url: string, options: ReadOptions = {}): Promise<PageContent> {
    if (options.query !== undefined && options.raw) throw new InvalidArgumentError('query', QUERY_WITH_RAW);
    assertSinceOptions(options);
    const page = await readWhole(url, options);
    return withChanges(await withAnswer(page, options.query, extractor), options, io.snapshots, extractor);
  };

  async function readWhole(url: string, options: ReadOptions): Promise<PageContent> {
    // A bad selector is the caller's mistake: said before anything is fetched (the tools' schemas say it first).
    if (options.selector !== undefined || options.waitFor !== undefined || options.excludeSelectors !== undefined) {
      (await import('../extract/select.js')).assertSelectOptions(options);
    }
    await assertBrowserOptions(url, options);
    const loaded = await loadPage(url, options);
    const kind = sniffContent(loaded.page.mediaType, loaded.page.body, loaded.page.finalUrl);
    const page = await read(url, loaded, kind, options);
    if (kind !== 'html') return page;
    // Actions need the page in a browser: a read with them renders, whatever RENDER_JS says.
    const policy = hasActions(options) ? 'always' : (options.render ?? io.renderPolicy);
    const staticRead = { outcome: page.outcome, scriptBuilt: page.scriptBuilt ?? false };
    const attempt = await attemptRender(renderer, url, policy, staticRead, options);
    if (attempt.loaded) {
      const rendered = await read(url, attempt.loaded, 'html', options);
      const shot = attempt.screenshot && { screenshot: attempt.screenshot };
      const done = attempt.actions && { actions: attempt.actions };
      return withSection({ ...rendered, ...shot, ...done }, options.section);
    }
    return withSection(attempt.skipped ? { ...page, renderSkipped: attempt.skipped } : page, options.section);
  }
}
