// HTML → Article: parse, read metadata, drop hidden blocks, find the main content, render it as Markdown.
// Pure (no network, no config, no clock) so a worker thread can run it with nothing but the HTML and the URL.
import { renderMarkdown } from './markdown.js';
import { removeHidden } from './clean-hidden.js';
import { listLinkTargets, readCanonicalUrl } from './links.js';
import type { LinkTargets } from './link-set.js';
import { pageReadableLength, visibleTextLength } from './block-stats.js';
import { findMainContent } from './main-content.js';
import { findForumPosts, shapeContent } from './content-shape.js';
import { stripShortcodes } from './shortcodes.js';
import { cutPage, parsePage } from './parse-page.js';
import { traceNote, type ExplainEntry, type ExtractTrace } from './trace.js';
import { listHeadings, type Heading } from './headings.js';
import { applySelectors, selectElements, type SelectOptions } from './select.js';
import { cutSection, findSectionHeading, SECTION_HEADINGS_LISTED } from './section.js';
import { findElement, isElement, parseHtml, type HtmlDocument, type HtmlElement } from './parse.js';

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
  /** With `selector`: how many elements it matched; `markdown` is theirs, in document order. */
  selectorMatched?: number;
  /** With `selector` or `section`: the whole page's visible text, which decides empty and needs_js. */
  pageTextLength?: number;
  /** With `section`: the heading found (its `#n` in the outline), or the headings there are. */
  section?: SectionFound;
}

/** What `section` found: the heading, numbered as web_scraper's outline; or the first headings, to choose from. */
export type SectionFound =
  | { readonly found: true; readonly number: number; readonly level: number; readonly text: string }
  | { readonly found: false; readonly headings: { level: number; text: string }[]; readonly total: number };

export interface ExtractArticleOptions {
  /** The page's final URL after redirects; `<base href>` is resolved against it. */
  readonly baseUrl: string;
  /** Also list where the page's links lead (the crawler needs both; one parse instead of two). */
  readonly withLinks?: boolean;
  /** Record each decision (src/extract/trace.ts) and return them as `explain`; off, it costs nothing. */
  readonly explain?: boolean;
  /** `selector` and `exclude_selectors` (src/extract/select.ts). */
  readonly select?: SelectOptions;
  /** A heading's text, or `#n` (src/extract/section.ts): only that heading and what follows it, up to the next. */
  readonly section?: string;
}

// Readability's retry rule, simplified: a first pass that found less than this much text probably threw the content
// away with the boilerplate, so a second pass keeps blocks whose class only looks like boilerplate, and <noscript>.
const RETRY_BELOW_CHARS = 250;

