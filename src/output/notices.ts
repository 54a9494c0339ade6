// Every sentence a tool's text gives the agent around the content, in one place. Those a seed gives are verbatim
// and name their seed (../shared/seeds/); the others are ours and may improve. Error messages live with their error
// classes (src/errors.ts); tool and argument descriptions live with their tool's schema (src/tools/). The layers below
// this one cannot import it, so their sentences are named where they are made: the crawler's skip reasons and
// argument errors in src/crawl/reasons.ts, map's notes in src/crawl/map-site.ts (MAP_NOTES), the engine's in
// src/engine/read-html.ts (--explain), src/engine/render-step.ts and src/engine/read-page.ts (`query` with `raw`), a
// missing section's in src/extract/section.ts, a PDF's and an Office or e-book document's status lines and a cut
// sheet's note in src/formats/pdf.ts, src/formats/document.ts and src/formats/sheets.ts (sheetCutNote).
import type { RenderSkipped } from '../engine/render-step.js';
import type { ContentKind } from '../formats/sniff.js';
import { isNothingToRead, type Outcome } from '../outcome.js';
import { quoteInput } from '../quote.js';

// The command line's own sentences (its flags and commands), beside these: src/output/cli-notices.ts.
export { CLI_SENTENCES } from './cli-notices.js';
// search and read_many, the tools that span several pages in one call: src/output/many-notices.ts.
export { MANY_SENTENCES } from './many-notices.js';
// fetch `since`, what changed since an earlier read: src/output/changes-notices.ts.
export { CHANGES_SENTENCES } from './changes-notices.js';
// screenshot, and fetch with `screenshot: true`: src/output/screenshot-text.ts.
export { SCREENSHOT_SENTENCES } from './screenshot-text.js';
// `actions`, what was done to the rendered page before it was read: src/output/actions-notices.ts.
export { ACTION_SENTENCES } from './actions-notices.js';
// `structured_data`, what a page declares as data: src/output/data-notices.ts.
export { DATA_SENTENCES } from './data-notices.js';
// The 2026-07-28 era's tasks (src/server-modern-tasks.ts): src/output/task-notices.ts.
export { taskSentences } from './task-notices.js';
// `query`, a page's passages that answer a question: src/output/query-notices.ts.
export { passageHeading, queryNote, type QueryNoteFacts } from './query-notices.js';

// --- fetch-tool.md and web-tool.md ---------------------------------------------------------------------------------

/** fetch-tool.md, web-tool.md: the heading above a page's content. */
export function contentsHeading(url: string): string {
  return `Contents of ${url}:`;
}

/** fetch-tool.md, web-tool.md: when main-content extraction failed and the raw body follows. */
export const EXTRACTION_FAILED_NOTICE = '<error>Extraction to markdown failed; returning raw content</error>';

export interface TruncationFacts {
  /** The limit named in the first line: `max_length`, or the characters returned when the token cap cut. */
  readonly limit: number;
  readonly totalLength: number;
  readonly nextIndex: number;
  readonly byTokens: boolean;
  readonly toolName: string;
}

/**
 * fetch-tool.md, web-tool.md: the first line is the seed's, verbatim; the second (ours) gives the exact start_index
 * that continues, and says when MAX_OUTPUT_TOKENS rather than max_length cut.
 */
export function truncationSentence(facts: TruncationFacts): string {
  const why = facts.byTokens ? ' to stay within MAX_OUTPUT_TOKENS' : '';
  return (
    `<error>Content truncated. The output has been limited to ${facts.limit} characters</error>\n` +
    `<error>${facts.totalLength - facts.nextIndex} more characters${why}: call ${facts.toolName} again with ` +
    `start_index=${facts.nextIndex} to continue.</error>`
  );
}

/** Ours: a start_index that leaves nothing to read (`what`: 'the content', 'the link list'). */
export function startIndexPastEnd(startIndex: number, length: number, what = 'the content'): string {
  return `start_index ${startIndex} is past the end of ${what} (${length} characters); nothing is left to read.`;
}

// --- links-tool.md and web-tool.md ---------------------------------------------------------------------------------

