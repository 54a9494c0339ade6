// Every sentence a crawl gives the agent about a URL it did not read (the summary's skipped lists and its
// structured `skipped`), and the crawl's argument errors, in one place. crawl/ is below src/output/, so they are
// named here; src/output/notices.ts points here.

export const CRAWL_REASONS = {
  robotsDisallowed: 'disallowed by robots.txt',
  robotsUnreachable: (origin: string) =>
    `no page of ${origin} is fetched while its robots.txt cannot be reached (RFC 9309)`,
  hostNotAllowed: (host: string) => `host ${host} is not in allowed_domains`,
  tooDeep: (maxDepth: number) => `deeper than max_depth ${maxDepth}`,
  duplicateOf: (original: string) => `same page as ${original} (canonical or redirect)`,
  budgetNoFit: 'did not fit in the tokens left of max_tokens',
  maxPagesReached: (maxPages: number) => `max_pages (${maxPages}) reached`,
  maxTokensSpent: 'max_tokens spent',
};

export const CRAWL_ARGUMENT_ERRORS = {
  invalidPattern: (argument: string, pattern: string, why: string) =>
    `${argument}: '${pattern}' is not a valid pattern (${why}). Use a path glob such as '/docs/**', or 're:' ` +
    'followed by a regular expression.',
  notADomain: (entry: string) => `allowed_domains: '${entry}' is not a domain name.`,
};
