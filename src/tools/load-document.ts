// The fetched snapshot of a page as text, for tools that work on the HTML itself (links, web links mode,
// extract_links, web_scraper) rather than on the extracted article. Same cache and queue as readPage.
import type { ContentKind } from '../formats/sniff.js';
import { sniffContent } from '../formats/sniff.js';
import type { Engine } from '../engine/engine.js';
import type { LoadOptions } from '../engine/load-page.js';
import { isSameSite, rankLinks, type ExtractedLinks, type RankedLink } from '../extract/link-set.js';
import type { FetchedPage } from '../fetch/types.js';
import { ageSeconds } from '../output/page-text.js';
import { detectEmptyOutcome, looksScriptBuilt, type Outcome } from '../outcome.js';
import type { RenderOptions, RenderSkipped, StaticRead } from '../engine/render-step.js';

export interface LoadedDocument {
  readonly page: FetchedPage;
  readonly fromCache: boolean;
  readonly kind: ContentKind;
  /** The decoded body; '' for binary content and PDFs, which have no HTML to read. */
  readonly text: string;
  /** The DOM of a browser that ran the page's scripts. */
  readonly rendered?: boolean;
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

export interface SiteLinks {
  readonly document: LoadedDocument;
  /** Same-site links, ranked (frequency, then first appearance). */
  readonly links: RankedLink[];
  readonly hiddenBlocksDropped: number;
  /** Why there is nothing to list, when `links` is empty: a script shell, an empty page, not HTML. */
  readonly emptyOutcome: Outcome;
  /** A script shell that was not rendered: why. */
  readonly renderSkipped?: RenderSkipped;
}

/**
 * After a static read of an HTML document: the document rendered in a browser when the render rule says so
 * (src/engine/render-step.ts), else the same document and why it was not rendered.
 */
export async function renderDocument(
  engine: Engine,
  document: LoadedDocument,
  staticRead: StaticRead,
  options: RenderOptions,
): Promise<{ document: LoadedDocument; skipped?: RenderSkipped }> {
  if (document.kind !== 'html') return { document };
  const attempt = await engine.renderAfter(document.page.url, staticRead, options);
  if (!attempt.loaded) return { document, ...(attempt.skipped && { skipped: attempt.skipped }) };
  const { page } = attempt.loaded;
  return { document: { page, fromCache: false, kind: 'html', text: await engine.decodeText(page), rendered: true } };
}

/**
 * Fetches a page (through the cache and queue) and ranks its same-site links; shared with the `web` tool, which
 * passes `rendering` (its render arguments) so that a script-built page is listed from its rendered DOM.
 */
export async function readSiteLinks(
  engine: Engine,
  url: string,
  options: LoadOptions,
  rendering?: RenderOptions,
): Promise<SiteLinks> {
  const loaded = await loadDocument(engine, url, options);
  if (!hasLinks(loaded)) {
    return { document: loaded, links: [], hiddenBlocksDropped: 0, emptyOutcome: 'not_html' };
  }
  const listed = await siteLinksOf(engine, loaded);
  if (!rendering) return listed;
  const outcome = listed.links.length > 0 ? 'ok' : listed.emptyOutcome;
  const staticRead = { outcome, scriptBuilt: listed.links.length === 0 && looksScriptBuilt(loaded.text, 0) };
  const { document, skipped } = await renderDocument(engine, loaded, staticRead, { ...options, ...rendering });
  if (document === loaded) return { ...listed, ...(skipped && { renderSkipped: skipped }) };
  return siteLinksOf(engine, document);
}

async function siteLinksOf(engine: Engine, document: LoadedDocument): Promise<SiteLinks> {
  const { finalUrl } = document.page;
  const found = await documentLinks(engine, document);
  const links = rankLinks(found.links.filter((link) => isSameSite(link.url, finalUrl)));
  const emptyOutcome = detectEmptyOutcome(document.text, 0) ?? 'empty';
  return { document, links, hiddenBlocksDropped: found.hiddenBlocksDropped, emptyOutcome };
}

/** The fields every link-listing result carries about the page the links were read from. */
export function siteLinksSummary(url: string, site: SiteLinks): Record<string, unknown> {
  const { page, fromCache } = site.document;
  return {
    url,
    final_url: page.finalUrl,
    http_status: page.status,
    from_cache: fromCache,
    age_seconds: ageSeconds(page.fetchedAt),
    rendered: site.document.rendered ?? false,
    hidden_blocks_dropped: site.hiddenBlocksDropped,
    fetched_at: page.fetchedAt.toISOString(),
  };
}