/**
 * links-tool.md: a page with no links — the seed's sentence for a page with nothing to read (empty, needs_js);
 * ours, with `reason` (noLinksReason), for one that was read and simply has none.
 */
export function noLinksRead(url: string, reason?: string): string {
  return reason
    ? `No links read on ${url}: ${reason}.`
    : `No links read on ${url} - it may require JavaScript or authentication.`;
}

/** web-tool.md: links mode on a page with no links (`reason` as for noLinksRead). */
export function noLinksFound(url: string, reason?: string): string {
  return reason
    ? `No links found on ${url}: ${reason}.`
    : `No links found on ${url} - it may require JavaScript or authentication.`;
}

const KIND_NAMES: Partial<Record<ContentKind, string>> = {
  json: 'JSON',
  xml: 'XML',
  markdown: 'Markdown',
  text: 'plain text',
  pdf: 'a PDF document',
  image: 'an image',
};

/**
 * Ours: why a page that was read has no links to list, by its kind; undefined for a page with nothing to read
 * (empty, needs_js), where the seed's sentence stands. `sameSite`: the list is of the page's own site's links.
 */
export function noLinksReason(
  page: { readonly kind: ContentKind; readonly mediaType: string; readonly outcome: Outcome },
  sameSite = false,
): string | undefined {
  if (isNothingToRead(page.outcome)) return undefined;
  const type = page.mediaType || 'no content type';
  switch (page.kind) {
    case 'html':
      return sameSite
        ? 'the page was read, and none of its links leads to another page of its site'
        : 'the page was read, and it has no links';
    case 'feed':
      return 'the feed was read, and none of its entries has a link';
    case 'document':
      return sameSite
        ? 'the document was read, and none of its links leads to another page of its site'
        : 'the document was read, and it has no links';
    case 'binary':
      return `it is binary content (${type}), not a page with links`;
    default:
      return `it is ${KIND_NAMES[page.kind] ?? page.kind} (${type}), which has no links to list`;
  }
}

/** Ours (links, extract_links): the token cap cut the list. */
export function linksCappedNotice(shown: number): string {
  return `<error>Only ${shown} links fit within MAX_OUTPUT_TOKENS; ask for fewer with max_links.</error>`;
}

/** Ours (extract_links): the token cap cut the grouped list. */
export const LINK_LIST_CAPPED_NOTICE = '<error>The list was cut to stay within MAX_OUTPUT_TOKENS.</error>';

/** links-tool.md: the heading above the list. */
export function linksHeading(shown: number, total: number, url: string): string {
  return `${shown} of ${total} links found on ${url}`;
}

/** web-tool.md: links mode's heading. */
export function allLinksFound(count: number, url: string): string {
  return `All ${count} links found on ${url}`;
}

/** Ours (extract_links): the heading with the filter and the counts. */
export function filteredLinksHeading(url: string, filter: string, counts: readonly string[]): string {
  return `Links found on ${url} (filter: ${filter}): ${counts.join(', ')}`;
}

/** Ours (extract_links): no link passed the filter (`which` is 'internal ', 'external ' or ''), and why. */
export function noFilteredLinks(which: string, url: string, reason?: string): string {
  return reason ? `No ${which}links found on ${url}: ${reason}.` : `No ${which}links found on ${url}.`;
}

// --- web-scraper-plan.md (milestone 4) -------------------------------------------------------------------------------

export const scraperSentences = {
  timeout: (url: string, seconds: number) => `Timeout fetching ${url} after ${seconds}s`,
  rateLimited: (retryAfter: string | number) => `Rate limited. Retry after: ${retryAfter}`,
  httpError: (status: number, url: string) => `HTTP error ${status} for ${url}`,
  connectionError: (url: string, reason: string) => `Connection error for ${url}: ${reason}`,
  tooLarge: (reason: string) => `Content too large: ${reason}`,
  nonHtml: (contentType: string) => `Non-HTML content type: ${contentType || 'none'}`,
} as const;

