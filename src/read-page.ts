// Reading: a fetched snapshot → what a model reads. The kind is sniffed once; PDF, binary, text-like formats and HTML
// each take their own path, all through the worker pool (decoding, extraction, rendering and output hygiene off the
// event loop); HTML may be replaced by the Markdown twin it declares. Loading the snapshot is load-page.ts's job.
import { cleanText } from './clean-text.js';
import { ExtractionError } from './errors.js';
import type { ExplainEntry } from './extract/trace.js';
import { describeBinaryType, sniffContent } from './formats/sniff.js';
import { renderNonHtml } from './formats/render-non-html.js';
import type { LoadOptions, LoadPage } from './load-page.js';
import type { Extractor } from './workers/extractor.js';
import type { ArticleContent } from './workers/read-body.js';
import type { ContentKind } from './formats/sniff.js';
import type { LinkTargets } from './extract/links.js';
import type { Outcome } from './outcome.js';

/** An explanation that is one note, for a read that ran no extraction; nothing when none was asked for. */
function explainNote(options: ReadOptions, reason: string): { explain?: ExplainEntry[] } {
  return options.explain ? { explain: [{ phase: 'fallback', action: 'note', reason }] } : {};
}

export interface ReadOptions extends LoadOptions {
  /** Also list an HTML page's links, from the same parse as its content (the crawler). */
  readonly withLinks?: boolean;
  /**
   * Also return extraction's trace as `explain` (`--explain`). The page cache holds fetched bytes, not extraction
   * results, and every read extracts again: a cached page is explained as fully as a fresh one.
   */
  readonly explain?: boolean;
}

export interface PageContent {
  readonly url: string;
  readonly finalUrl: string;
  readonly httpStatus: number;
  readonly mediaType: string;
  readonly kind: ContentKind;
  readonly title: string | undefined;
  /** The decoded body as the server sent it ('' for binary content). */
  readonly raw: string;
  /** What a model reads: Markdown of the main content, pretty JSON, text as is, or a one-line status. */
  readonly content: string;
  /** Main-content extraction found nothing usable; `content` is the raw body (seed fallback). */
  readonly extractionFailed: boolean;
  readonly outcome: Exclude<Outcome, 'error'>;
  readonly fromCache: boolean;
  readonly hiddenBlocksDropped: number;
  readonly byteLength: number;
  readonly fetchedAt: Date;
  /** PDF only: the number of pages in the document. */
  readonly pageCount?: number;
  /** HTML whose declared text/markdown alternate was fetched and used instead of extraction. */
  readonly markdownTwinUrl?: string;
  /** For an outcome other than ok: why, in words the agent reads (an encrypted or image-only PDF). */
  readonly statusDetail?: string;
  /** With `withLinks`, for HTML whose content was extracted: where its visible links lead, and rel=canonical. */
  readonly links?: LinkTargets;
  /**
   * With `explain`, for HTML: each block extraction removed and why, the chosen block and its runners-up, the retry
   * and fallback passes (src/extract/trace.ts); a note instead when a Markdown twin was read or extraction failed.
   * Absent for other kinds, which are not extracted.
   */
  readonly explain?: readonly ExplainEntry[];
}

