// What a read found, decided in one place (SPEC "An outcome an agent can act on"): the list of outcomes and the
// small pure functions that decide one from plain facts. Every tool and front door asks these; `truncated` and
// `from_cache` are not outcomes but booleans beside `status` (a cached `ok` is still `ok`).
import { FetchError, HttpStatusError, SecurityError } from './errors.js';

/** What the agent learns about the outcome of a read. */
export type Outcome =
  'ok' | 'empty' | 'needs_js' | 'needs_ocr' | 'blocked' | 'robots_denied' | 'not_html' | 'too_large' | 'error';

/** Every outcome, in the order SPEC lists them (for output schemas). */
export const OUTCOMES = [
  'ok',
  'empty',
  'needs_js',
  'needs_ocr',
  'blocked',
  'robots_denied',
  'not_html',
  'too_large',
  'error',
] as const satisfies readonly Outcome[];

/**
 * Read, with nothing for a reader: the text tools show the status line (src/output/page-text.ts statusLine) in its
 * place, and the CLI exits with its "nothing to read" code.
 */
export function isNothingToRead(outcome: Outcome): boolean {
  return outcome === 'empty' || outcome === 'needs_js' || outcome === 'needs_ocr';
}

/** The outcome of a read that failed with `error`. */
export function outcomeOfError(error: unknown): Outcome {
  if (error instanceof SecurityError && error.code === 'ROBOTS_DENIED') return 'robots_denied';
  if (error instanceof HttpStatusError && (error.status === 401 || error.status === 403)) return 'blocked';
  if (error instanceof FetchError && error.code === 'RESPONSE_TOO_LARGE') return 'too_large';
  return 'error';
}

