import { describe, expect, it } from 'vitest';
import { HttpStatusError } from '../errors.js';
import { ALLOW_ALL, parseRobots } from '../fetch/robots.js';
import { countTokens, loadTokenizer } from '../tokens.js';
import type { CrawlResult } from './commit.js';
import type { CrawlIO } from './crawl-io.js';
import { crawlSite, type CrawlOptions } from './crawl-site.js';
import type { CrawlState } from './frontier.js';

// countTokens is synchronous: the encoding it uses is loaded once, here.
await loadTokenizer();

interface FakePage {
  readonly links?: string[];
  readonly content?: string;
  readonly canonical?: string;
  readonly redirectTo?: string;
  readonly status?: number;
}

const ORIGIN = 'https://site.test';

function fakeIO(site: Record<string, FakePage>, robots = ''): CrawlIO & { fetched: string[] } {
  const fetched: string[] = [];
  return {
    fetched,
    async readPage(url) {
      fetched.push(url);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
      const path = new URL(url).pathname + new URL(url).search;
      const page = site[path];
      if (!page || page.status)
        throw new HttpStatusError(url, page?.status ?? 404, `HTTP ${page?.status ?? 404} for ${url}`);
      const finalUrl = page.redirectTo ? ORIGIN + page.redirectTo : url;
      return { finalUrl, title: path, content: page.content ?? `Content of ${path}.`, html: path };
    },
    async extractLinks(html) {
      const page = site[html]!;
      return {
        urls: (page.links ?? []).map((link) => new URL(link, ORIGIN).href),
        ...(page.canonical ? { canonicalUrl: ORIGIN + page.canonical } : {}),
      };
    },
    loadRobots: async (url) => (robots ? parseRobots(`${new URL(url).origin}/robots.txt`, robots) : ALLOW_ALL),
    loadSitemap: async () => ({ urls: [], sitemaps: [] }),
  };
}

const options = (overrides: Partial<CrawlOptions> = {}): CrawlOptions => ({
  url: `${ORIGIN}/`,
  maxTokens: 100000,
  maxPages: 100,
  maxDepth: 10,
  allowedDomains: ['site.test'],
  patterns: [],
  excludePatterns: [],
  respectRobots: true,
  concurrency: 3,
  ...overrides,
});

const TREE: Record<string, FakePage> = {
  '/': { links: ['/a', '/b', '/c', 'https://other.test/x'] },
  '/a': { links: ['/a1', '/a2', '/', '/b?utm_source=x#frag'] },
  '/b': { links: ['/b1', '/a'] },
  '/c': { links: ['/c1'], status: 500 },
  '/a1': { links: ['/deep'] },
  '/a2': { canonical: '/b' },
  '/b1': { redirectTo: '/a1' },
  '/deep': {},
};

/**
 * The fake site's IO with /slow held back until every page of `awaited` has started (or a 2 s control has passed:
 * a crawl that waits for /slow never starts them, and the test sees which did); records which pages started before
 * /slow ended. Events, not a fixed 100 ms, so a loaded machine cannot make the other pages late.
 */
function withSlowPage<T extends CrawlIO>(io: T, awaited: string[]): T & { startedBeforeSlowEnded: string[] } {
  const startedBeforeSlowEnded: string[] = [];
  let slowEnded = false;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const check = () => {
    if (awaited.every((path) => startedBeforeSlowEnded.includes(path))) release();
  };
  return {
    ...io,
    startedBeforeSlowEnded,
    async readPage(url, signal) {
      if (!slowEnded) startedBeforeSlowEnded.push(new URL(url).pathname);
      check();
      if (url.endsWith('/slow')) {
        const control = setTimeout(release, 2000);
        await released;
        clearTimeout(control);
        slowEnded = true;
      }
      return io.readPage(url, signal);
    },
  };
}

