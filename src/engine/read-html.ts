// HTML: the page's own Markdown twin when it declares one (SPEC "Ask for Markdown first"), else main-content
// extraction in the worker pool, with the seed's raw fallback when extraction cannot finish.
import { ExtractionError } from '../errors.js';
import type { ExplainEntry } from '../extract/trace.js';
import type { FetchedPage } from '../fetch/types.js';
import type { MarkdownSource } from '../formats/markdown-twin.js';
import { sniffContent } from '../formats/sniff.js';
import type { Extractor } from '../workers/extractor.js';
import type { ArticleContent, HtmlBody, HtmlWork, HtmlWorkInput } from '../workers/read-body.js';
import type { LoadOptions, LoadPage } from './load-page.js';
import type { KindFields, ReadOptions } from './page-content.js';
import type { LlmsTxtIndex } from './llms-txt-index.js';

// --explain's notes for a read that ran no extraction (trace reasons, beside extraction's own in src/extract/).
const DECLARED_TWIN_READ = 'the page declares a Markdown version, which was read instead: no extraction ran';
const LLMS_TXT_TWIN_READ =
  "the site's /llms.txt lists a Markdown version of the page, which was read instead: no extraction ran";
const EXTRACTION_DID_NOT_FINISH = 'extraction did not finish (time limit or parser failure): the raw body is returned';

/** An explanation that is one note, for a read that ran no extraction; nothing when none was asked for. */
function explainNote(options: ReadOptions, reason: string): { explain?: ExplainEntry[] } {
  return options.explain ? { explain: [{ phase: 'fallback', action: 'note', reason }] } : {};
}

/** The HTML work the caller's wants ask of the worker, in one crossing (src/workers/read-body.ts readHtmlWork). */
function wantedWork(options: ReadOptions, isPartOf: boolean): Omit<HtmlWorkInput, 'bytes' | 'contentType' | 'baseUrl'> {
  const data = options.structuredData && { structuredData: options.structuredData };
  return { ...wantedReading(options, isPartOf), ...data };
}

function wantedReading(
  options: ReadOptions,
  isPartOf: boolean,
): Omit<HtmlWorkInput, 'bytes' | 'contentType' | 'baseUrl'> {
  const select = { selector: options.selector, excludeSelectors: options.excludeSelectors };
  switch (options.want ?? 'article') {
    case 'links':
      return {
        linkList: true,
        ...(options.siteLinksLimit !== undefined && { siteLinksLimit: options.siteLinksLimit }),
      };
    case 'scrape':
      return { scrape: select };
    case 'article':
      return {
        article: {
          withLinks: options.withLinks,
          explain: options.explain,
          ...(isPartOf && { select, section: options.section }),
        },
        ...(options.withLinkList && { linkList: true }),
      };
  }
}

export async function readHtmlPage(
  page: FetchedPage,
  options: ReadOptions,
  extractor: Extractor,
  loadPage: LoadPage,
  llmsTxt?: LlmsTxtIndex,
): Promise<KindFields> {
  const contentType = page.headers['content-type'];
  // Selectors and sections name parts of this HTML: the page's Markdown twin is another document, not read then;
  // nor for a raw read, the page's links or web_scraper's document, which are of the HTML itself.
  const isPartOf =
    options.selector !== undefined || !!options.excludeSelectors?.length || options.section !== undefined;
  const twins = (options.want ?? 'article') === 'article' && !options.raw && !isPartOf;
  const input = {
    bytes: page.body,
    contentType,
    baseUrl: page.finalUrl,
    ...wantedWork(options, isPartOf),
    ...(options.withoutRaw && { withoutRaw: true }),
  };
  let work: HtmlWork | undefined;
  try {
    work = await extractor.readHtmlWork({ ...input, stopAtTwin: twins });
  } catch (error) {
    // A page that defeats the extractor (time limit, parser crash) still gets the seed's raw fallback; a list of
    // links or a scraper document has none.
    if (!(error instanceof ExtractionError) || input.article === undefined) throw error;
  }
  const body = work ?? (await extractor.readHtml({ bytes: page.body, contentType, finalUrl: page.finalUrl }));
  if (work && twins) {
    // The page's own declaration first (the work stopped at it); the site's /llms.txt only when the page names no
    // twin it could read, asked after the page was read (a listed twin read replaces the extraction).
    const declared =
      work.twinUrl === undefined ? undefined : await readMarkdownTwin(work.twinUrl, options, extractor, loadPage);
    const twin =
      declared ?? (llmsTxt ? await readLlmsTxtTwin(page.finalUrl, options, extractor, loadPage, llmsTxt) : undefined);
    if (twin) return twinFields(work, twin, options);
    if (work.article === undefined) work = await extractedOrNot(extractor, input);
  }
  if (!work) return failedFields(body, options);
  const { raw, rawLength, title } = work;
  const common = {
    raw,
    rawLength,
    hiddenBlocksDropped: work.hiddenBlocksDropped,
    scriptBuilt: work.scriptBuilt,
    ...(work.linkList && { linkList: work.linkList }),
    ...(work.structuredData && { structuredData: work.structuredData }),
  };
  if (!work.article) {
    const scraped = work.scraped;
    return {
      title: scraped?.metadata.title ?? title,
      content: scraped?.text ?? '',
      outcome: work.emptyOutcome ?? 'ok',
      ...common,
      ...(scraped && { scraped }),
      ...(scraped?.selectorMatched !== undefined && { selectorMatched: scraped.selectorMatched }),
    };
  }
  return articleFields(work.article, common);
}