// Recognising HTML that has nothing for a reader, so the agent gets an outcome it can act on instead of an empty
// "success" or a page of raw script tags.
// Mount points of client-side frameworks, and the usual "please enable JavaScript" notice.
const APP_SHELL =
  /<(?:div|main|body)\b[^>]*\bid=["']?(?:root|app|__next|__nuxt|svelte|main-app)\b|<noscript\b[^>]*>[^<]*(?:enable|requires?|turn on)\s+javascript/i;
const SCRIPT_TAG = /<script\b/gi;
// A script a browser runs: not data (JSON-LD, JSON) nor a template. The look at the tag is bounded (linear in the page).
const RUNNABLE_SCRIPT = /<script\b(?![^<>]{0,500}?\stype=["']?(?:application\/(?:ld\+)?json|text\/(?:x-)?template)\b)/i;

// Fewer readable characters than this in the main content counts as nothing to read.
const MIN_READABLE_CHARS = 40;

/**
 * The one rule for HTML: `empty` or `needs_js` for a page with fewer than MIN_READABLE_CHARS readable characters,
 * else undefined (`ok`, read it). The readable characters are real ones, counted by the worker that read the page
 * (src/workers/read-body.ts readHtmlWork): the main content's when the article is read (fetch, read_url, web,
 * crawl), else the page's whole visible text (links, extract_links, web links mode, web_scraper), in which a page
 * of links only has its anchors' words. The engine decides it once per read (src/engine/read-page.ts); no tool does.
 *
 * Other kinds, decided by their reader (src/engine/read-*.ts), the same in every tool: content that cannot be read
 * as text (binary) is `not_html`; readable non-HTML — JSON, XML, a feed, Markdown, plain text, a PDF with a text
 * layer — is `ok` (`empty` when it holds nothing), and the tool's own sentence says what it is (web_scraper's
 * "Non-HTML content type", links' "is JSON, not a page with links"). An image, or a PDF with no text layer, is read
 * by OCR (src/engine/read-image.ts, read-pdf.ts); without tesseract installed it is `needs_ocr`.
 */
export function outcomeOfHtml(html: string, readableChars: number): 'empty' | 'needs_js' | undefined {
  if (readableChars >= MIN_READABLE_CHARS) return undefined;
  const scripts = html.match(SCRIPT_TAG)?.length ?? 0;
  if (APP_SHELL.test(html) || scripts >= 3) return 'needs_js';
  // Nothing at all to read beside a script that runs: what a browser shows is the script's (session-36 cold trial: a
  // page whose one inline script writes its content was `empty`, and `auto` did not render it).
  if (readableChars === 0) return RUNNABLE_SCRIPT.test(html) ? 'needs_js' : 'empty';
  return undefined;
}

// When to render a page in a browser (RENDER_JS, a tool's `render`): `auto` renders what the static read could not.
export type RenderPolicy = 'auto' | 'always' | 'never';
export const RENDER_POLICIES = ['auto', 'always', 'never'] as const satisfies readonly RenderPolicy[];

// "Almost no content in a page whose scripts are large": a page whose inline scripts weigh SCRIPT_BUILT_BYTES or that
// loads SCRIPT_BUILT_TAGS scripts, whose main block has fewer than FEW_READABLE_CHARS readable characters, is taken
// to be built by its scripts when the WHOLE page's visible text is that short too, or when the mount point a
// framework writes into is there and empty. A page with a paragraph of text and a small analytics snippet is not; a
// "Loading…" shell with a 200 KB bundle is. A short main block alone says nothing: a listing, a product or a landing
// page often has one while its HTML holds all its text, and a browser shows the same (issue 23 item 6; the eval
// pages' figures are in docs/benchmarks.md, "Rendering with Chromium").
const FEW_READABLE_CHARS = 300;
const SCRIPT_BUILT_BYTES = 50_000;
const SCRIPT_BUILT_TAGS = 8;
// A framework's mount point with nothing in it: `<div id="root"></div>`. Attributes are bounded and stop at the next
// '<', so a page of unclosed tags costs a bounded look from each one (linear in the page).
const EMPTY_MOUNT =
  /<(div|main|section|body)\b[^<>]{0,1000}?\sid=["']?(?:root|app|__next|__nuxt|svelte|main-app)(?=[\s"'>/])[^<>]{0,1000}>\s*<\/\1\s*>/i;

/**
 * The most readable characters any rule here compares (outcomeOfHtml, looksScriptBuilt): a count of a page's visible
 * text may stop once it reaches this (src/extract/block-stats.ts pageReadableLength). A rule that compares more
 * raises it.
 */
export const OUTCOME_READABLE_CHARS = Math.max(MIN_READABLE_CHARS, FEW_READABLE_CHARS);

/**
 * Heavy scripts and little readable text: the static HTML is likely not what a browser shows. `readableChars` is
 * the read's own count (an article's main block, or the whole page's visible text); when it is the main block,
 * `pageReadableChars` counts the whole page's, asked only of a page with a short main block, heavy scripts and no
 * empty mount point (it may cost a second parse). The main block is part of the page, so enough text in it says no.
 */
export function looksScriptBuilt(
  html: string,
  readableChars: number,
  pageReadableChars: () => number = () => readableChars,
): boolean {
  if (readableChars >= FEW_READABLE_CHARS || !hasHeavyScripts(html)) return false;
  return EMPTY_MOUNT.test(html) || pageReadableChars() < FEW_READABLE_CHARS;
}

/** SCRIPT_BUILT_TAGS script elements, or SCRIPT_BUILT_BYTES of inline script. */
function hasHeavyScripts(html: string): boolean {
  // One pass of two sticky-free global searches, linear in the page and without a lower-cased copy of it (this
  // runs on the event loop for web_scraper and links): a hostile page of unclosed <script> tags costs no more.
  const open = /<script\b/gi;
  const close = /<\/script/gi;
  let tags = 0;
  let bytes = 0;
  while (open.exec(html)) {
    tags++;
    const body = html.indexOf('>', open.lastIndex) + 1;
    if (body === 0) return false; // a tag never closed: nothing after it is script a browser would run
    close.lastIndex = body;
    const end = close.exec(html);
    bytes += (end ? end.index : html.length) - body;
    if (tags >= SCRIPT_BUILT_TAGS || bytes >= SCRIPT_BUILT_BYTES) return true;
    if (!end) return false;
    open.lastIndex = close.lastIndex;
  }
  return false;
}

/** Whether a page read statically should be read again in a browser, by the policy and what the static read found. */
export function shouldRender(
  policy: RenderPolicy,
  staticRead: { readonly outcome: Outcome; readonly scriptBuilt: boolean },
): boolean {
  if (policy !== 'auto') return policy === 'always';
  return (
    staticRead.outcome === 'needs_js' ||
    ((staticRead.outcome === 'ok' || staticRead.outcome === 'empty') && staticRead.scriptBuilt)
  );
}

/** After a browser ran a page's scripts, nothing to read is `empty`: rendering was the help `needs_js` offers. */
export function outcomeOfRendered<T extends Outcome>(outcome: T, rendered: boolean): T | 'empty' {
  return rendered && outcome === 'needs_js' ? 'empty' : outcome;
}
