// Reading: a fetched snapshot → what a model reads. The kind is sniffed once and one reader per kind decides the
// content (read-html.ts, read-pdf.ts, read-text.ts, read-binary.ts); the fields every page has are set here, once
// (page-content.ts). All decoding, extraction and rendering runs in the worker pool, off the event loop. Loading the
// snapshot is load-page.ts's job.
//
// Output hygiene at the source (src/clean-text.ts): every reader's text is clean before a tool counts its tokens,
// cuts it at max_length or continues it at start_index, so the numbers an agent sees match the text it gets.
// Markdown and text the page wrote itself keep their words, but links to other schemes than http, https and mailto
// are made literal (src/formats/disarm-markdown.ts); extracted Markdown never has them (src/link-target.ts).
import type { FetchedPage } from '../fetch/types.js';
import { sniffContent, type ContentKind } from '../formats/sniff.js';
import type { Extractor } from '../workers/extractor.js';
import type { LoadPage } from './load-page.js';
import { pageContent, type KindFields, type PageContent, type ReadOptions } from './page-content.js';
import { readBinaryPage } from './read-binary.js';
import { readHtmlPage } from './read-html.js';
import { readPdfPage } from './read-pdf.js';
import { readTextPage } from './read-text.js';

export function createPageReader(
  extractor: Extractor,
  loadPage: LoadPage,
): (url: string, options?: ReadOptions) => Promise<PageContent> {
  function readKind(page: FetchedPage, kind: ContentKind, options: ReadOptions): Promise<KindFields> | KindFields {
    switch (kind) {
      case 'html':
        return readHtmlPage(page, options, extractor, loadPage);
      case 'pdf':
        return readPdfPage(page, extractor);
      case 'binary':
        return readBinaryPage(page);
      default:
        return readTextPage(page, kind, extractor);
    }
  }

  return async function readPage(url: string, options: ReadOptions = {}): Promise<PageContent> {
    const { page, fromCache } = await loadPage(url, options);
    const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
    const source = {
      url,
      finalUrl: page.finalUrl,
      httpStatus: page.status,
      mediaType: page.mediaType,
      kind,
      fromCache,
      byteLength: page.body.byteLength,
      fetchedAt: page.fetchedAt,
    };
    return pageContent(source, await readKind(page, kind, options));
  };
}
