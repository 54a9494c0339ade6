// HTML: the page's own Markdown twin when it declares one (SPEC "Ask for Markdown first"), else main-content
// extraction in the worker pool, with the seed's raw fallback when extraction cannot finish.
import { ExtractionError } from '../errors.js';
import type { ExplainEntry } from '../extract/trace.js';
import type { FetchedPage } from '../fetch/types.js';
import type { MarkdownSource } from '../formats/markdown-twin.js';
import { sniffContent } from '../formats/sniff.js';
import type { Extractor } from '../workers/extractor.js';
import type { ArticleContent } from '../workers/read-body.js';
import type { LoadOptions, LoadPage } from './load-page.js';
import type { KindFields, ReadOptions } from './page-content.js';
import type { LlmsTxtIndex } from './llms-txt-index.js';

/** An explanation that is one note, for a read that ran no extraction; nothing when none was asked for. */
function explainNote(options: ReadOptions, reason: string): { explain?: ExplainEntry[] } {
  return options.explain ? { explain: [{ phase: 'fallback', action: 'note', reason }] } : {};
}

export async function readHtmlPage(
  page: FetchedPage,
  options: ReadOptions,
  extractor: Extractor,
  loadPage: LoadPage,
  llmsTxt?: LlmsTxtIndex,
): Promise<KindFields> {
  const contentType = page.headers['content-type'];
  const html = await extractor.readHtml({ bytes: page.body, contentType, finalUrl: page.finalUrl });
  const raw = html.raw;
  // Selectors and sections name parts of this HTML: the page's Markdown twin is another document, not read then.
  const isPartOf =
    options.selector !== undefined || !!options.excludeSelectors?.length || options.section !== undefined;
  // A raw read returns the page's own body: no twin is asked for.
  const wantsTwin = !isPartOf && !options.skipTwin;
  const declared =
    html.twinUrl === undefined || !wantsTwin
      ? undefined
      : await readMarkdownTwin(html.twinUrl, options, extractor, loadPage);
  // The page's own declaration first; the site's /llms.txt only when the page names no twin it could read.
  const twin =
    declared ??
    (llmsTxt && wantsTwin ? await readLlmsTxtTwin(page.finalUrl, options, extractor, loadPage, llmsTxt) : undefined);
  if (twin) {
    return {
      title: html.title,
      raw,
      content: twin.content,
      outcome: 'ok',
      markdownTwinUrl: twin.url,
      markdownSource: twin.source,
      ...explainNote(
        options,
        twin.source === 'llms.txt'
          ? "the site's /llms.txt lists a Markdown version of the page, which was read instead: no extraction ran"
          : 'the page declares a Markdown version, which was read instead: no extraction ran',
      ),
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
      ...(isPartOf && {
        select: { selector: options.selector, excludeSelectors: options.excludeSelectors },
        section: options.section,
      }),
    };
    article = await extractor.readArticle(input);
  } catch (error) {
    // A page that defeats the extractor (time limit, parser crash) still gets the seed's raw fallback.
    if (!(error instanceof ExtractionError)) throw error;
  }
  // Only a finished extraction can say a page is empty: one that failed says so, with the raw body.
  if (article?.emptyOutcome) {
    return {
      title: article.title,
      raw,
      content: '',
      outcome: article.emptyOutcome,
      hiddenBlocksDropped: article.hiddenBlocksDropped,
      scriptBuilt: article.scriptBuilt,
      ...(article.explain ? { explain: article.explain } : {}),
    };
  }
  // A selector that matched nothing, or a section not found, leaves no content: not an extraction failure.
  const isChosenEmpty = article?.selectorMatched !== undefined || article?.section !== undefined;
  const selected = {
    ...(article?.selectorMatched !== undefined && { selectorMatched: article.selectorMatched }),
    ...(article?.section && { section: article.section }),
  };
  return {
    title: article?.title,
    raw,
    content: article?.content ?? (isChosenEmpty ? '' : raw),
    extractionFailed: article?.content === undefined && !isChosenEmpty,
    ...selected,
    outcome: 'ok',
    hiddenBlocksDropped: article?.hiddenBlocksDropped ?? 0,
    scriptBuilt: article?.scriptBuilt ?? false,
    ...(article?.links ? { links: article.links } : {}),
    ...(article?.explain
      ? { explain: article.explain }
      : explainNote(options, 'extraction did not finish (time limit or parser failure): the raw body is returned')),
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
// be read is remembered, so that a wrong listing or guess costs one request per CACHE_TTL, not one per read.
async function readLlmsTxtTwin(
  pageUrl: string,
  options: LoadOptions,
  extractor: Extractor,
  loadPage: LoadPage,
  llmsTxt: LlmsTxtIndex,
): Promise<{ url: string; content: string; source: MarkdownSource } | undefined> {
  const listed = llmsTxt.knownTwinFor(pageUrl);
  if (!listed) return undefined;
  const twin = await readMarkdownTwin(listed.url, options, extractor, loadPage, 'llms.txt');
  if (!twin) llmsTxt.markMissing(listed.url);
  return twin;
}
