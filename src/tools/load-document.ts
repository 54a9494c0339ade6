// The fetched snapshot of a page as text, for tools that work on the HTML itself (links, web links mode,
// extract_links, web_scraper) rather than on the extracted article. Same cache and queue as readPage.
import type { ContentKind } from '../content/sniff.js';
import { sniffContent } from '../content/sniff.js';
import type { Engine, LoadOptions } from '../engine.js';
import type { ExtractedLinks } from '../extract/links.js';
import type { FetchedPage } from '../fetch/types.js';

export interface LoadedDocument {
  readonly page: FetchedPage;
  readonly fromCache: boolean;
  readonly kind: ContentKind;
  /** The decoded body; '' for binary content and PDFs, which have no HTML to read. */
  readonly text: string;
}

export async function loadDocument(engine: Engine, url: string, options: LoadOptions = {}): Promise<LoadedDocument> {
  const { page, fromCache } = await engine.loadPage(url, options);
  const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
  // Decoding a body of megabytes takes tens of milliseconds: the worker pool does it, not the event loop.
  const text = kind === 'binary' || kind === 'pdf' ? '' : await engine.decodeText(page);
  return { page, fromCache, kind, text };
}

/** Whether the document has links to list: HTML pages and feeds (whose entries are its links). */
export function hasLinks(document: LoadedDocument): boolean {
  return document.kind === 'html' || document.kind === 'feed';
}

/** The links of a loaded document: an HTML page's anchors, or a feed's entry links (SPEC "Content", feeds). */
export async function documentLinks(engine: Engine, document: LoadedDocument): Promise<ExtractedLinks> {
  if (document.kind === 'html') return engine.extractLinks(document.text, document.page.finalUrl);
  if (document.kind === 'feed') return engine.extractFeedLinks(document.text, document.page.finalUrl);
  return { links: [], hiddenBlocksDropped: 0 };
}
