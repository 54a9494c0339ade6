// Checkpoints (a crawl kept in a shared store while it runs, docs/scale-out.md "Crawls"): the state handed over
// before the first page and after every committed one is a state a continuation takes, as if the process running
// the crawl had died there: it reads the pages not committed yet, each once, within the crawl's budgets.
import { expect, it } from 'vitest';
import { ALLOW_ALL } from '../fetch/robots.js';
import type { CrawlIO } from './crawl-io.js';
import { crawlSite, type CrawlOptions } from './crawl-site.js';
import type { CrawlState } from './frontier.js';

const ORIGIN = 'https://site.test';
const LINKS: Record<string, readonly string[]> = {
  '/': ['/a', '/b', '/c'],
  '/a': ['/a1', '/a2', '/'],
  '/b': ['/b1', '/a'],
  '/c': ['/c1'],
};

function siteIO(): CrawlIO {
  return {
    async readPage(url) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
      const path = new URL(url).pathname;
      return { finalUrl: url, title: path, content: `Content of ${path}.`, html: path };
    },
    extractLinks: async (html) => ({ urls: (LINKS[html] ?? []).map((link) => ORIGIN + link) }),
    loadRobots: async () => ALLOW_ALL,
    loadSitemap: async () => ({ urls: [], sitemaps: [] }),
  };
}

const options = (overrides: Partial<CrawlOptions> = {}): CrawlOptions => ({
  url: `${ORIGIN}/`,
  maxTokens: 100000,
  maxPages: 6,
  maxDepth: 10,
  allowedDomains: ['site.test'],
  patterns: [],
  excludePatterns: [],
  respectRobots: true,
  concurrency: 2,
  ...overrides,
});

const paths = (pages: readonly { url: string }[]) => pages.map((page) => new URL(page.url).pathname);

it('checkpoints before the first page and after each committed one, and any checkpoint continues the crawl', async () => {
  const checkpoints: CrawlState[] = [];
  const whole = await crawlSite(
    options({ checkpoint: async (state) => void checkpoints.push(JSON.parse(JSON.stringify(state)) as CrawlState) }),
    siteIO(),
  );
  expect(whole.stopReason).toBe('max_pages');
  expect(checkpoints[0]).toMatchObject({ pagesRead: 0, frontier: [{ url: `${ORIGIN}/`, depth: 0 }] });
  expect(checkpoints.map((state) => state.pagesRead)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  const order = paths(whole.pages);
  // Each but the last, taken when max_pages was reached: that crawl is complete (its store drops the state).
  for (const [k, state] of checkpoints.slice(0, -1).entries()) {
    // The process died after its k-th page: the continuation reads the rest of the same crawl, none twice.
    const rest = await crawlSite(options({ ...state.scope, resume: state }), siteIO());
    expect([...order.slice(0, k), ...paths(rest.pages)]).toEqual(order);
    expect(rest.stopReason).toBe('max_pages');
  }
});
