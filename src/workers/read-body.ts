// What readPage needs from a fetched body, composed from the pure functions where they live, so that the worker
// pool runs it and the event loop only moves bytes and strings. On a 9 MB body, decoding, parsing a feed,
// pretty-printing JSON and output hygiene (src/clean-text.ts) held the main thread for 200–700 ms, and /healthz and
// every other call waited (issue 10). Every text returned here is already clean: the engine does not clean it again.
import { cleanStrings, cleanText } from '../clean-text.js';
import { looksScriptBuilt, outcomeOfHtml } from '../outcome.js';
import { parseFeed, renderFeed } from '../formats/feed.js';
import { htmlTitle } from '../formats/html-title.js';
import { readPdfText, renderPdf, type RenderedPdf } from '../formats/pdf.js';
import type { RenderedDocument } from '../formats/document.js';
import type { DocumentMetadata } from '../formats/document-xml.js';
import type { SheetCut } from '../formats/sheets.js';
import { findMarkdownTwin, markdownTwinNotice, type MarkdownSource } from '../formats/markdown-twin.js';
import { renderNonHtml } from '../formats/render-non-html.js';
import type { ContentKind } from '../formats/sniff.js';
import { extractArticle, type SectionFound } from '../extract/extract-article.js';
import type { SelectOptions } from '../extract/select.js';
import { extractLinks, pageTextLengthOf } from '../extract/links.js';
import { scrapeHtml, type ScrapedHtml } from '../extract/scrape.js';
import { extractStructuredData, type StructuredData, type StructuredDataOptions } from '../extract/structured-data.js';
import { rankSiteLinks, type ExtractedLinks, type LinkTargets } from '../extract/link-set.js';
import type { ExplainEntry } from '../extract/trace.js';
import { decodeBody } from '../fetch/decode.js';
import { disarmMarkdownLinks } from '../formats/disarm-markdown.js';
import { withTitleHeading } from '../extract/title-heading.js';
import { parseSitemap, type ParsedSitemap } from '../crawl/sitemap.js';

export interface TextBodyInput {
  readonly bytes: Uint8Array;
  /** The Content-Type header as the server sent it (its charset decides the decoding). */
  readonly contentType: string | undefined;
  /** A text kind other than html: feed, json, xml, markdown or text. */
  readonly kind: ContentKind;
  readonly mediaType: string;
  readonly finalUrl: string;
  /** Also a feed's entry links, for the tools that list links (SPEC "Content", feeds). */
  readonly linkList?: boolean;
}

export interface TextBody {
  /** The decoded body, clean. */
  readonly raw: string;
  /** What a model reads, clean; absent when it is `raw` itself (one copy of a big body crosses threads, not two). */
  readonly content?: string;
  /** A feed's title, clean. */
  readonly title?: string;
  /** The body is nothing but whitespace. */
  readonly empty: boolean;
  /** With `linkList`, for a feed: its entry links (an entry without a link is skipped). */
  readonly linkList?: ExtractedLinks;
}

/** A feed's entry links, as the link tools list them. */
function feedLinks(entries: readonly { readonly link: string; readonly title: string }[]): ExtractedLinks {
  const links = entries.filter((entry) => entry.link !== '').map((entry) => ({ url: entry.link, text: entry.title }));
  return { links: cleanStrings(links), hiddenBlocksDropped: 0 };
}

/** A body that is text but not HTML: a feed as Markdown, JSON pretty-printed, Markdown and text as they are. */
export function readTextBody(input: TextBodyInput): TextBody {
  const { text } = decodeBody(input.bytes, input.contentType);
  const feed = input.kind === 'feed' ? parseFeed(text, input.finalUrl) : undefined;
  const rendered = feed
    ? renderFeed(feed)
    : renderNonHtml({ kind: input.kind, mediaType: input.mediaType, text, byteLength: input.bytes.byteLength });
  const raw = cleanText(text);
  let content = rendered === text ? raw : cleanText(rendered);
  // Markdown and text the page wrote itself keep their words; links to other schemes than http, https and mailto
  // are made literal (src/formats/disarm-markdown.ts).
  if (input.kind === 'markdown' || input.kind === 'text') content = disarmMarkdownLinks(content);
  return {
    raw,
    ...(content === raw ? {} : { content }),
    ...(feed?.title ? { title: cleanText(feed.title) } : {}),
    empty: text.trim() === '',
    ...(input.linkList && feed && { linkList: feedLinks(feed.entries) }),
  };
}

export interface HtmlBodyInput {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  readonly finalUrl: string;
}

