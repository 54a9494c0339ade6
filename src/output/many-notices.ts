// The sentences of the tools that span several pages in one call (issue 26): `search` and `read_many`, and the
// search providers' failures. Named from src/output/notices.ts, beside the single-page tools' own.
import { quoteInput } from '../quote.js';

export const MANY_SENTENCES = {
  // --- search: the provider -------------------------------------------------------------------------------------
  noProvider:
    'No search provider is configured: set SEARXNG_URL to a SearXNG instance (its JSON API must be enabled) or ' +
    'BRAVE_API_KEY to a Brave Search API key.',
  providerUnreachable: (provider: string, detail: string) =>
    `The ${provider} search provider could not be reached (${detail}). Try again later, or check its address.`,
  providerRateLimited: (provider: string, retryAfterSeconds: number | undefined) =>
    `The ${provider} search provider is rate-limiting us (HTTP 429)` +
    (retryAfterSeconds === undefined ? '; try again later.' : `; retry after ${retryAfterSeconds} s.`),
  providerRefusedKey: (provider: string, status: number) =>
    status === 403 && provider === 'SearXNG'
      ? 'The SearXNG search provider refused the request (HTTP 403): its JSON format may be off — add json to ' +
        'search.formats in its settings.yml.'
      : `The ${provider} search provider refused our credentials (HTTP ${status}): check the API key the server was given.`,
  providerFailed: (provider: string, status: number) =>
    `The ${provider} search provider answered HTTP ${status}; try again later.`,
  providerMalformed: (provider: string, detail: string) =>
    `The ${provider} search provider answered with something that is not its JSON search results (${detail}).`,

  // --- search: the results --------------------------------------------------------------------------------------
  noResults: (query: string, provider: string) =>
    `No results for "${quoteInput(query, 200)}" from ${provider}. Try other words, or a wider time_range.`,
  resultsHeading: (count: number, query: string, provider: string) =>
    `${count} ${count === 1 ? 'result' : 'results'} for "${quoteInput(query, 200)}" (${provider}):`,
  readHeading: (count: number) => `The top ${count} ${count === 1 ? 'result' : 'results'}, read:`,
  providerResult: (url: string) =>
    `${url} points at the search provider itself: a result there is not read (the provider's address is trusted ` +
    'for searching only).',

  // --- read_many -----------------------------------------------------------------------------------------------
  manySummary: (facts: { read: number; total: number; failed: number; unfinished: number; tokens?: number }) =>
    `Read ${facts.read} of ${facts.total} ${facts.total === 1 ? 'URL' : 'URLs'}` +
    (facts.failed > 0 ? `, ${facts.failed} not readable` : '') +
    (facts.unfinished > 0 ? `, ${facts.unfinished} unfinished at the deadline` : '') +
    (facts.tokens === undefined ? '.' : ` (${facts.tokens} tokens of content).`),
  /** `limit`: the caller's max_tokens, of which the rest of the text (headers, notes, a result list) took `limit − budget`. */
  budgetCut: (cut: number, budget: number, limit: number) =>
    `${cut} ${cut === 1 ? 'page was' : 'pages were'} cut to share ` +
    (limit > budget ? `the ${budget} tokens of max_tokens ${limit} left for content` : `${budget} tokens`) +
    " fairly (a page that needed less left the rest to the others); each cut page's last line says how to read the " +
    'rest with fetch.',
  /** The budget left each cut page too little to carry a paragraph: the caller's max_tokens is the cause. */
  budgetTooSmall: (limit: number, frame: number, pages: number, enough: number) =>
    `max_tokens ${limit} is too small for ${pages} pages: their headers and notes take ${frame} tokens, leaving ` +
    `almost nothing of each page. Call again with max_tokens of at least ${enough}, or with fewer URLs.`,
  pageHeader: (number: number, total: number, url: string, status: string) =>
    `## [${number}/${total}] ${url} — ${status}`,
  pageTitle: (title: string) => `Title: ${title}`,
  pageCut: (returned: number, totalTokens: number, nextIndex: number) =>
    `(Cut to share the budget: ${returned} of ${totalTokens} tokens; call fetch with start_index=${nextIndex} for the rest.)`,
  /** A page narrowed by a query, cut: fetch with the same query reads its whole answer (its passages, its note). */
  pageCutAnswer: (returned: number, totalTokens: number) =>
    `(Cut to share the budget: ${returned} of ${totalTokens} tokens; call fetch with this URL and the same query for ` +
    'its whole answer.)',
  pageFailed: (code: string, message: string) => `${code}: ${message}`,
  unfinished: (seconds: number) =>
    `did not finish within the call's ${seconds} s deadline (timeout); the other pages were returned without it. ` +
    'Read it alone, or call again with a longer timeout.',
  progress: (number: number, total: number, url: string, status: string) => `${number}/${total} ${url}: ${status}`,
  invalidUrl: (index: number, url: string) =>
    `urls[${index}] is not an absolute http(s) URL: '${quoteInput(url, 200)}'.`,
  tooManyUrls: (max: number, given: number) => `urls takes at most ${max} URLs; ${given} were given.`,
};
