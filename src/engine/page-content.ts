// What reading returns: the page's common fields, stated once, and the fields a reader of one kind decides.
import type { ExplainEntry } from '../extract/trace.js';
import type { SectionFound } from '../extract/extract-article.js';
import type { ExtractedLinks, LinkTargets } from '../extract/link-set.js';
import type { ScrapedHtml } from '../extract/scrape.js';
import type { StructuredData, StructuredDataOptions } from '../extract/structured-data.js';
import type { QueryAnswer } from '../extract/rank-passages.js';
import type { PageDiff } from '../extract/page-diff.js';
import type { ContentKind } from '../formats/sniff.js';
import type { Outcome } from '../outcome.js';
import type { MarkdownSource } from '../formats/markdown-twin.js';
import type { Screenshot } from '../browser/index.js';
import type { RenderOptions, RenderSkipped } from './render-step.js';
import type { ActionResult } from '../browser/page-actions.js';

/**
 * What the caller reads of an HTML page: its main content (`article`, the default), its links with their text
 * (`links`), or web_scraper's document (`scrape`). Other kinds are read the same whatever is wanted; a feed gives its
 * entry links when links are wanted.
 */
export type Wanted = 'article' | 'links' | 'scrape';

export interface ReadOptions extends RenderOptions {
  readonly want?: Wanted;
  /**
   * The body as the server sent it is what the caller reads (fetch `raw`, web raw mode): no Markdown twin is
   * requested, since it would not be read.
   */
  readonly raw?: boolean;
  /**
   * The caller never reads `raw` (fetch and web not in raw mode, the link tools, read_url, web_scraper without
   * include_html): an HTML page's `raw` is
   * '' unless it is the content (extraction found none), so that a big page's HTML is not carried back from the
   * extraction worker only to be dropped.
   */
  readonly withoutRaw?: boolean;
  /**
   * With `want: 'links'`: only the page's same-site links, ranked, the first this many, and their total
   * (`linkList.site`, link-set.ts rankSiteLinks) — all a caller that shows no more needs (the links tool's
   * max_links). HTML only; a feed's links come whole.
   */
  readonly siteLinksLimit?: number;
  /** With the article: also every visible link with its text (`linkList`), from the same crossing (read_url). */
  readonly withLinkList?: boolean;
  /** Also list an HTML page's links, from the same parse as its content (the crawler). */
  readonly withLinks?: boolean;
  /**
   * Also return extraction's trace as `explain` (`--explain`). The page cache holds fetched bytes, not extraction
   * results, and every read extracts again: a cached page is explained as fully as a fresh one.
   */
  readonly explain?: boolean;
  /** CSS: read only the elements this matches (in document order), without main-content detection (HTML only). */
  readonly selector?: string;
  /** CSS selectors of elements removed before extraction (HTML only; at most 20, each at most 500 characters). */
  readonly excludeSelectors?: readonly string[];
  /**
   * Only one section of an HTML page: a heading's text (case-insensitive, whitespace-normalised) or `#n`, the n-th
   * heading of web_scraper's outline. Not found: InvalidArgumentError naming `section`, listing the headings.
   */
  readonly section?: string;
  /**
   * Only the passages of the Markdown that best answer this query, ranked, each under its heading path (`answer`);
   * within `section` when both are given. Not with `raw`.
   */
  readonly query?: string;
  /**
   * What changed since an earlier read (fetch `since`, issue 28 item 4): `last`, the last snapshot of this page read
   * this way, or a snapshot id an earlier result named (`changes`). Not with `raw` or `query`.
   */
  readonly since?: string;
  /**
   * Also what an HTML page declares as data (`structured_data`, issue 28 item 3): JSON-LD, OpenGraph and Twitter
   * tags, microdata and RDFa Lite items, data tables (src/extract/structured-data.ts). Other kinds have none.
   */
  readonly structuredData?: StructuredDataOptions;
}

/** A read compared with an earlier snapshot of it (fetch `since`): src/engine/page-changes.ts. */
export interface PageChanges {
  /**
   * `first`: no earlier snapshot of this reading; `expired`: the snapshot asked for is no longer kept; `unchanged`,
   * `changed`: compared with it; `not_kept`: a read with the caller's headers, which keeps no snapshot.
   */
  readonly status: 'first' | 'expired' | 'unchanged' | 'changed' | 'not_kept';
  /** This read's snapshot, to pass as `since` later; absent when not kept. */
  readonly snapshotId?: string;
  /** The snapshot compared with (`unchanged`, `changed`), or the one asked for (`expired`). */
  readonly sinceId?: string;
  /** When the snapshot compared with was taken (epoch ms). */
  readonly sinceTakenAt?: number;
  /** `changed`: the unified diff of the Markdown, bounded (src/extract/page-diff.ts). */
  readonly diff?: PageDiff;
}

/** An Office or e-book document: its format and media type, its metadata, its parts and cuts (its reader: `reader`). */
export interface DocumentFacts {
  /** docx, xlsx, pptx, odt, ods, odp, epub or rtf; absent when the package named no part we read. */
  readonly format?: string;
  /** The format's media type, whatever the server said. */
  readonly mediaType?: string;
  readonly author?: string;
  readonly created?: string;
  readonly modified?: string;
  readonly slides?: number;
  readonly sheets?: number;
  readonly chapters?: number;
  /** Sheets cut at the row or column cap (src/formats/sheets.ts), with the rows shown and the rows there are. */
  readonly cutSheets?: readonly { readonly sheet: string; readonly shownRows: number; readonly totalRows?: number }[];
}