export function createPageReader(
  extractor: Extractor,
  loadPage: LoadPage,
): (url: string, options?: ReadOptions) => Promise<PageContent> {
  // Output hygiene at the source (src/clean-text.ts): every reader's text is clean before a tool counts its tokens,
  // cuts it at max_length or continues it at start_index, so the numbers an agent sees match the text it gets.
  // Markdown and text the page wrote itself keep their words, but links to other schemes than http, https and mailto
  // are made literal (src/render/disarm-markdown.ts); extracted Markdown never has them (src/link-target.ts).
  async function readPage(url: string, options: ReadOptions = {}): Promise<PageContent> {
    const { page, fromCache } = await loadPage(url, options);
    const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
    const base = {
      url,
      finalUrl: page.finalUrl,
      httpStatus: page.status,
      mediaType: page.mediaType,
      kind,
      fromCache,
      byteLength: page.body.byteLength,
      fetchedAt: page.fetchedAt,
    };
    if (kind === 'pdf') {
      const pdf = await extractor.readPdf(page.body);
      return {
        ...base,
        title: pdf.title,
        raw: '',
        content: pdf.content,
        extractionFailed: false,
        outcome: pdf.outcome,
        hiddenBlocksDropped: 0,
        pageCount: pdf.pageCount,
        statusDetail: pdf.statusDetail,
      };
    }
    if (kind === 'binary') {
      const type = describeBinaryType(page.mediaType, page.body);
      const content = renderNonHtml({ kind, mediaType: type, text: '', byteLength: page.body.byteLength });
      return {
        ...base,
        title: undefined,
        raw: '',
        content: cleanText(content),
        extractionFailed: false,
        outcome: 'not_html',
        hiddenBlocksDropped: 0,
      };
    }
    const contentType = page.headers['content-type'];
    // From here on the worker pool decodes, renders and cleans (src/workers/read-body.ts): on a body of megabytes
    // that is hundreds of milliseconds the event loop would otherwise be held. What comes back is already clean.
    if (kind !== 'html') {
      const body = await extractor.readText({
        bytes: page.body,
        contentType,
        kind,
        mediaType: page.mediaType,
        finalUrl: page.finalUrl,
      });
      return {
        ...base,
        title: body.title,
        raw: body.raw,
        content: body.content ?? body.raw,
        extractionFailed: false,
        outcome: body.empty ? 'empty' : 'ok',
        hiddenBlocksDropped: 0,
      };
    }
    const html = await extractor.readHtml({ bytes: page.body, contentType, finalUrl: page.finalUrl });
    const raw = html.raw;
    const twin = html.twinUrl === undefined ? undefined : await readMarkdownTwin(html.twinUrl, options);
    if (twin) {
      return {
        ...base,
        title: html.title,
        raw,
        content: twin.content,
        extractionFailed: false,
        outcome: 'ok',
        hiddenBlocksDropped: 0,
        markdownTwinUrl: twin.url,
        ...explainNote(options, 'the page declares a Markdown version, which was read instead: no extraction ran'),
      };
    }
    let article: ArticleContent | undefined;
    try {
      const input = {
        bytes: page.body,
        contentType,
        baseUrl: page.finalUrl,
        withLinks: options.withLinks,
        explain: options.explain,
      };
      article = await extractor.readArticle(input);
    } catch (error) {
      // A page that defeats the extractor (time limit, parser crash) still gets the seed's raw fallback.
      if (!(error instanceof ExtractionError)) throw error;
    }
    // Only a finished extraction can say a page is empty: one that failed says so, with the raw body.
    if (article?.emptyOutcome) {
      return {
        ...base,
        title: article.title,
        raw,
        content: '',
        extractionFailed: false,
        outcome: article.emptyOutcome,
        hiddenBlocksDropped: article.hiddenBlocksDropped,
        ...(article.explain ? { explain: article.explain } : {}),
      };
    }
    const extractionFailed = article?.content === undefined;
    return {
      ...base,
      title: article?.title,
      raw,
      content: article?.content ?? raw,
      extractionFailed,
      outcome: 'ok',
      hiddenBlocksDropped: article?.hiddenBlocksDropped ?? 0,
      ...(article?.links ? { links: article.links } : {}),
      ...(article?.explain
        ? { explain: article.explain }
        : explainNote(options, 'extraction did not finish (time limit or parser failure): the raw body is returned')),
    };
  }

  // SPEC "Ask for Markdown first": the page's own Markdown twin, fetched through the same guard, cache and
  // queue. Any failure (refused address, 404, HTML instead of Markdown) falls back to extracting the HTML.
  async function readMarkdownTwin(
    url: string,
    options: LoadOptions,
  ): Promise<{ url: string; content: string } | undefined> {
    try {
      const { page } = await loadPage(url, options);
      const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
      if (kind !== 'markdown' && kind !== 'text') return undefined;
      const input = { bytes: page.body, contentType: page.headers['content-type'], twinUrl: page.finalUrl };
      const content = await extractor.readTwin(input);
      return content === undefined ? undefined : { url: page.finalUrl, content };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return undefined; // the twin is a bonus: the HTML page itself is still there to read
    }
  }

  return readPage;
}