export interface HtmlBody {
  /** The decoded HTML, clean; '' from readHtmlWork with `withoutRaw`. */
  readonly raw: string;
  /** The decoded HTML's length in characters. */
  readonly rawLength: number;
  /** The <title>, clean (for a page whose Markdown twin is used instead of extraction). */
  readonly title?: string;
  /** The page's declared text/markdown alternate (SPEC "Ask for Markdown first"). */
  readonly twinUrl?: string;
}

/**
 * An HTML body decoded and clean, with its title and its Markdown twin: what a read whose work (readHtmlWork) was
 * stopped by the time limit still has, for the seed's raw fallback.
 */
export function readHtmlBody(input: HtmlBodyInput): HtmlBody {
  return htmlBodyOf(decodeBody(input.bytes, input.contentType).text, input.finalUrl);
}

function htmlBodyOf(html: string, finalUrl: string, withRaw = true): HtmlBody {
  const title = htmlTitle(html);
  const twinUrl = findMarkdownTwin(html, finalUrl);
  return {
    raw: withRaw ? cleanText(html) : '',
    rawLength: html.length,
    ...(title === undefined ? {} : { title: cleanText(title) }),
    ...(twinUrl === undefined ? {} : { twinUrl }),
  };
}

export interface TwinBodyInput {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  /** Where the twin was read from (after redirects), named in the notice above it. */
  readonly twinUrl: string;
  /** Who named the twin, for the notice; the page's own link by default. */
  readonly source?: MarkdownSource;
}

/** A Markdown twin's body under its notice, clean and disarmed; undefined when the twin is empty. */
export function readTwinBody(input: TwinBodyInput): string | undefined {
  const markdown = decodeBody(input.bytes, input.contentType).text.trim();
  if (markdown === '') return undefined;
  return disarmMarkdownLinks(cleanText(`${markdownTwinNotice(input.twinUrl, input.source)}\n\n${markdown}`));
}

/** What main-content extraction is asked for besides the content. */
export interface ArticleOptions {
  /** Where the page's links lead, from the same parse (the crawler). */
  readonly withLinks?: boolean;
  /** Also return extraction's trace (`--explain`, src/extract/trace.ts). */
  readonly explain?: boolean;
  /** `selector` and `exclude_selectors`: they replace main-content detection, or cut parts out before it. */
  readonly select?: SelectOptions;
  /** Only this section: a heading's text or `#n` (src/extract/section.ts). */
  readonly section?: string;
}

export interface ArticleContent {
  /** The title extraction found, clean. */
  readonly title?: string;
  /** The main content as Markdown under its title, clean; absent when extraction found no text (raw fallback). */
  readonly content?: string;
  /** The page has nothing for a reader, or only a JavaScript app shell (src/outcome.ts). */
  readonly emptyOutcome?: 'empty' | 'needs_js';
  /** Little text and heavy scripts (src/outcome.ts looksScriptBuilt): worth rendering under RENDER_JS=auto. */
  readonly scriptBuilt: boolean;
  readonly hiddenBlocksDropped: number;
  readonly links?: LinkTargets;
  /** With `explain`: each block extraction removed and why, the chosen block and its runners-up. */
  readonly explain?: ExplainEntry[];
  /** With `selector`: how many elements it matched (0: no content, and the tools say why). */
  readonly selectorMatched?: number;
  /** With `section`: the heading found, or the page's headings when none is that one. */
  readonly section?: SectionFound;
}

/** Main-content extraction of decoded HTML and what follows from it: the outcome, the title heading, hygiene. */
function articleOf(html: string, baseUrl: string, options: ArticleOptions): ArticleContent {
  const article = extractArticle(html, {
    baseUrl,
    withLinks: options.withLinks,
    explain: options.explain,
    ...(options.select && { select: options.select }),
    ...(options.section !== undefined && { section: options.section }),
  });
  const title = article.title === undefined ? {} : { title: cleanText(article.title) };
  const explain = article.explain ? { explain: article.explain } : {};
  // With a selector or a section, the page as a whole decides whether it is empty or a script shell: a selection
  // that is short, or matched nothing, says nothing about the page.
  const readable = article.pageTextLength ?? article.textLength;
  const emptyOutcome = outcomeOfHtml(html, readable);
  // Rendering is for a page whose HTML has little text at all, not for one whose main block is short.
  const pageReadable = () => article.pageTextLength ?? pageTextLengthOf(html, baseUrl);
  const scriptBuilt = looksScriptBuilt(html, readable, pageReadable);
  const hiddenBlocksDropped = article.hiddenBlocksDropped;
  const links = article.links ? { links: article.links } : {};
  if (emptyOutcome) return { ...title, emptyOutcome, scriptBuilt, hiddenBlocksDropped, ...links, ...explain };
  const selected = {
    ...(article.selectorMatched !== undefined && { selectorMatched: article.selectorMatched }),
    ...(article.section && { section: cleanStrings(article.section) }),
  };
  return {
    ...title,
    ...selected,
    scriptBuilt,
    ...(article.markdown.trim() === ''
      ? {}
      : // A section asked for opens with its own heading: it is what the caller reads, with no page title above.
        { content: cleanText(article.section ? article.markdown : withTitleHeading(article.markdown, article.title)) }),
    hiddenBlocksDropped,
    ...links,
    ...explain,
  };
}