/** The fields every page has whatever its kind: where it came from and how it was fetched. read-page.ts sets them. */
export interface PageSource {
  readonly url: string;
  readonly finalUrl: string;
  readonly httpStatus: number;
  readonly mediaType: string;
  /** The Content-Type header as the server sent it, parameters included; absent when it sent none. */
  readonly contentType?: string;
  readonly kind: ContentKind;
  readonly fromCache: boolean;
  /** Read from a browser's DOM after the page's scripts ran (render-step.ts), not from the bytes the server sent. */
  readonly rendered: boolean;
  readonly byteLength: number;
  readonly fetchedAt: Date;
}

/** What a reader of one kind decides (read-html.ts, read-pdf.ts, read-text.ts, read-binary.ts). */
export interface KindFields {
  readonly title: string | undefined;
  /** What a model reads: Markdown of the main content, pretty JSON, text as is, or a one-line status. */
  readonly content: string;
  readonly outcome: Exclude<Outcome, 'error'>;
  /** The decoded body as the server sent it; '' (the default) for binary content and PDF. */
  readonly raw?: string;
  /** HTML: the decoded page's length in characters, also when `raw` was not asked for (web_scraper's content_length). */
  readonly rawLength?: number;
  /** Main-content extraction found nothing usable; `content` is the raw body (seed fallback). Default false. */
  readonly extractionFailed?: boolean;
  /** Blocks extraction dropped as hidden. Default 0. */
  readonly hiddenBlocksDropped?: number;
  /** PDF only: the number of pages in the document. */
  readonly pageCount?: number;
  /**
   * Who read the text, for the kinds with more than one reader (issue 27): `ocr` for an image or a scanned PDF, and
   * for an Office or e-book file which of ours (src/formats/document.ts READERS: ooxml-word, odf-sheets, epub-spine…).
   */
  readonly reader?: string;
  /** Read by OCR: the languages it was read in (OCR_LANGUAGES, "eng+deu"). */
  readonly ocrLanguages?: string;
  /** A PDF read partly by OCR: how many pages were. */
  readonly ocrPages?: number;
  /** A PDF whose OCR was cut at its deadline: the pages not read (the content says which). */
  readonly pagesNotRead?: number;
  /** Office and e-book files only: what the document is, who read it, what it declares (read-document.ts). */
  readonly document?: DocumentFacts;
  /** HTML whose declared text/markdown alternate was fetched and used instead of extraction. */
  readonly markdownTwinUrl?: string;
  /** Who named the twin: the page's `<link rel="alternate">` or the site's /llms.txt. */
  readonly markdownSource?: MarkdownSource;
  /** For an outcome other than ok: why, in words the agent reads (an encrypted or image-only PDF). */
  readonly statusDetail?: string;
  /** HTML: little text and heavy scripts (src/outcome.ts looksScriptBuilt), worth rendering under `auto`. */
  readonly scriptBuilt?: boolean;
  /** HTML the static read could not read and that was not rendered: why. */
  readonly renderSkipped?: RenderSkipped;
  /** With `withLinks`, for HTML: where its visible links lead, and rel=canonical. */
  readonly links?: LinkTargets;
  /**
   * With `want: 'links'` or `withLinkList`: every visible link of an HTML page with its text, in document order, or
   * a feed's entry links; absent for kinds that have no links.
   */
  readonly linkList?: ExtractedLinks;
  /** With `want: 'scrape'`, for HTML: web_scraper's document (text with [n] markers, references, outline). */
  readonly scraped?: ScrapedHtml;
  /**
   * With `explain`, for HTML: each block extraction removed and why, the chosen block and its runners-up, the retry
   * and fallback passes (src/extract/trace.ts); a note instead when a Markdown twin was read or extraction failed.
   * Absent for other kinds, which are not extracted.
   */
  readonly explain?: readonly ExplainEntry[];
  /** With `selector`, for HTML whose content was extracted: how many elements it matched (0: `content` is ''). */
  readonly selectorMatched?: number;
  /** With `section`, for HTML: the heading found (its `#n`), or the headings there are when none is that one. */
  readonly section?: SectionFound;
  /**
   * With `query`, for a page read `ok` with content: the passages that best answer it, best first (`content` stays the
   * whole text, so its size can be told).
   */
  readonly answer?: QueryAnswer;
  /** With `since`, for a page read `ok`: what changed since the snapshot, and this read's own snapshot. */
  readonly changes?: PageChanges;
  /** With `screenshot`, for HTML: the rendered page's picture (src/browser/take-screenshot.ts). */
  readonly screenshot?: Screenshot;
  /** With `actions`, for a rendered HTML page: what became of each action, in order (src/browser/run-actions.ts). */
  readonly actions?: readonly ActionResult[];
  /** With `structuredData`, for HTML that was read (not a failed extraction): its data, {} when it declares none. */
  readonly structuredData?: StructuredData;
}

export type PageContent = PageSource &
  Required<Pick<KindFields, 'raw' | 'extractionFailed' | 'hiddenBlocksDropped'>> &
  Omit<KindFields, 'raw' | 'extractionFailed' | 'hiddenBlocksDropped'>;

/** The one place a page's fields are put together: the source, a reader's fields, and the defaults for the rest. */
export function pageContent(source: PageSource, fields: KindFields): PageContent {
  return { ...source, raw: '', extractionFailed: false, hiddenBlocksDropped: 0, ...fields };
}
