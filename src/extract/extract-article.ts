// HTML → Article: parse, read metadata, drop hidden blocks, find the main content, render it as Markdown.
// Pure (no network, no config, no clock) so a worker thread can run it with nothing but the HTML and the URL.
import { renderMarkdown } from './markdown.js';
import { removeHidden } from './clean-hidden.js';
import { listLinkTargets, readCanonicalUrl, type LinkTargets } from './links.js';
import { visibleTextLength } from './block-stats.js';
import { findMainContent } from './main-content.js';
import { stripShortcodes } from './shortcodes.js';
import { parsePage } from './parse-page.js';
import { parseHtml } from './parse.js';
import { traceNote, type ExplainEntry, type ExtractTrace } from './trace.js';

export interface Article {
  /** `og:title`, else `<title>` without the site name, else the first `<h1>`. */
  title: string | undefined;
  /** `<html lang>`. */
  lang: string | undefined;
  /** GitHub-flavoured Markdown of the main content; '' when the page has no visible text at all. */
  markdown: string;
  /** Characters of visible text in the main content (whitespace collapsed). */
  textLength: number;
  /** Hidden elements removed before extraction (prompt-injection defence, SPEC "Beyond the seeds"). */
  hiddenBlocksDropped: number;
  /** True when main-content detection failed and the whole cleaned body was rendered instead. */
  usedFallback: boolean;
  /** With `withLinks`: where the page's visible links lead, and its canonical URL, from the same parse. */
  links?: LinkTargets;
  /** With `explain`: every block removed and why, the chosen block and its runners-up, the retry and fallback. */
  explain?: ExplainEntry[];
}

export interface ExtractArticleOptions {
  /** The page's final URL after redirects; `<base href>` is resolved against it. */
  readonly baseUrl: string;
  /** Also list where the page's links lead (the crawler needs both; one parse instead of two). */
  readonly withLinks?: boolean;
  /** Record each decision (src/extract/trace.ts) and return them as `explain`; off, it costs nothing. */
  readonly explain?: boolean;
}

// Readability's retry rule, simplified: a first pass that found less than this much text probably threw the content
// away with the boilerplate, so a second pass keeps blocks whose class only looks like boilerplate, and <noscript>.
const RETRY_BELOW_CHARS = 250;

export function extractArticle(html: string, options: ExtractArticleOptions): Article {
  const { doc, metadata, sheet } = parsePage(html, options.baseUrl);
  const { title, lang, baseUrl } = metadata;
  // Metadata first: cleaning removes <head>.
  const canonicalUrl = options.withLinks ? readCanonicalUrl(doc, baseUrl) : undefined;
  // Hidden blocks go before detection so they can neither win the content score nor ride along inside the winner.
  const trace: ExtractTrace | undefined = options.explain ? [] : undefined;
  const hiddenBlocksDropped = removeHidden(doc, { sheet, trace });
  // The cleaned tree before detection cuts it down is exactly what extractLinks reads.
  const links: LinkTargets | undefined = options.withLinks
    ? { urls: listLinkTargets(doc, baseUrl), ...(canonicalUrl ? { canonicalUrl } : {}) }
    : undefined;
  const withLinks = links ? { links } : {};
  const explained = trace ? { explain: trace } : {};
  let main = findMainContent(doc, { stripUnlikely: true, title, trace });
  if (!main || main.textLength < RETRY_BELOW_CHARS) {
    if (trace) traceRetry(trace, main?.textLength);
    // Detection mutates the tree, so the retry starts from the source again. Its hidden blocks are the first pass's
    // (and <noscript>, kept whole or unwrapped): not traced twice.
    const fresh = parseHtml(html);
    removeHidden(fresh, { keepNoscript: true, sheet });
    const retry = findMainContent(fresh, { stripUnlikely: false, title, trace });
    const isBetter = retry !== undefined && retry.textLength > (main?.textLength ?? 0);
    if (trace) {
      const reason = isBetter
        ? 'the retry found more: its content is used'
        : 'the retry found no more: the first pass stands';
      traceNote(trace, 'retry', reason, { chars: retry?.textLength ?? 0 });
    }
    if (isBetter) main = retry;
  }
  if (main) {
    const shortcodes = stripShortcodes(main.root);
    if (trace && shortcodes > 0)
      traceNote(
        trace,
        'cleaning',
        `unrendered shortcodes removed (in ${shortcodes} ${shortcodes === 1 ? 'run' : 'runs'} of text)`,
      );
    const markdown = renderMarkdown(main.root, { baseUrl });
    return {
      title,
      lang,
      markdown,
      textLength: main.textLength,
      hiddenBlocksDropped,
      usedFallback: false,
      ...withLinks,
      ...explained,
    };
  }
  // Detection found nothing: render the whole cleaned body (SPEC "Content": fall back as the seeds say).
  const fresh = parseHtml(html);
  removeHidden(fresh, { sheet });
  const markdown = renderMarkdown(fresh, { baseUrl });
  const textLength = visibleTextLength(fresh);
  if (trace) {
    const reason = 'no main content in either pass: the whole body, hidden blocks removed, is rendered';
    traceNote(trace, 'fallback', reason, { chars: textLength });
  }
  return { title, lang, markdown, textLength, hiddenBlocksDropped, usedFallback: true, ...withLinks, ...explained };
}

function traceRetry(trace: ExtractTrace, firstChars: number | undefined): void {
  const found = firstChars === undefined ? 'found no content' : `found ${firstChars} chars, under ${RETRY_BELOW_CHARS}`;
  const reason = `the first pass ${found}: a retry keeps blocks whose class or id looks like boilerplate, and <noscript>`;
  traceNote(trace, 'retry', reason);
}