/** What the caller wants from an HTML page, asked of one task so that its bytes cross to the worker once. */
export interface HtmlWorkInput {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  readonly baseUrl: string;
  /** Stop after decoding when the page declares a Markdown twin: the twin is read instead of the HTML. */
  readonly stopAtTwin?: boolean;
  /** Main-content extraction with these options (fetch, read_url, web, crawl). */
  readonly article?: ArticleOptions;
  /** Every visible link with its text (links, extract_links, web links mode, read_url's links, map). */
  readonly linkList?: boolean;
  /** With `linkList`: only the same-site links ranked, the first this many, and their total (ExtractedLinks.site). */
  readonly siteLinksLimit?: number;
  /** web_scraper's document, with the caller's selectors. */
  readonly scrape?: SelectOptions;
  /** The page's structured data (`structured_data`: JSON-LD, OpenGraph, microdata, RDFa, tables), also beside a twin. */
  readonly structuredData?: StructuredDataOptions;
  /**
   * The caller never reads the decoded HTML (ReadOptions.withoutRaw): `raw` comes back '' unless the article has no
   * content, whose fallback it is. A 9 MB page's HTML then does not cross back from the worker (issue 23).
   */
  readonly withoutRaw?: boolean;
}

export interface HtmlWork extends HtmlBody {
  /** Stopped at a twin, with the article's `withLinks`: where the page's links lead. */
  readonly links?: LinkTargets;
  /** Absent when the page's twin stopped the work (`stopAtTwin`) or none was asked for. */
  readonly article?: ArticleContent;
  readonly linkList?: ExtractedLinks;
  readonly scraped?: ScrapedHtml;
  /** With `structuredData`: what the page declares as data, clean ({} when it declares nothing). */
  readonly structuredData?: StructuredData;
  /** Nothing for a reader, or only a JavaScript app shell (src/outcome.ts outcomeOfHtml). */
  readonly emptyOutcome?: 'empty' | 'needs_js';
  /** Little text and heavy scripts (src/outcome.ts looksScriptBuilt): worth rendering under RENDER_JS=auto. */
  readonly scriptBuilt: boolean;
  readonly hiddenBlocksDropped: number;
}

/** A page's links, or with `siteLinksLimit` its ranked same-site links, cut where they are read (issue 23). */
function linksAsAsked(found: ExtractedLinks, input: HtmlWorkInput): ExtractedLinks {
  if (input.siteLinksLimit === undefined) return found;
  return { ...found, links: [], site: rankSiteLinks(found.links, input.baseUrl, input.siteLinksLimit) };
}

/**
 * An HTML page decoded once and read as the caller asked: its article, its links, web_scraper's document. The
 * outcome is decided from the readable characters the work found: the article's main content when an article is
 * read, else the visible text of the whole page (hidden blocks removed), which a page of links has too.
 */
export function readHtmlWork(input: HtmlWorkInput): HtmlWork {
  const { text: html } = decodeBody(input.bytes, input.contentType);
  const read = htmlBodyOf(html, input.baseUrl, !input.withoutRaw);
  const structuredData =
    input.structuredData && cleanStrings(extractStructuredData(html, input.baseUrl, input.structuredData));
  const body = structuredData ? { ...read, structuredData } : read;
  if (input.stopAtTwin && body.twinUrl !== undefined) {
    // A crawl still follows the links of a page read through its twin: from this parse, not another crossing.
    const found = input.article?.withLinks ? extractLinks(html, input.baseUrl) : undefined;
    const urls = found && [...new Set(found.links.map((link) => link.url))];
    const links = found && { urls: urls!, ...(found.canonicalUrl && { canonicalUrl: found.canonicalUrl }) };
    return { ...body, ...(links && { links }), scriptBuilt: false, hiddenBlocksDropped: 0 };
  }
  const article = input.article && articleOf(html, input.baseUrl, input.article);
  const linkList = input.linkList ? linksAsAsked(extractLinks(html, input.baseUrl), input) : undefined;
  const scraped = input.scrape ? scrapeHtml(html, input.baseUrl, input.scrape) : undefined;
  // The article's raw fallback (no content found) needs the HTML whatever the caller reads.
  const fallback = input.withoutRaw && article !== undefined && article.content === undefined;
  const work = {
    ...body,
    ...(fallback && { raw: cleanText(html) }),
    ...(linkList && { linkList }),
    ...(scraped && { scraped }),
  };
  if (article) {
    const { emptyOutcome, scriptBuilt, hiddenBlocksDropped } = article;
    return { ...work, article, ...(emptyOutcome && { emptyOutcome }), scriptBuilt, hiddenBlocksDropped };
  }
  const readable = scraped?.pageTextLength ?? linkList?.pageTextLength ?? 0;
  const emptyOutcome = outcomeOfHtml(html, readable);
  return {
    ...work,
    ...(emptyOutcome && { emptyOutcome }),
    scriptBuilt: looksScriptBuilt(html, readable),
    hiddenBlocksDropped: scraped?.hiddenBlocksDropped ?? linkList?.hiddenBlocksDropped ?? 0,
  };
}

