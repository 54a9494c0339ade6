// What readPage needs from a fetched body, composed from the pure functions where they live, so that the worker
// pool runs it and the event loop only moves bytes and strings. On a 9 MB body, decoding, parsing a feed,
// pretty-printing JSON and output hygiene (src/clean-text.ts) held the main thread for 200–700 ms, and /healthz and
// every other call waited (issue 10). Every text returned here is already clean: the engine does not clean it again.
import { cleanStrings, cleanText } from '../clean-text.js';
import { detectEmptyOutcome, looksScriptBuilt } from '../outcome.js';
import { feedEntries, parseFeed, renderFeed } from '../formats/feed.js';
import { htmlTitle } from '../formats/html-title.js';
import { readPdfText, renderPdf, type RenderedPdf } from '../formats/pdf.js';
import { findMarkdownTwin, markdownTwinNotice, type MarkdownSource } from '../formats/markdown-twin.js';
import { renderNonHtml } from '../formats/render-non-html.js';
import type { ContentKind } from '../formats/sniff.js';
import { extractArticle, type SectionFound } from '../extract/extract-article.js';
import type { SelectOptions } from '../extract/select.js';
import type { ExtractedLinks, LinkTargets } from '../extract/link-set.js';
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
  };
}

export interface HtmlBodyInput {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  readonly finalUrl: string;
}

export interface HtmlBody {
  /** The decoded HTML, clean. */
  readonly raw: string;
  /** The <title>, clean (for a page whose Markdown twin is used instead of extraction). */
  readonly title?: string;
  /** The page's declared text/markdown alternate (SPEC "Ask for Markdown first"). */
  readonly twinUrl?: string;
}

/**
 * An HTML body decoded and clean, with its title and its Markdown twin. Extraction (readArticle) decodes the bytes
 * again in its own task rather than receive the HTML from here: the main thread then passes bytes, never the HTML
 * string back and forth, and a page whose extraction is stopped still has its raw text for the fallback.
 */
export function readHtmlBody(input: HtmlBodyInput): HtmlBody {
  const { text: html } = decodeBody(input.bytes, input.contentType);
  const title = htmlTitle(html);
  const twinUrl = findMarkdownTwin(html, input.finalUrl);
  return {
    raw: cleanText(html),
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

export interface ArticleInput {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  readonly baseUrl: string;
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

/** Main-content extraction and what follows from it: the outcome, the title heading, output hygiene. */
export function readArticle(input: ArticleInput): ArticleContent {
  const { text: html } = decodeBody(input.bytes, input.contentType);
  const article = extractArticle(html, {
    baseUrl: input.baseUrl,
    withLinks: input.withLinks,
    explain: input.explain,
    ...(input.select && { select: input.select }),
    ...(input.section !== undefined && { section: input.section }),
  });
  const title = article.title === undefined ? {} : { title: cleanText(article.title) };
  const explain = article.explain ? { explain: article.explain } : {};
  // With a selector or a section, the page as a whole decides whether it is empty or a script shell: a selection
  // that is short, or matched nothing, says nothing about the page.
  const readable = article.pageTextLength ?? article.textLength;
  const emptyOutcome = detectEmptyOutcome(html, readable);
  const scriptBuilt = looksScriptBuilt(html, readable);
  const hiddenBlocksDropped = article.hiddenBlocksDropped;
  if (emptyOutcome) return { ...title, emptyOutcome, scriptBuilt, hiddenBlocksDropped, ...explain };
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
      : { content: cleanText(withTitleHeading(article.markdown, article.title)) }),
    hiddenBlocksDropped,
    ...(article.links ? { links: article.links } : {}),
    ...explain,
  };
}

/** A feed's entry links, for the tools that list links (SPEC "Content", feeds): an entry without a link is skipped. */
export function feedLinks(input: { readonly xml: string; readonly baseUrl: string }): ExtractedLinks {
  const links = feedEntries(input.xml, input.baseUrl)
    .filter((entry) => entry.link !== '')
    .map((entry) => ({ url: entry.link, text: entry.title }));
  return { links, hiddenBlocksDropped: 0 };
}

/**
 * A sitemap's URLs (src/crawl/sitemap.ts), the file decoded by its charset: a site's file of up to MAX_RESPONSE_SIZE,
 * read here rather than on the event loop.
 */
export function readSitemapBody(input: {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
}): ParsedSitemap {
  return parseSitemap(decodeBody(input.bytes, input.contentType).text);
}

export interface PdfBody extends RenderedPdf {
  /** The document's title, clean. */
  readonly title?: string;
  readonly pageCount: number;
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
  };
}
