// A start URL that redirects to another host (www → apex): with no allowed_domains the crawl moves to where it
// landed; with allowed_domains it stays where it was told. Driven through CrawlIO with plain functions.
import { describe, expect, it } from 'vitest';
import { HttpStatusError } from '../errors.js';
import { ALLOW_ALL } from '../fetch/robots.js';
import type { CrawlIO } from './crawl-io.js';
import { crawlSite, type CrawlOptions } from './crawl-site.js';
import type { CrawlState } from './frontier.js';

interface SitePage {
  readonly links?: readonly string[];
  /** Answered from this URL instead (a redirect). */
  readonly redirectTo?: string;
}

const WWW = 'https://www.site.test';
const APEX = 'https://site.test';
const OLD = 'https://old.test';

// www.site.test/ (and an old domain) redirect to site.test/, whose pages link to each other by absolute URL; the
// apex's sitemap lists one page no link reaches.
const SITE: Record<string, SitePage> = {
  [`${WWW}/`]: { redirectTo: `${APEX}/` },
  [`${OLD}/`]: { redirectTo: `${APEX}/` },
  // Its navigation links to itself, as most home pages do.
  [`${APEX}/`]: {
    links: [`${APEX}/`, `${APEX}/a`, `${APEX}/b`, `${WWW}/old`, `${OLD}/legacy`, 'https://elsewhere.test/x'],
  },
  [`${APEX}/a`]: { links: [`${APEX}/`] },
  [`${APEX}/b`]: {},
  [`${APEX}/orphan`]: {},
  [`${WWW}/old`]: { redirectTo: `${APEX}/b` },
};

function siteIO(options: { hangOnce?: string } = {}): CrawlIO & { fetched: string[]; sitemapsAsked: string[] } {
  const fetched: string[] = [];
  const sitemapsAsked: string[] = [];
  let hung = false;
  return {
    fetched,
    sitemapsAsked,
    async readPage(url, signal) {
      fetched.push(url);
      if (url === options.hangOnce && !hung) {
        hung = true;
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      }
      const asked = SITE[url];
      if (!asked) throw new HttpStatusError(url, 404, `HTTP 404 for ${url}`);
      const finalUrl = asked.redirectTo ?? url;
      return { finalUrl, title: new URL(finalUrl).pathname, content: `Content of ${finalUrl}.`, html: finalUrl };
    },
    extractLinks: async (html) => ({ urls: [...(SITE[html]?.links ?? [])] }),
    loadRobots: async () => ALLOW_ALL,
    async loadSitemap(url) {
      sitemapsAsked.push(url);
      return { urls: url.startsWith(APEX) ? [`${APEX}/orphan`] : [], sitemaps: [] };
    },
  };
}

const options = (overrides: Partial<CrawlOptions> = {}): CrawlOptions => ({
  url: `${WWW}/`,
  maxTokens: 100000,
  maxPages: 100,
  maxDepth: 5,
  allowedDomains: ['www.site.test'],
  followStartRedirect: true,
  patterns: [],
  excludePatterns: [],
  respectRobots: true,
  concurrency: 3,
  ...overrides,
});

const urls = (pages: readonly { url: string }[]) => pages.map((page) => page.url);

describe('a start URL that redirects to another host', () => {
  it('moves the scope to the host it landed on, and reads that host’s sitemap', async () => {
    const io = siteIO();
    const result = await crawlSite(options(), io);
    expect(urls(result.pages)).toEqual([`${WWW}/`, `${APEX}/a`, `${APEX}/b`, `${APEX}/orphan`]);
    expect(result.landedUrl).toBe(`${APEX}/`);
    // www.site.test is a sub-domain of site.test, so still in scope: its /old is the apex's /b again.
    expect(result.skipped.duplicates.map((entry) => entry.url)).toEqual([`${WWW}/old`]);
    expect(result.skipped.scope).toEqual([
      { url: `${OLD}/legacy`, reason: 'host old.test is not in allowed_domains' },
      { url: 'https://elsewhere.test/x', reason: 'host elsewhere.test is not in allowed_domains' },
    ]);
    expect(io.sitemapsAsked).toContain(`${APEX}/sitemap.xml`);
    expect(result.stopReason).toBe('frontier_empty');
    // The landed page was read once, through the redirect: its link to itself does not fetch it again.
    expect(io.fetched).not.toContain(`${APEX}/`);
  });

  it('replaces the start host: an old domain that redirects is left behind', async () => {
    const result = await crawlSite(options({ url: `${OLD}/`, allowedDomains: ['old.test'] }), siteIO());
    expect(result.landedUrl).toBe(`${APEX}/`);
    expect(urls(result.pages)).toEqual([`${OLD}/`, `${APEX}/a`, `${APEX}/b`, `${APEX}/orphan`]);
    expect(result.skipped.scope.map((entry) => entry.url)).toContain(`${OLD}/legacy`);
  });

  it('stays on the start host when allowed_domains was given', async () => {
    const result = await crawlSite(options({ followStartRedirect: false }), siteIO());
    // Its links on the start host are followed (www/old, which redirects back); those on site.test are not.
    expect(urls(result.pages)).toEqual([`${WWW}/`, `${WWW}/old`]);
    expect(result.landedUrl).toBeUndefined();
    expect(result.skipped.scope.map((entry) => entry.url)).toContain(`${APEX}/a`);
  });

  it('changes nothing when the landed host is already in scope (a sub-domain)', async () => {
    const io = siteIO();
    const result = await crawlSite(options({ url: `${APEX}/`, allowedDomains: ['site.test'], maxDepth: 1 }), io);
    expect(result.landedUrl).toBeUndefined();
    // www.site.test is a sub-domain of site.test: still in scope, so /old is followed (and is /b again).
    expect(io.fetched).toContain(`${WWW}/old`);
  });

  it('keeps the landed scope in a continuation', async () => {
    // The start page is read; /a hangs at the time limit and goes back to the frontier.
    const io = siteIO({ hangOnce: `${APEX}/a` });
    const first = await crawlSite(options({ timeLimitMs: 150 }), io);
    expect(first.stopReason).toBe('time_limit');
    const state = JSON.parse(JSON.stringify(first.resume)) as CrawlState;
    expect(state.scope).toMatchObject({ allowedDomains: ['site.test'], landedUrl: `${APEX}/` });
    expect(state.scope.followStartRedirect).toBeFalsy();
    const second = await crawlSite(options({ resume: state }), io);
    expect([...urls(first.pages), ...urls(second.pages)]).toEqual([
      `${WWW}/`,
      `${APEX}/a`,
      `${APEX}/b`,
      `${APEX}/orphan`,
    ]);
    expect(second.landedUrl).toBeUndefined(); // moved by the first call, not this one
  });

  it('lands in a continuation when the start page itself was cut off by the time limit', async () => {
    const io = siteIO({ hangOnce: `${WWW}/` });
    const first = await crawlSite(options({ timeLimitMs: 100 }), io);
    expect(first.pages).toEqual([]);
    const state = JSON.parse(JSON.stringify(first.resume)) as CrawlState;
    expect(state.scope).toMatchObject({ allowedDomains: ['www.site.test'], followStartRedirect: true });
    const second = await crawlSite(options({ resume: state }), io);
    expect(second.landedUrl).toBe(`${APEX}/`);
    expect(urls(second.pages)).toEqual([`${WWW}/`, `${APEX}/a`, `${APEX}/b`, `${APEX}/orphan`]);
  });
});