/** Ours: what web_scraper's JSON gave up to stay within MAX_OUTPUT_TOKENS (its `notice`). */
export const scraperCapSentences = {
  rawHtmlLeftOut: 'raw_html was left out to stay within MAX_OUTPUT_TOKENS',
  structuredDataLeftOut:
    'structured_data was left out to stay within MAX_OUTPUT_TOKENS (fetch with structured_data gives it apart from the text)',
  textCut: (kept: number, total: number) =>
    `text was cut to ${kept} of ${total} characters to stay within MAX_OUTPUT_TOKENS`,
} as const;

// --- ours: outcomes and crawl --------------------------------------------------------------------------------------

/** What an outcome other than ok means, after the URL in a status line; a reader's own detail wins. */
export const OUTCOME_HELP: Partial<Record<Outcome, string>> = {
  empty: 'returned no readable content',
  needs_js: 'is a JavaScript application shell with no readable content in its HTML',
  needs_ocr:
    'holds its text only in pictures (an image, or a scanned PDF) and OCR is not installed here: install it with `apt-get install tesseract-ocr` (or set TESSERACT_PATH)',
};
export const OUTCOME_HELP_FALLBACK = 'returned nothing to read';

/** A sentence, then why the page was not rendered when it was not. */
export function withRenderNote(sentence: string, skipped: RenderSkipped | undefined): string {
  return skipped ? `${sentence} ${renderSkippedSentence(skipped)}` : sentence;
}

/** After needs_js: why the page was not rendered, and the one thing that makes it readable. */
export function renderSkippedSentence(skipped: RenderSkipped): string {
  switch (skipped.reason) {
    case 'no_browser':
      return skipped.message;
    case 'off':
      return 'Rendering was off for this call: call again with render "auto" or "always" to read it in a browser.';
    case 'failed':
      return `Rendering it in a browser failed: ${skipped.message}`;
  }
}

/** The one line an agent copies to read the rest of a crawl stopped in time. */
export function crawlContinueLine(id: string): string {
  return `To continue: call crawl with continue_from="${id}"`;
}

/** Ours: a crawl's page budget lowered so that its pages and its summary fit MAX_OUTPUT_TOKENS together. */
export function crawlBudgetLowered(requested: number, lowered: number, cap: number): string {
  return (
    `max_tokens ${requested} was lowered to ${lowered}: MAX_OUTPUT_TOKENS (${cap}), the server's cap on one ` +
    'result, holds the pages and this summary'
  );
}

/** Ours: a crawl summary whose skipped lists were shortened to fit MAX_OUTPUT_TOKENS. */
export function crawlListsShortened(cap: number): string {
  return (
    `The lists below are shortened to fit MAX_OUTPUT_TOKENS (${cap}), the server's cap on one result; ` +
    'the structured result lists more'
  );
}

/** Ours: a crawl's text cut at MAX_OUTPUT_TOKENS (a cap smaller than its summary). */
export function crawlTextCut(cap: number): string {
  return `<error>The crawl's text was cut here to stay within MAX_OUTPUT_TOKENS (${cap}); the structured result holds the rest.</error>`;
}

/** Ours: a crawl call with neither url nor continue_from. */
export const CRAWL_URL_MISSING = invalidToolArguments(
  'crawl',
  'url is missing. Give url (where to start) for a new crawl, or continue_from (the id a stopped crawl gave) to ' +
    'continue one.',
);

/**
 * Ours: a crawl's MCP progress message after each page, and a crawl task's status message (the one progress a
 * polled 2026-07-28 task has, SEP-2663 `statusMessage`): how far it is against both its budgets.
 */
export function crawlProgressSentence(progress: {
  pagesRead: number;
  maxPages: number;
  tokensUsed: number;
  maxTokens: number;
  frontierSize: number;
}): string {
  return (
    `${progress.pagesRead} of at most ${progress.maxPages} pages read, ` +
    `${progress.tokensUsed} of ${progress.maxTokens} tokens, ` +
    `${progress.frontierSize} URLs in the frontier`
  );
}

/** Ours: a crawl's first MCP progress message; `idNote` says how to continue it (crawl-resume.ts). */
export function crawlStartedSentence(idNote: string): string {
  return `crawl started${idNote}`;
}