/** The work without stopping at a twin (the twin could not be read); undefined when extraction failed. */
async function extractedOrNot(extractor: Extractor, input: HtmlWorkInput): Promise<HtmlWork | undefined> {
  try {
    return await extractor.readHtmlWork(input);
  } catch (error) {
    if (!(error instanceof ExtractionError)) throw error;
    return undefined;
  }
}

function twinFields(
  body: HtmlWork,
  twin: { url: string; content: string; source: MarkdownSource },
  options: ReadOptions,
): KindFields {
  return {
    title: body.title,
    raw: body.raw,
    content: twin.content,
    outcome: 'ok',
    ...((body.links ?? body.article?.links) && { links: body.links ?? body.article?.links }),
    markdownTwinUrl: twin.url,
    markdownSource: twin.source,
    // The data is the HTML page's, read beside the twin that stands for its text.
    ...(body.structuredData && { structuredData: body.structuredData }),
    ...explainNote(options, twin.source === 'llms.txt' ? LLMS_TXT_TWIN_READ : DECLARED_TWIN_READ),
  };
}

/** Extraction did not finish (time limit, parser failure): the seed's raw fallback. */
function failedFields(body: HtmlBody, options: ReadOptions): KindFields {
  return {
    title: undefined,
    raw: body.raw,
    content: body.raw,
    extractionFailed: true,
    outcome: 'ok',
    ...explainNote(options, EXTRACTION_DID_NOT_FINISH),
  };
}

function articleFields(
  article: ArticleContent,
  common: Pick<KindFields, 'raw' | 'rawLength' | 'hiddenBlocksDropped' | 'scriptBuilt' | 'linkList' | 'structuredData'>,
): KindFields {
  const explained = article.explain ? { explain: article.explain } : {};
  const links = article.links ? { links: article.links } : {};
  // Only a finished extraction can say a page is empty: one that failed says so, with the raw body.
  if (article.emptyOutcome) {
    return { title: article.title, content: '', outcome: article.emptyOutcome, ...common, ...links, ...explained };
  }
  // A selector that matched nothing, or a section not found, leaves no content: not an extraction failure.
  const isChosenEmpty = article.selectorMatched !== undefined || article.section !== undefined;
  return {
    title: article.title,
    content: article.content ?? (isChosenEmpty ? '' : (common.raw ?? '')),
    extractionFailed: article.content === undefined && !isChosenEmpty,
    ...(article.selectorMatched !== undefined && { selectorMatched: article.selectorMatched }),
    ...(article.section && { section: article.section }),
    outcome: 'ok',
    ...common,
    ...links,
    ...explained,
  };
}

// The page's own Markdown twin, fetched through the same guard, cache and queue. Any failure (refused address, 404,
// HTML instead of Markdown) falls back to extracting the HTML.
async function readMarkdownTwin(
  url: string,
  options: LoadOptions,
  extractor: Extractor,
  loadPage: LoadPage,
  source: MarkdownSource = 'link-alternate',
): Promise<{ url: string; content: string; source: MarkdownSource } | undefined> {
  try {
    const { page } = await loadPage(url, options);
    const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
    if (kind !== 'markdown' && kind !== 'text') return undefined;
    // llms.txt names only twins on the page's own origin (formats/llms-txt.ts); a redirect must not leave it either.
    if (source === 'llms.txt' && new URL(page.finalUrl).origin !== new URL(url).origin) return undefined;
    const input = { bytes: page.body, contentType: page.headers['content-type'], twinUrl: page.finalUrl, source };
    const content = await extractor.readTwin(input);
    return content === undefined ? undefined : { url: page.finalUrl, content, source };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return undefined; // the twin is a bonus: the HTML page itself is still there to read
  }
}

// The twin the site's /llms.txt names for the page (llms-txt-index.ts), read as a declared one is. One that cannot
// be read is remembered, so that a wrong listing or guess costs one request per site-file TTL, not one per read. The
// lookup goes out as this read's User-Agent (the crawler's in a crawl).
async function readLlmsTxtTwin(
  pageUrl: string,
  options: LoadOptions,
  extractor: Extractor,
  loadPage: LoadPage,
  llmsTxt: LlmsTxtIndex,
): Promise<{ url: string; content: string; source: MarkdownSource } | undefined> {
  const listed = llmsTxt.knownTwinFor(pageUrl, options.userAgent);
  if (!listed) return undefined;
  const twin = await readMarkdownTwin(listed.url, options, extractor, loadPage, 'llms.txt');
  if (!twin) llmsTxt.markMissing(listed.url);
  return twin;
}
