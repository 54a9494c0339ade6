// A crawl result as the Markdown a model reads: one section per page (src/crawl/budget.ts builds them, and their
// tokens are the budget's), then a summary — pages read, tokens used of the budget, elapsed time, why the crawl
// stopped, the line that continues a crawl stopped in time, and the URLs skipped for robots.txt, scope, budget and
// errors, each with its reason. The summary counts inside MAX_OUTPUT_TOKENS (renderCrawl): the pages' budget is
// lowered by CRAWL_SUMMARY_TOKENS under the cap (src/runs/crawl-run.ts), and the skipped lists shorten to fit.
import type { CrawlResult, FailedUrl, SkippedUrl } from '../crawl/commit.js';
import { prefixLengthWithinTokens } from '../tokens.js';
import { crawlListsShortened, crawlTextCut } from './notices.js';
import { capLimit, fitsCap, frameTokens } from './truncate.js';

/** Entries shown per skipped list in the text; structuredContent carries more (see the crawl tool). */
export const TEXT_LIST_LIMIT = 50;

/**
 * Tokens kept for the summary inside MAX_OUTPUT_TOKENS: under the cap a crawl's page budget is lowered by this much
 * (capLimit in src/runs/crawl-run.ts), enough for its facts and notes; the skipped lists shorten to fit what is left.
 */
export const CRAWL_SUMMARY_TOKENS = 250;

/** Entries per skipped list tried in turn when the whole text would exceed MAX_OUTPUT_TOKENS. */
const SHORTER_LISTS = [10, 3, 0];

const STOP_WORDS: Readonly<Record<CrawlResult['stopReason'], string>> = {
  frontier_empty: 'every URL in scope was visited',
  max_pages: 'max_pages reached',
  max_tokens: 'the token budget (max_tokens) was spent',
  time_limit: 'time limit',
  stopped: 'server shutting down',
  cancelled: 'cancelled',
};

function list(title: string, entries: readonly (SkippedUrl | FailedUrl)[], limit: number): string {
  if (entries.length === 0) return '';
  const heading = `### ${title} (${entries.length})`;
  if (limit === 0) return heading;
  const lines = entries
    .slice(0, limit)
    .map((entry) =>
      'code' in entry ? `- ${entry.url} — ${entry.code}: ${entry.message}` : `- ${entry.url} — ${entry.reason}`,
    );
  if (entries.length > limit) lines.push(`- … and ${entries.length - limit} more`);
  return `${heading}\n\n${lines.join('\n')}`;
}

/** The pages' Markdown alone: exactly the text the token budget counts. */
export function renderCrawlPages(result: CrawlResult): string {
  return result.pages.map((page) => page.section).join('');
}

/**
 * A crawl that ran out of URLs without reading one page did not visit "every URL in scope": it could not begin.
 * What stopped it, from the start URL's own entry (errors before robots.txt: an unreachable site is listed as an error).
 */
function nothingRead(result: CrawlResult): string {
  const { startUrl, skipped } = result;
  const failed = skipped.errors.find((entry) => entry.url === startUrl);
  if (failed) return `nothing could be read: the start page failed (${failed.code}: ${failed.message})`;
  const denied = skipped.robots.find((entry) => entry.url === startUrl);
  if (denied) return `nothing could be read: robots.txt disallows the start page (${denied.reason})`;
  return 'nothing could be read (see the lists below)';
}

function stopLine(result: CrawlResult): string {
  if (result.stopReason === 'frontier_empty' && result.earlier.pages + result.pages.length === 0) {
    return `- Stopped: ${nothingRead(result)}`;
  }
  const words = STOP_WORDS[result.stopReason];
  if (result.stopReason === 'time_limit' && result.timeLimitMs !== undefined) {
    return `- Stopped: ${words} (max_seconds ${Math.round(result.timeLimitMs / 1000)})`;
  }
  return `- Stopped: ${words}`;
}

/** `listLimit`: entries shown per skipped list (fewer when the text must fit MAX_OUTPUT_TOKENS). */
export function renderCrawlSummary(
  result: CrawlResult,
  notes: readonly string[] = [],
  continueHint?: string,
  listLimit = TEXT_LIST_LIMIT,
): string {
  const seconds = (result.elapsedMs / 1000).toFixed(1);
  const { earlier } = result;
  // A continuation's counts are this call's; the budgets are the whole crawl's, so its totals are shown beside.
  const chained = earlier.pages > 0 || earlier.tokens > 0;
  const pages = chained
    ? `${result.pages.length}, ${earlier.pages + result.pages.length} with the calls this one continues`
    : `${result.pages.length}`;
  const tokens = chained
    ? `${result.tokensUsed}, ${earlier.tokens + result.tokensUsed} with the calls this one continues,`
    : `${result.tokensUsed}`;
  const left = result.resume?.frontier.length ?? 0;
  const facts = [
    `- Pages read: ${pages} (max_pages ${result.maxPages})`,
    `- Tokens used: ${tokens} of ${result.maxTokens} (max_tokens)`,
    `- Elapsed: ${seconds} s`,
    stopLine(result),
    ...(continueHint ? [`- Not read yet: ${left} URLs in the frontier`, `- ${continueHint}`] : []),
    ...notes.map((note) => `- ${note}`),
  ];
  const lists = [
    list('Skipped for robots.txt', result.skipped.robots, listLimit),
    list('Skipped for scope', result.skipped.scope, listLimit),
    list('Skipped for budget', result.skipped.budget, listLimit),
    list('Errors', result.skipped.errors, listLimit),
    list('Duplicates', result.skipped.duplicates, listLimit),
  ];
  return [`## Crawl summary`, facts.join('\n'), ...lists].filter((part) => part !== '').join('\n\n');
}

/**
 * The crawl's whole text: its pages, then its summary. `continueHint`: the line that continues a crawl stopped in
 * time (src/output/notices.ts). `cap`: MAX_OUTPUT_TOKENS (0: none), which the whole text stays within: the skipped
 * lists shorten first (the structured result keeps them), and a cap smaller than even that cuts the text, saying so.
 */
export async function renderCrawl(
  result: CrawlResult,
  notes: readonly string[] = [],
  continueHint?: string,
  cap = 0,
): Promise<string> {
  // The rule parts the pages from the summary: a crawl that read no page has nothing to part.
  const read = renderCrawlPages(result);
  const pages = read === '' ? '' : `${read}---\n\n`;
  const full = pages + renderCrawlSummary(result, notes, continueHint);
  if (await fitsCap(full, cap)) return full;
  const shortened = [...notes, crawlListsShortened(cap)];
  let text = full;
  for (const limit of SHORTER_LISTS) {
    text = pages + renderCrawlSummary(result, shortened, continueHint, limit);
    if (await fitsCap(text, cap)) return text;
  }
  const notice = crawlTextCut(cap);
  const fits = await prefixLengthWithinTokens(text, capLimit(Infinity, cap, await frameTokens(cap, [notice])));
  return `${text.slice(0, fits)}\n\n${notice}`;
}