/** A continue_from naming a crawl that ended (its id is kept for CRAWL_RESUME_TTL to say so). */
export function crawlCompleteMessage(quotedId: string): string {
  return (
    `continue_from '${quotedId}': this crawl is complete — the call that finished it returned its last pages, and ` +
    'there is nothing left to continue. Start a new crawl with url to read the site again.'
  );
}

/** The same for a person at the command line. */
export function cliCrawlContinueLine(id: string): string {
  return `To continue: web-reader crawl --continue ${id}`;
}

/**
 * A page `read` cut, for a person at the command line: in place of the tool's notice (which tells an agent to call
 * the tool again), the flags that read on. The same command with --start-index reads the same content on.
 */
export function cliReadCutLine(
  facts: { nextIndex: number; totalLength: number; byTokens: boolean },
  /** The token cap came from `--max-tokens` (one page's cap), not MAX_OUTPUT_TOKENS. */
  byMaxTokensFlag = false,
): string {
  const tokenCap = byMaxTokensFlag ? '--max-tokens' : 'MAX_OUTPUT_TOKENS';
  const by = facts.byTokens ? tokenCap : '--max-length';
  const whole = !facts.byTokens
    ? 'leave out --max-length'
    : byMaxTokensFlag
      ? 'leave out --max-tokens and give --max-output-tokens 0'
      : '--max-output-tokens 0';
  return (
    `web-reader: cut by ${by} at character ${facts.nextIndex} of ${facts.totalLength}. ` +
    `To read on, run the same command with --start-index ${facts.nextIndex}; for the whole page, ${whole}.`
  );
}

/** A crawl whose start URL redirected to another host, and allowed_domains was not given. */
export function crawlLandedNote(startUrl: string, landedUrl: string): string {
  const from = new URL(startUrl).hostname;
  const to = new URL(landedUrl).hostname;
  return (
    `The start URL redirected from ${from} to ${landedUrl}: the crawl followed it and stays on ${to} ` +
    `(give allowed_domains to choose the domains yourself)`
  );
}

// --- ours: arguments and tool selection -----------------------------------------------------------------------------

/** Ours: a tool's arguments that failed their schema or its checks. */
export function invalidToolArguments(toolName: string, message: string): string {
  return `Invalid arguments for tool ${toolName}: ${message}`;
}

/**
 * Ours: arguments the tool does not know. `shown`: the first names, already quoted; `more`: how many are not shown;
 * `guess`: the known name one was most likely meant to be, else the `known` names are listed.
 */
export function unknownArguments(shown: readonly string[], more: number, guess: string | undefined, known: string[]) {
  const plural = shown.length + more > 1 ? 's' : '';
  const rest = more > 0 ? ` and ${more} more` : '';
  const hint = guess ? ` — did you mean "${guess}"?` : ` (known: ${known.join(', ')})`;
  return `unknown argument${plural} ${shown.join(', ')}${rest}${hint}`;
}

/** Ours: a --tools / TOOLS entry that names no tool or preset. */
export function unknownToolName(name: string, variable: string, valid: readonly string[]): string {
  return `Unknown tool '${name}' in ${variable}. Valid names: ${valid.join(', ')}.`;
}

/** Ours: a --tools / TOOLS value that selects nothing. */
export function noToolsSelected(variable: string): string {
  return `${variable} selects no tools.`;
}

// --- ours: selectors and sections (issue 14) ----------------------------------------------------------------------

/** In place of content: the call's `selector` matched no element of the page. */
export function selectorMatchedNothing(url: string, selector: string | undefined): string {
  const named = selector === undefined ? 'selector' : `selector "${quoteInput(selector, 100)}"`;
  return (
    `${named} matched nothing on ${url}: no element of the page (after exclude_selectors) is one it names, so ` +
    'there is no content. Call again with another selector, or without one to read the main content.'
  );
}

/** read_url's header line for a `section` found: its number in web_scraper's outline and its heading. */
export function sectionLine(number: number, text: string): string {
  return `Section: #${number} ${text}`;
}

/**
 * A message as one sentence: a full stop added unless it already ends one. A closing parenthesis does not end a
 * sentence ("… headers)" becomes "… headers)."), so no hint that follows runs into it.
 */
export function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