export function extractArticle(html: string, options: ExtractArticleOptions): Article {
  const cut = cutPage(html);
  const { doc, metadata, sheet } = parsePage(html, options.baseUrl, cut);
  const { title, lang, baseUrl, declaresArticle } = metadata;
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
  // The caller's selectors after the links are listed: they choose what is read, not where a crawl goes next.
  const selection = applySelectors(doc, options.select ?? {});
  const pageTextLength = selection || options.section !== undefined ? pageReadableLength(doc) : undefined;
  const whole = { title, lang, hiddenBlocksDropped, ...withLinks, ...explained };
  const measured = pageTextLength === undefined ? {} : { pageTextLength };
  if (selection) {
    // No main-content detection: the matched elements are the content, each its own run of blocks.
    let roots: readonly (HtmlElement | HtmlDocument)[] = selection.roots;
    let section: SectionFound | undefined;
    if (options.section !== undefined) {
      const cut = cutSectionOf(selection.roots, options.section);
      section = cut.section;
      roots = cut.roots;
    }
    const markdown = roots
      .map((root) => renderMarkdown(root, { baseUrl }))
      .filter((part) => part.trim() !== '')
      .join('\n\n');
    const textLength = roots.reduce((sum, root) => sum + visibleTextLength(root), 0);
    if (trace) traceNote(trace, 'candidates', `selector matched ${selection.matched}: no main-content detection`);
    return {
      ...whole,
      markdown,
      textLength,
      usedFallback: false,
      selectorMatched: selection.matched,
      ...measured,
      ...(section ? { section } : {}),
    };
  }
  // `section` is numbered over the page as web_scraper's outline is, before detection cuts the page down.
  const headings = options.section === undefined ? undefined : listHeadings([doc]);
  const target = headings && findSectionHeading(headings, options.section ?? '');
  if (headings && !target) {
    return { ...whole, markdown: '', textLength: 0, usedFallback: false, ...measured, section: notFound(headings) };
  }
  // A thread's posts are read before detection, which removes their author blocks (content-shape.ts).
  let posts = findForumPosts(doc);
  let main = findMainContent(doc, { stripUnlikely: true, title, declaresArticle, posts, trace });
  if (!main || main.textLength < RETRY_BELOW_CHARS) {
    if (trace) traceRetry(trace, main?.textLength);
    // Detection mutates the tree, so the retry parses again, from the first pass's pre-pass (the source it cut does
    // not change). Its hidden blocks are the first pass's (and <noscript>, kept whole or unwrapped): not traced twice.
    const fresh = parseHtml(html, { source: cut.source });
    removeHidden(fresh, { keepNoscript: true, sheet });
    applySelectors(fresh, { excludeSelectors: options.select?.excludeSelectors });
    const freshPosts = findForumPosts(fresh);
    const retry = findMainContent(fresh, { stripUnlikely: false, title, declaresArticle, posts: freshPosts, trace });
    const isBetter = retry !== undefined && retry.textLength > (main?.textLength ?? 0);
    if (trace) {
      const reason = isBetter
        ? 'the retry found more: its content is used'
        : 'the retry found no more: the first pass stands';
      traceNote(trace, 'retry', reason, { chars: retry?.textLength ?? 0 });
    }
    if (isBetter) {
      main = retry;
      posts = freshPosts;
    }
  }
  if (main) {
    const shortcodes = stripShortcodes(main.root);
    if (trace && shortcodes > 0)
      traceNote(
        trace,
        'cleaning',
        `unrendered shortcodes removed (in ${shortcodes} ${shortcodes === 1 ? 'run' : 'runs'} of text)`,
      );
    if (target && headings) {
      // The section from the main content when it holds the heading (no navigation or footer after its last
      // section); else from the whole page, hidden and excluded parts removed, numbered the same way.
      // The retry parsed the page again: there the heading is the same heading, not the same element.
      const root: HtmlDocument = { type: 'root', children: [main.root], parent: null };
      const same = listHeadings([main.root]).find((h) => h.level === target.level && h.text === target.text);
      const isCut = cutSection(root, target.element) || (same !== undefined && cutSection(root, same.element));
      const page = isCut ? root : wholePageSection(html, sheet, options, target, headings);
      const markdown = renderMarkdown(page, { baseUrl });
      const section = foundSection(target, headings);
      return { ...whole, markdown, textLength: visibleTextLength(page), usedFallback: false, ...measured, section };
    }
    shapeContent(main.root, { posts, declaresArticle, trace });
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
  applySelectors(fresh, { excludeSelectors: options.select?.excludeSelectors });
  if (target && headings) {
    const page = wholePageSection(html, sheet, options, target, headings);
    const section = foundSection(target, headings);
    const markdown = renderMarkdown(page, { baseUrl });
    return { ...whole, markdown, textLength: visibleTextLength(page), usedFallback: true, ...measured, section };
  }
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

function foundSection(target: Heading, headings: readonly Heading[]): SectionFound {
  return { found: true, number: headings.indexOf(target) + 1, level: target.level, text: target.text };
}

function notFound(headings: readonly Heading[]): SectionFound {
  const listed = headings.slice(0, SECTION_HEADINGS_LISTED).map(({ level, text }) => ({ level, text }));
  return { found: false, headings: listed, total: headings.length };
}

/** With `selector`: the section cut from the matched elements, numbered over their headings as web_scraper's are. */
function cutSectionOf(
  roots: readonly HtmlElement[],
  query: string,
): { roots: (HtmlElement | HtmlDocument)[]; section: SectionFound } {
  const headings = listHeadings(roots);
  const target = findSectionHeading(headings, query);
  if (!target) return { roots: [], section: notFound(headings) };
  const root: HtmlDocument = { type: 'root', children: [...roots], parent: null };
  cutSection(root, target.element);
  return { roots: root.children.filter(isElement), section: foundSection(target, headings) };
}

/**
 * The section cut from a fresh parse of the whole page (hidden and excluded parts removed, as the page the heading
 * was numbered on): for a heading main-content detection did not keep. Its `n`-th heading is the one found first.
 */
function wholePageSection(
  html: string,
  sheet: ReturnType<typeof parsePage>['sheet'],
  options: ExtractArticleOptions,
  target: Heading,
  headings: readonly Heading[],
): HtmlDocument {
  const fresh = parseHtml(html);
  removeHidden(fresh, { sheet });
  applySelectors(fresh, { excludeSelectors: options.select?.excludeSelectors });
  const again = listHeadings([fresh])[headings.indexOf(target)];
  if (!again) return fresh;
  // Without main-content detection to stop it, a page's last section would run on into its footer: the page's
  // navigation, header and footer go first, unless the heading is in one of them.
  const frame = selectElements(fresh, 'nav, header, footer').filter(
    (el) => !findElement(el, (x) => x === again.element),
  );
  for (const el of frame) if (el.parent) el.parent.children = el.parent.children.filter((child) => child !== el);
  cutSection(fresh, again.element);
  return fresh;
}
