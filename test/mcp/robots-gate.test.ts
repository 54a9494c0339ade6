// One robots.txt gate with one cache (issue 22 item 3), through a real MCP client over stdio: single-page reads
// under RESPECT_ROBOTS=always, crawl and map ask the same gate, so an origin's robots.txt is fetched once per
// CACHE_TTL whoever asks — even when the site has none (a 404 is never cached as a page) — by the crawler's
// User-Agent and with nobody's credentials.
import { describe, expect, it } from 'vitest';
import { PRODUCT_USER_AGENT } from '../../src/config.js';
import { respondWith, type FixtureServer } from '../fixture-server.js';
import { useMcpSession } from './session.js';

const PAGE = (title: string, body = '') =>
  `<!doctype html><title>${title}</title><body><article><h1>${title}</h1><p>${`${title} has words enough to read. `.repeat(8)}</p>${body}</article>`;

function addSite(server: FixtureServer): void {
  // No robots.txt at all (the fixture server answers 404): "allow everything", an answer that is never cached as a page.
  server.route('/start', respondWith('text/html; charset=utf-8', PAGE('Start', '<a href="/next">next</a>')));
  server.route('/next', respondWith('text/html; charset=utf-8', PAGE('Next')));
}

const { server, connect } = useMcpSession({ tools: 'all', setup: addSite, perTest: true });

describe('one robots.txt gate for every tool', () => {
  it.each([
    ['RESPECT_ROBOTS=always: fetch, crawl and map', 'always'],
    ['RESPECT_ROBOTS=crawl: crawl and map', 'crawl'],
  ])('%s ask robots.txt once per origin', async (_name, respectRobots) => {
    const before = server.hits('/robots.txt');
    const session = await connect({ RESPECT_ROBOTS: respectRobots });
    if (respectRobots === 'always') {
      const read = await session.call('fetch', { url: server.url('/start'), headers: { cookie: 'session=1' } });
      expect(read.isError, read.text).toBeFalsy();
    }
    const crawl = await session.call('crawl', { url: server.url('/start'), max_pages: 2 });
    expect(crawl.isError, crawl.text).toBeFalsy();
    const map = await session.call('map', { url: server.url('/start') });
    expect(map.isError, map.text).toBeFalsy();
    expect(server.hits('/robots.txt') - before).toBe(1);
    const asked = server.requestHeaders('/robots.txt').slice(before);
    expect(asked.map((headers) => headers['user-agent'])).toEqual([PRODUCT_USER_AGENT]);
    expect(asked.every((headers) => headers.cookie === undefined)).toBe(true);
  });
});
