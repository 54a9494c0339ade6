// What `read_many` (and `search` with `read`) returns around its pages: one header line per page in the order the
// URLs were given, the page's content (or why there is none), a note on each page cut to share the budget, and a
// summary line first. The pages themselves are read by src/runs/read-many.ts.
import type { Outcome } from '../outcome.js';
import type { StructuredData } from '../extract/structured-data.js';
import { MANY_SENTENCES } from './many-notices.js';
import { structuredDataLine, structuredDataResult } from './structured-data.js';

export interface ManyPage {
  /** From 1, in the order the URLs were given. */
  readonly number: number;
  readonly url: string;
  readonly status: Outcome;
  /** False: the call's deadline came before this page was read; `error` says so. */
  readonly finished: boolean;
  readonly finalUrl?: string;
  readonly title?: string;
  readonly fromCache?: boolean;
  /** What is returned of the page: its content (maybe cut), a status line, or '' after a failure. */
  readonly content: string;
  /**
   * Tokens of `content`, and of the whole content before it was cut: counted when the pages shared a budget they
   * might not all fit; undefined when they surely fit it whole (no tokenizer is loaded for that, as frameTokens).
   */
  readonly tokens?: number;
  readonly totalTokens?: number;
  /** Where the rest starts when the page was cut (fetch's start_index). */
  readonly nextStartIndex?: number;
  /**
   * The page was narrowed by a query: its content is passages and their note, which no start_index of fetch
   * continues; a cut says to read it alone with the same query instead.
   */
  readonly answered?: boolean;
  /** With structured_data: what the page declares as data (in the structured result; the header says what). */
  readonly structuredData?: StructuredData;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The header line of one page: its number, URL and status; the title below it when there is one. */
export function pageHeader(
  page: Pick<ManyPage, 'number' | 'url' | 'status' | 'title' | 'structuredData'>,
  total: number,
): string {
  const header = MANY_SENTENCES.pageHeader(page.number, total, page.url, page.status);
  const title = page.title ? `\n${MANY_SENTENCES.pageTitle(page.title)}` : '';
  // Asked for, a page's structured data is in its structured result; its header says what is there, as fetch's text.
  const data = page.structuredData ? `\n${structuredDataLine(page.structuredData)}` : '';
  return `${header}${title}${data}`;
}

/** The note of a cut page: where fetch continues it, or (narrowed by a query) how to read its whole answer. */
function cutNote(page: Pick<ManyPage, 'answered'>, returned: number, totalTokens: number, next: number): string {
  return page.answered
    ? MANY_SENTENCES.pageCutAnswer(returned, totalTokens)
    : MANY_SENTENCES.pageCut(returned, totalTokens, next);
}

/** The widest note a cut page can carry, for the frame's count (the numbers at their largest). */
export function widestCutNote(page: Pick<ManyPage, 'answered'>, totalTokens: number, length: number): string {
  return cutNote(page, totalTokens, totalTokens, length);
}

export interface ManySummary {
  readonly total: number;
  /** The token budget the pages shared; undefined: no limit. */
  readonly budget: number | undefined;
  /** The caller's max_tokens, the budget and the frame (summary, headers, notes) together. */
  readonly limit?: number;
  readonly cut: number;
  /** The tokens of the frame (summary, headers, notes) when the budget left each page too little to read. */
  readonly starvedBy?: { readonly limit: number; readonly frame: number };
}

/** Below this many tokens a page's share holds no paragraph worth reading: the budget, not the page, is short. */
export const MIN_PAGE_SHARE = 50;

/** The summary line that opens the text: how many were read, failed, unfinished, and the budget's cut. */
export function manySummaryText(pages: readonly ManyPage[], summary: ManySummary): string {
  const unfinished = pages.filter((page) => !page.finished).length;
  const read = pages.filter((page) => page.status === 'ok').length;
  const line = MANY_SENTENCES.manySummary({
    read,
    total: summary.total,
    failed: pages.length - read - unfinished,
    unfinished,
    tokens: pages.every((page) => page.tokens !== undefined)
      ? pages.reduce((sum, page) => sum + page.tokens!, 0)
      : undefined,
  });
  if (summary.starvedBy) {
    const { limit, frame } = summary.starvedBy;
    const enough = frame + MIN_PAGE_SHARE * 4 * pages.length;
    return `${line} ${MANY_SENTENCES.budgetTooSmall(limit, frame, pages.length, enough)}`;
  }
  return summary.cut > 0 && summary.budget !== undefined
    ? `${line} ${MANY_SENTENCES.budgetCut(summary.cut, summary.budget, summary.limit ?? summary.budget)}`
    : line;
}

/** One page's block: its header, then its content, its cut note, or its failure. */
export function pageBlock(page: ManyPage, total: number): string {
  const parts = [pageHeader(page, total)];
  if (page.error) parts.push(MANY_SENTENCES.pageFailed(page.error.code, page.error.message));
  if (page.content !== '') parts.push(page.content);
  if (page.nextStartIndex !== undefined) {
    parts.push(cutNote(page, page.tokens ?? 0, page.totalTokens ?? 0, page.nextStartIndex));
  }
  return parts.join('\n\n');
}

/** The text a model reads: the summary, then every page in the order given. */
export function renderManyText(pages: readonly ManyPage[], summary: ManySummary): string {
  return [manySummaryText(pages, summary), ...pages.map((page) => pageBlock(page, summary.total))].join('\n\n');
}

/** The structured form of one page (MCP structuredContent, the JSON API's result, the CLI's --json). */
export function structuredManyPage(page: ManyPage): Record<string, unknown> {
  return {
    number: page.number,
    url: page.url,
    status: page.status,
    finished: page.finished,
    ...(page.finalUrl !== undefined && { final_url: page.finalUrl }),
    ...(page.title !== undefined && { title: page.title }),
    ...(page.fromCache !== undefined && { from_cache: page.fromCache }),
    content: page.content,
    ...(page.tokens !== undefined && { tokens: page.tokens }),
    ...(page.totalTokens !== undefined && { total_tokens: page.totalTokens }),
    truncated: page.nextStartIndex !== undefined,
    ...(page.nextStartIndex !== undefined && !page.answered && { next_start_index: page.nextStartIndex }),
    ...(page.error && { error: page.error }),
    ...(page.structuredData && { structured_data: structuredDataResult(page.structuredData) }),
  };
}
