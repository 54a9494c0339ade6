// Taking a visit's result into the crawl's result, in frontier order (SPEC "Crawl budgets that hold exactly"): a
// page already read under another URL is a duplicate; a page is fitted into the tokens left (budget.ts), cut at a
// clean boundary or left out; max_tokens and max_pages end the crawl; only a page taken whole with budget left has
// its links enqueued. Also the skipped lists and the summary the crawl returns.
import { fitSection } from './budget.js';
import type { CrawlState, Frontier } from './frontier.js';
import type { VisitResult } from './visit.js';
import { CRAWL_REASONS } from './reasons.js';

export interface CrawledPage {
  readonly url: string;
  readonly finalUrl: string;
  readonly title: string;
  readonly depth: number;
  /** The page's section in the Markdown, as counted. */
  readonly section: string;
  readonly tokens: number;
  readonly content: string;
  readonly isCut: boolean;
  /** Read from a browser's DOM after the page's scripts ran. */
  readonly rendered: boolean;
}

export interface SkippedUrl {
  readonly url: string;
  readonly reason: string;
}

export interface FailedUrl {
  readonly url: string;
  readonly code: string;
  readonly message: string;
}

export type StopReason = 'frontier_empty' | 'max_pages' | 'max_tokens' | 'time_limit' | 'stopped' | 'cancelled';

export interface CrawlResult {
  readonly startUrl: string;
  /** The pages this call read. */
  readonly pages: CrawledPage[];
  /** Tokens of this call's pages. */
  readonly tokensUsed: number;
  /** Pages and tokens of the earlier calls this one continues (0 for a new crawl). */
  readonly earlier: { readonly pages: number; readonly tokens: number };
  readonly maxTokens: number;
  readonly maxPages: number;
  readonly elapsedMs: number;
  readonly timeLimitMs: number | undefined;
  readonly stopReason: StopReason;
  /** With stop reason time_limit or stopped and work left: where to continue from. */
  readonly resume?: CrawlState;
  /** The start page's final URL when this call moved the crawl's scope to its host (crawl-site.ts land). */
  readonly landedUrl?: string;
  readonly skipped: {
    readonly robots: SkippedUrl[];
    readonly scope: SkippedUrl[];
    readonly budget: SkippedUrl[];
    readonly errors: FailedUrl[];
    readonly duplicates: SkippedUrl[];
  };
}

/** The budget limits a committed page can reach. */
export type BudgetStop = Extract<StopReason, 'max_pages' | 'max_tokens'>;

export interface CommitOptions {
  readonly frontier: Frontier;
  /** For the whole crawl, the calls it continues included. */
  readonly maxTokens: number;
  readonly maxPages: number;
  /** Pages and tokens of the earlier calls this one continues. */
  readonly earlier: { readonly pages: number; readonly tokens: number };
}

/** What the crawl call itself knows when it returns. */
export interface CrawlEnd {
  readonly startUrl: string;
  readonly elapsedMs: number;
  readonly timeLimitMs: number | undefined;
  readonly stopReason: StopReason;
  readonly resume: CrawlState | undefined;
  readonly landedUrl?: string;
}

export interface Commit {
  /** Takes a visit's result: the next one in frontier order. */
  commit(result: VisitResult): Promise<void>;
  /** The limit a committed page reached, once one did: the crawl commits nothing more. */
  limit(): BudgetStop | undefined;
  /** Pages read over the whole crawl, earlier calls included. */
  pagesRead(): number;
  /** Tokens spent over the whole crawl, earlier calls included: the budget is the crawl's, not one call's. */
  tokensUsed(): number;
  /** Lists URLs queued, in flight or fetched ahead that the crawl's limit left unread. */
  skipUnreached(stopReason: StopReason, urls: readonly string[]): void;
  result(end: CrawlEnd): CrawlResult;
}

export function createCommit({ frontier, maxTokens, maxPages, earlier }: CommitOptions): Commit {
  const pages: CrawledPage[] = [];
  const skipped: CrawlResult['skipped'] = {
    robots: [],
    scope: frontier.outOfScope,
    budget: [],
    errors: [],
    duplicates: [],
  };
  let tokensUsed = earlier.tokens;
  let limit: BudgetStop | undefined;
  const pagesRead = (): number => earlier.pages + pages.length;

  async function commit(result: VisitResult): Promise<void> {
    const { entry } = result;
    if (result.kind === 'robots') {
      skipped.robots.push({ url: entry.url, reason: result.reason });
      return;
    }
    if (result.kind === 'error') {
      skipped.errors.push({ url: entry.url, code: result.code, message: result.message });
      return;
    }
    const { page } = result;
    const { aliases, original } = frontier.sightPage(entry.url, page.finalUrl, result.canonical);
    if (original) {
      skipped.duplicates.push({ url: entry.url, reason: CRAWL_REASONS.duplicateOf(original) });
      return;
    }
    const fitted = await fitSection(
      { index: pagesRead() + 1, title: page.title ?? '', url: page.finalUrl, content: page.content },
      maxTokens - tokensUsed,
      maxTokens,
    );
    if (!fitted) {
      skipped.budget.push({ url: entry.url, reason: CRAWL_REASONS.budgetNoFit });
      limit = 'max_tokens';
      return;
    }
    frontier.markRead(aliases, entry.url);
    tokensUsed += fitted.tokens;
    pages.push({
      url: entry.url,
      finalUrl: page.finalUrl,
      title: page.title?.trim() || page.finalUrl,
      depth: entry.depth,
      section: fitted.text,
      tokens: fitted.tokens,
      content: page.content.trim().slice(0, fitted.shownLength),
      isCut: fitted.isCut,
      rendered: page.rendered ?? false,
    });
    if (fitted.isCut) limit = 'max_tokens';
    else if (pagesRead() >= maxPages) limit = 'max_pages';
    if (!limit) for (const link of result.links) frontier.enqueue(link, entry.depth + 1);
  }

  return {
    commit,
    limit: () => limit,
    pagesRead,
    tokensUsed: () => tokensUsed,
    skipUnreached(stopReason, urls) {
      const reason =
        stopReason === 'max_pages' ? CRAWL_REASONS.maxPagesReached(maxPages) : CRAWL_REASONS.maxTokensSpent;
      for (const url of urls) skipped.budget.push({ url, reason });
    },
    result: (end) => ({
      startUrl: end.startUrl,
      pages,
      tokensUsed: tokensUsed - earlier.tokens,
      earlier,
      maxTokens,
      maxPages,
      elapsedMs: end.elapsedMs,
      timeLimitMs: end.timeLimitMs,
      stopReason: end.stopReason,
      ...(end.resume ? { resume: end.resume } : {}),
      ...(end.landedUrl !== undefined ? { landedUrl: end.landedUrl } : {}),
      skipped,
    }),
  };
}