/**
 * A sitemap's URLs (src/crawl/sitemap.ts): a site's file of up to MAX_RESPONSE_SIZE, read here rather than on the event
 * loop. Its text as read, or the bytes of a gzipped one unpacked (UTF-8, as the protocol requires).
 */
export function readSitemapBody(input: { readonly body: string | Uint8Array }): ParsedSitemap {
  const { body } = input;
  return parseSitemap(typeof body === 'string' ? body : decodeBody(body, 'application/xml; charset=utf-8').text);
}

export interface PdfBody extends RenderedPdf {
  /** The document's title, clean. */
  readonly title?: string;
  readonly pageCount: number;
  /** Each page's text ('' for a page with no text layer), only when some page has none: OCR reads those. */
  readonly pages?: readonly string[];
}

/** A PDF's text as Markdown, page by page, clean; or the reason it has none (src/formats/pdf.ts). */
export async function readPdfBody(input: { readonly bytes: Uint8Array }): Promise<PdfBody> {
  const pdf = await readPdfText(input.bytes);
  const rendered = renderPdf(pdf, input.bytes.byteLength);
  return {
    ...rendered,
    content: cleanText(rendered.content),
    ...(pdf.title === undefined ? {} : { title: cleanText(pdf.title) }),
    pageCount: pdf.pageCount,
    ...((pdf.problem === undefined || pdf.problem === 'no_text') &&
      pdf.pages.includes('') && { pages: pdf.pages.map((text) => cleanText(text)) }),
  };
}

export interface DocumentBody extends RenderedDocument {
  /** The document's title (its metadata's, else none), clean. */
  readonly title?: string;
  readonly format: string | undefined;
  /** Author and dates as the document declares them, clean. */
  readonly metadata: DocumentMetadata;
  readonly parts?: { readonly slides?: number; readonly sheets?: number; readonly chapters?: number };
  readonly cuts: readonly SheetCut[];
  /** Its links in order, and their unique targets (src/formats/document-links.ts). */
  readonly linkList: ExtractedLinks;
  readonly links: LinkTargets;
  /** With `scrape`: web_scraper's document of it. */
  readonly scraped?: ScrapedHtml;
}

export interface DocumentBodyInput {
  readonly bytes: Uint8Array;
  /** What relative links resolve against, and the page web_scraper's references are external to. */
  readonly baseUrl: string;
  readonly scrape?: boolean;
}

/**
 * An Office or e-book document as Markdown, clean; or why it has none (src/formats/document.ts). Its readers load
 * with the first document, not with every worker.
 */
export async function readDocumentBody(input: DocumentBodyInput): Promise<DocumentBody> {
  const [{ readDocument, renderDocument }, { documentLinks, documentScrape }] = await Promise.all([
    import('../formats/document.js'),
    import('../formats/document-links.js'),
  ]);
  const document = readDocument(input.bytes, input.baseUrl);
  const rendered = renderDocument(document, input.bytes.byteLength);
  const metadata = cleanStrings(document.metadata);
  const content = cleanText(rendered.content);
  const { title, ...declared } = metadata;
  const read = rendered.outcome === 'ok' ? content : '';
  return {
    ...rendered,
    content,
    ...(title === undefined ? {} : { title }),
    format: document.format,
    metadata: declared,
    ...(document.parts && { parts: document.parts }),
    cuts: document.cuts,
    ...documentLinks(read),
    ...(input.scrape && { scraped: documentScrape(read, input.baseUrl, metadata) }),
  };
}