describe('crawlSite', () => {
  it('keeps every slot busy while an earlier page is slow, and still commits in frontier order', async () => {
    const site: Record<string, FakePage> = { '/': { links: ['/slow', '/b', '/c', '/d', '/e', '/f'] } };
    for (const path of ['/slow', '/b', '/c', '/d', '/e', '/f']) site[path] = {};
    const io = withSlowPage(fakeIO(site), ['/b', '/c', '/d', '/e', '/f']);
    const crawl = await crawlSite(options({ concurrency: 2 }), io);
    // With two slots and one held by /slow, the other slot went through the rest of the frontier meanwhile.
    expect(io.startedBeforeSlowEnded).toEqual(['/', '/slow', '/b', '/c', '/d', '/e', '/f']);
    expect(crawl.pages.map((page) => new URL(page.url).pathname)).toEqual(['/', '/slow', '/b', '/c', '/d', '/e', '/f']);
  });

  it('starts the links of a later page early when the frontier runs dry behind a slow page, in the same BFS order', async () => {
    const site: Record<string, FakePage> = {
      '/': { links: ['/slow', '/b'] },
      '/slow': { links: ['/s1'] },
      '/b': { links: ['/b1', '/b2', '/'] },
      '/s1': {},
      '/b1': { links: ['/b2'] },
      '/b2': {},
    };
    const io = withSlowPage(fakeIO(site), ['/b', '/b1', '/b2']);
    const crawl = await crawlSite(options({ concurrency: 3 }), io);
    // /b's links were started while /slow held the head of the frontier; nothing was fetched twice.
    expect(io.startedBeforeSlowEnded).toEqual(['/', '/slow', '/b', '/b1', '/b2']);
    expect([...io.fetched].sort()).toEqual([...new Set(io.fetched)].sort());
    // The pages are those of a one-at-a-time BFS, in its order: /slow's link before /b's.
    expect(crawl.pages.map((page) => new URL(page.url).pathname)).toEqual(['/', '/slow', '/b', '/s1', '/b1', '/b2']);
    expect(crawl.stopReason).toBe('frontier_empty');
  });

  it('lists a page started early but never reached when the budget stops the crawl', async () => {
    const site: Record<string, FakePage> = {
      '/': { links: ['/slow', '/b'] },
      '/slow': {},
      '/b': { links: ['/b1'] },
      '/b1': {},
    };
    const io = withSlowPage(fakeIO(site), ['/b', '/b1']);
    // Room for the start page's section only: /slow is left out and the crawl stops on the budget.
    const crawl = await crawlSite(options({ concurrency: 3, maxTokens: 30 }), io);
    expect(crawl.pages.map((page) => new URL(page.url).pathname)).toEqual(['/']);
    expect(crawl.stopReason).toBe('max_tokens');
    expect(io.fetched).toContain(`${ORIGIN}/b1`);
    expect(crawl.skipped.budget.map((entry) => new URL(entry.url).pathname).sort()).toEqual(['/b', '/b1', '/slow']);
  });

  it('takes links the page read already listed instead of extracting them again', async () => {
    const io = fakeIO(TREE);
    let extracted = 0;
    const crawl = await crawlSite(options({ maxPages: 3 }), {
      ...io,
      async readPage(url, signal) {
        const page = await io.readPage(url, signal);
        return { ...page, links: await io.extractLinks(page.html!, page.finalUrl) };
      },
      async extractLinks() {
        extracted++;
        return { urls: [] };
      },
    });
    expect(extracted).toBe(0);
    expect(crawl.pages.map((page) => page.url)).toEqual([`${ORIGIN}/`, `${ORIGIN}/a`, `${ORIGIN}/b`]);
  });

  it('reads breadth-first in the same order whatever the concurrency', async () => {
    const orders = [];
    for (const concurrency of [1, 3, 8]) {
      const result = await crawlSite(options({ concurrency }), fakeIO(TREE));
      orders.push(result.pages.map((page) => new URL(page.url).pathname));
    }
    expect(orders[0]).toEqual(['/', '/a', '/b', '/a1', '/deep']);
    expect(orders[1]).toEqual(orders[0]);
    expect(orders[2]).toEqual(orders[0]);
  });

  it('never fetches a normalised URL twice and lists errors, scope and duplicates', async () => {
    const io = fakeIO(TREE);
    const result = await crawlSite(options(), io);
    expect(new Set(io.fetched).size).toBe(io.fetched.length);
    expect(result.skipped.errors).toEqual([
      { url: `${ORIGIN}/c`, code: 'HTTP_STATUS', message: `HTTP 500 for ${ORIGIN}/c` },
    ]);
    expect(result.skipped.scope).toEqual([
      { url: 'https://other.test/x', reason: 'host other.test is not in allowed_domains' },
    ]);
    // /a2 declares /b canonical; /b1 redirects to /a1: both already read.
    expect(result.skipped.duplicates.map((entry) => entry.url)).toEqual([`${ORIGIN}/a2`, `${ORIGIN}/b1`]);
    expect(result.stopReason).toBe('frontier_empty');
  });

  it('lists robots.txt refusals without fetching them', async () => {
    const io = fakeIO(TREE, 'User-agent: *\nDisallow: /a\n');
    const result = await crawlSite(options(), io);
    expect(io.fetched).not.toContain(`${ORIGIN}/a`);
    expect(result.skipped.robots).toContainEqual({ url: `${ORIGIN}/a`, reason: 'disallowed by robots.txt' });
  });

  it('stops at max_depth and lists what was deeper', async () => {
    const result = await crawlSite(options({ maxDepth: 1 }), fakeIO(TREE));
    expect(result.pages.map((page) => new URL(page.url).pathname)).toEqual(['/', '/a', '/b']);
    expect(result.skipped.scope).toContainEqual({ url: `${ORIGIN}/a1`, reason: 'deeper than max_depth 1' });
  });

  it('cuts the page that does not fit cleanly, within the exact budget', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `Sentence ${i} of a long page about budgets.`).join('\n\n');
    const site = { '/': { links: ['/long', '/after'] }, '/long': { content: long }, '/after': {} };
    const result = await crawlSite(options({ maxTokens: 600 }), fakeIO(site));
    expect(result.pages.map((page) => page.isCut)).toEqual([false, true]);
    const text = result.pages.map((page) => page.section).join('');
    expect(countTokens(text)).toBeLessThanOrEqual(600);
    expect(result.tokensUsed).toBe(result.pages.reduce((sum, page) => sum + page.tokens, 0));
    expect(result.pages[1]!.section).toMatch(/budgets\.\n\n<error>Page cut at \d+ of \d+ characters/);
    expect(result.skipped.budget).toEqual([{ url: `${ORIGIN}/after`, reason: 'max_tokens spent' }]);
    expect(result.stopReason).toBe('max_tokens');
  });

  it('leaves out a page when too little of the budget is left, and lists it', async () => {
    const site = { '/': { links: ['/next'] }, '/next': { content: 'word '.repeat(500) } };
    const first = countTokens(`## [1] /\n\nURL: ${ORIGIN}/\n\nContent of /.\n\n`);
    const result = await crawlSite(options({ maxTokens: first + 20 }), fakeIO(site));
    expect(result.pages).toHaveLength(1);
    expect(result.skipped.budget).toEqual([
      { url: `${ORIGIN}/next`, reason: 'did not fit in the tokens left of max_tokens' },
    ]);
  });

  it('starts no more pages than max_pages can use', async () => {
    const io = fakeIO(TREE);
    const result = await crawlSite(options({ maxPages: 2, concurrency: 8 }), io);
    expect(result.pages).toHaveLength(2);
    expect(io.fetched).toHaveLength(2);
    expect(result.stopReason).toBe('max_pages');
  });

  it('returns what was read when cancelled, and fetches nothing after', async () => {
    const controller = new AbortController();
    const io = fakeIO(TREE);
    const result = await crawlSite(
      options({
        signal: controller.signal,
        concurrency: 1,
        onProgress: (progress) => {
          if (progress.pagesRead === 2) controller.abort();
        },
      }),
      io,
    );
    expect(result.stopReason).toBe('cancelled');
    expect(result.pages).toHaveLength(2);
    expect(io.fetched.length).toBeLessThanOrEqual(3);
  });

  it('seeds the frontier from the sitemap, under the start directory, after the start page links', async () => {
    const site = { '/docs/': { links: ['/docs/a'] }, '/docs/a': {}, '/docs/orphan': {}, '/blog/x': {} };
    const io = fakeIO(site, `User-agent: *\nAllow: /\nSitemap: ${ORIGIN}/map.xml\n`);
    const requested: string[] = [];
    io.loadSitemap = async (url) => {
      requested.push(url);
      return { urls: [`${ORIGIN}/docs/orphan`, `${ORIGIN}/blog/x`, `${ORIGIN}/docs/a`], sitemaps: [] };
    };
    const order: string[] = [];
    const readPage = io.readPage;
    io.readPage = (url, signal) => {
      order.push(url);
      return readPage(url, signal);
    };
    const loadSitemap = io.loadSitemap;
    io.loadSitemap = (url, signal) => {
      order.push(url);
      return loadSitemap(url, signal);
    };
    const result = await crawlSite(options({ url: `${ORIGIN}/docs/` }), io);
    expect(requested).toEqual([`${ORIGIN}/map.xml`]);
    // The start page is asked for before the sitemap: on one host the sitemap would otherwise hold it back.
    expect(order.slice(0, 2)).toEqual([`${ORIGIN}/docs/`, `${ORIGIN}/map.xml`]);
    expect(result.pages.map((page) => new URL(page.url).pathname)).toEqual(['/docs/', '/docs/a', '/docs/orphan']);
  });

  describe('time limit, graceful stop and continuation', () => {
    // A tree of 15 pages; /hang never answers on its first request (the page in flight at the deadline), and
    // answers at once after.
    const HANG_TREE: Record<string, FakePage> = {
      '/': { links: ['/a', '/hang', '/c'] },
      '/a': { links: ['/a1', '/a2'] },
      '/hang': { links: ['/h1', '/h2'] },
      '/c': { links: ['/c1', '/c2'] },
      '/a1': { links: ['/x1'] },
      '/a2': { links: ['/x2'] },
      '/h1': { links: ['/x3'] },
      '/h2': { links: ['/x4'] },
      '/c1': {},
      '/c2': {},
      '/x1': {},
      '/x2': {},
      '/x3': {},
      '/x4': {},
    };

    function hangingIO(): CrawlIO & { fetched: string[]; aborted: string[] } {
      const io = fakeIO(HANG_TREE);
      const aborted: string[] = [];
      let hung = false;
      return {
        ...io,
        aborted,
        async readPage(url, signal) {
          if (url.endsWith('/hang') && !hung) {
            hung = true;
            io.fetched.push(url);
            return new Promise((_resolve, reject) =>
              signal.addEventListener('abort', () => {
                aborted.push(url);
                reject(signal.reason);
              }),
            );
          }
          return io.readPage(url, signal);
        },
      };
    }

    const paths = (result: CrawlResult) => result.pages.map((page) => new URL(page.url).pathname);
    // Through JSON, as a store out of process keeps it.
    const roundTrip = (state: CrawlState | undefined): CrawlState => JSON.parse(JSON.stringify(state)) as CrawlState;

    it('stops at the time limit without waiting for the page in flight, which the continuation reads', async () => {
      const io = hangingIO();
      // /hang answers only when aborted: the time limit is what ended the crawl, and it aborted the page in flight.
      const first = await crawlSite(options({ timeLimitMs: 150 }), io);
      expect(first.stopReason).toBe('time_limit');
      expect(paths(first)).toEqual(['/', '/a']); // /hang holds the head of the frontier
      expect(io.aborted).toEqual([`${ORIGIN}/hang`]);
      expect(first.resume?.frontier[0]).toEqual({ url: `${ORIGIN}/hang`, depth: 1 });
      expect(first.skipped.budget).toEqual([]); // what is left is for the continuation, not skipped

      const second = await crawlSite(options({ timeLimitMs: 5000, resume: roundTrip(first.resume) }), io);
      expect(second.stopReason).toBe('frontier_empty');
      expect(second.resume).toBeUndefined();
      const all = [...paths(first), ...paths(second)];
      expect(new Set(all).size).toBe(all.length);
      // Together, exactly the pages of an uninterrupted crawl, in its order.
      const whole = await crawlSite(options(), fakeIO(HANG_TREE));
      expect(all).toEqual(paths(whole));
      // Sections are numbered across the calls.
      expect(second.pages[0]!.section).toMatch(/^## \[3\] \/hang/);
      expect(second.earlier).toEqual({ pages: 2, tokens: first.tokensUsed });
    });

    it('holds max_pages and max_tokens over the sum of the calls', async () => {
      const io = hangingIO();
      const first = await crawlSite(options({ timeLimitMs: 150, maxPages: 5 }), io);
      expect(first.pages).toHaveLength(2);
      const second = await crawlSite(options({ resume: roundTrip(first.resume), maxPages: 100 }), io);
      expect(second.pages).toHaveLength(3); // the crawl's max_pages, not this call's argument
      expect(second.stopReason).toBe('max_pages');

      const budget = first.tokensUsed + 60;
      const io2 = hangingIO();
      const a = await crawlSite(options({ timeLimitMs: 150, maxTokens: budget }), io2);
      const b = await crawlSite(options({ resume: roundTrip(a.resume) }), io2);
      expect(b.stopReason).toBe('max_tokens');
      expect(a.tokensUsed + b.tokensUsed).toBeLessThanOrEqual(budget);
      expect(b.pages.reduce((sum, page) => sum + page.tokens, 0)).toBe(b.tokensUsed);
    });

    it('stops on the graceful stop signal like at the time limit, with the state to continue', async () => {
      const stop = new AbortController();
      const io = hangingIO();
      setTimeout(() => stop.abort(), 100);
      const result = await crawlSite(options({ stopSignal: stop.signal }), io);
      expect(result.stopReason).toBe('stopped');
      expect(paths(result)).toEqual(['/', '/a']);
      expect(result.resume?.frontier.map((entry) => new URL(entry.url).pathname)).toContain('/hang');
    });

    it('finishes normally when the crawl ends before its time limit', async () => {
      const result = await crawlSite(options({ timeLimitMs: 5000 }), fakeIO(TREE));
      expect(result.stopReason).toBe('frontier_empty');
      expect(result.resume).toBeUndefined();
    });

    it('reports a total a progress bar can use: processed + remaining, equal at the end', async () => {
      const seen: Array<{ processed: number; remaining: number }> = [];
      await crawlSite(
        options({ onProgress: (p) => seen.push({ processed: p.processed, remaining: p.remaining }) }),
        fakeIO(TREE),
      );
      expect(seen.map((p) => p.processed)).toEqual(seen.map((_p, i) => i + 1));
      expect(seen.every((p) => p.remaining >= 0)).toBe(true);
      expect(seen.at(-1)!.remaining).toBe(0);
      expect(seen[0]!.remaining).toBeGreaterThan(0);
    });
  });
});
