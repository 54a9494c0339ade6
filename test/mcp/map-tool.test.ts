// The map tool through a real MCP client over stdio: robots.txt → a sitemap index → a plain and a gzipped sitemap,
// /llms.txt and the start page's links; scope, search, max_urls; and a hostile site whose sitemaps must not run
// unbounded.
import { describe, expect, it } from 'vitest';
import { addHostileSite, addMapSite, BIG_SITEMAP_URLS, HOSTILE_CHILDREN } from '../map-site-routes.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { useMcpSession } from './session.js';

const hostile = useFixtureServer(addHostileSite);
const { server, session } = useMcpSession({
  tools: 'explore',
  setup: addMapSite,
  env: () => ({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},${hostile.hostPort}`, FETCH_TIMEOUT: '5000' }),
});

const siteLines = () => [
  `- ${server.url('/docs/a')} — Doc A`,
  `- ${server.url('/docs/guide.md')} — Guide`,
  `- ${server.url('/docs/listed')} — Listed page`,
  `- ${server.url('/docs/nomd')} — No twin`,
  `- ${server.url('/about')}`,
  `- ${server.url('/docs/d/')}`,
  `- ${server.url('/docs/b')}`,
  `- ${server.url('/blog/launch')} — We launched & more`,
  `- ${server.url('/docs/c')}`,
  `- ${server.url('/private/notes')}`,
];

describe('map', () => {
  it('is in the explore preset with fetch, links and crawl, and lists its arguments', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['fetch', 'links', 'map', 'crawl']);
    const map = tools.find((tool) => tool.name === 'map')!;
    expect(map.inputSchema.properties).toMatchObject({
      url: { type: 'string' },
      max_urls: { type: 'integer', default: 500 },
      search: { type: 'string' },
      allowed_domains: { type: 'array' },
      patterns: { type: 'array', default: [] },
    });
    expect(map.inputSchema.required).toEqual(['url']);
    expect(map.outputSchema).toBeDefined();
  });

  it('lists llms.txt, the start page links and the sitemaps (index, plain, gzipped): normalised, once each, in scope', async () => {
    const url = server.url('/map-start');
    const result = await session.call('map', { url });
    expect(result.isError).toBeFalsy();
    expect(result.text).toBe(`10 URLs found on ${url}\n\n${siteLines().join('\n')}`);
    expect(result.text).not.toContain('elsewhere.example');
    expect(result.text).not.toContain('img/b.png');
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      url,
      total: 10,
      truncated: false,
      stop_reason: 'complete',
      max_urls: 500,
      counts: { 'llms.txt': 4, page: 2, sitemap: 4 },
      sitemaps_read: 3,
      notes: [],
    });
    const urls = (result.structuredContent as { urls: unknown[] }).urls;
    expect(urls[0]).toEqual({ url: server.url('/docs/a'), title: 'Doc A', source: 'llms.txt' });
    expect(urls[4]).toEqual({ url: server.url('/about'), source: 'page' });
    expect(urls[7]).toEqual({ url: server.url('/blog/launch'), title: 'We launched & more', source: 'sitemap' });
    expect(urls[8]).toEqual({ url: server.url('/docs/c'), source: 'sitemap' }); // from the gzipped sitemap
  });

  it('keeps only URLs matching patterns and containing search (case-insensitive)', async () => {
    const url = server.url('/map-start');
    const docs = await session.call('map', { url, patterns: ['/docs/**'], search: 'DOCS/' });
    expect(docs.structuredContent).toMatchObject({ total: 7, truncated: false });
    expect(docs.text).not.toContain('/about');
    expect(docs.text).not.toContain('/blog/');
    const launched = await session.call('map', { url, search: 'launched' }); // found by its sitemap title
    expect(launched.text).toBe(`1 URL found on ${url}\n\n- ${server.url('/blog/launch')} — We launched & more`);
    const none = await session.call('map', { url, search: 'nothing-like-this' });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent).toMatchObject({ status: 'empty', total: 0, urls: [] });
    expect(none.text).toContain('No sitemap, llms.txt entry or start-page link in scope was found.');
  });

  it('allowed_domains widens the scope to another host', async () => {
    const url = server.url('/map-start');
    const result = await session.call('map', { url, allowed_domains: ['127.0.0.1', 'elsewhere.example'] });
    expect(result.structuredContent).toMatchObject({ total: 12 });
    expect(result.text).toContain('- https://elsewhere.example/x\n');
    expect(result.text).toContain('- https://elsewhere.example/page\n');
  });

  it('stops at max_urls and says the list is cut', async () => {
    const url = server.url('/map-start');
    const result = await session.call('map', { url, max_urls: 3 });
    expect(result.text).toBe(
      `3 URLs found on ${url}\n\n${siteLines().slice(0, 3).join('\n')}\n\n` +
        'The site lists more URLs than max_urls (3): narrow with search or patterns, or raise max_urls.',
    );
    expect(result.structuredContent).toMatchObject({ total: 3, truncated: true, stop_reason: 'max_urls' });
  });

  it('names a bad argument', async () => {
    const result = await session.call('map', { url: server.url('/map-start'), max_urls: 0 });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('max_urls');
    const pattern = await session.call('map', { url: server.url('/map-start'), patterns: ['/docs/{a'] });
    expect(pattern.isError).toBe(true);
    expect(pattern.text).toContain("patterns: '/docs/{a' is not a valid pattern");
  });

  it('fails with the start page error when nothing at all is found', async () => {
    const result = await session.call('map', { url: server.url('/status/404'), patterns: ['/nothing/**'] });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('HTTP error 404');
  });
});

describe('map on a hostile site', () => {
  it('reads one file of a huge sitemap only up to max_urls, and at most 50 sitemap files of an index naming thousands', async () => {
    const url = hostile.url('/');
    const first = await session.call('map', { url });
    expect(first.structuredContent).toMatchObject({ total: 500, truncated: true, stop_reason: 'max_urls' });
    expect(hostile.hits('/index.xml')).toBe(1);
    expect(hostile.hits('/big.xml')).toBe(1);
    const childHits = () =>
      Array.from({ length: HOSTILE_CHILDREN }, (_, n) => hostile.hits(`/child/${n}.xml`)).reduce((a, b) => a + b);
    expect(childHits()).toBe(0); // max_urls was reached in the big file: no further sitemap fetched

    // Nothing in the big file matches: all its URLs (up to the per-file limit) are looked at, then the children,
    // until the file cap — the index, the big file and 48 children.
    const second = await session.call('map', { url, search: 'tiny/' });
    expect(childHits()).toBe(48);
    expect(second.structuredContent).toMatchObject({
      truncated: true,
      stop_reason: 'sitemap_limit',
      sitemaps_read: 50,
    });
    expect(second.structuredContent).toMatchObject({ total: 49 }); // 48 children + the start page's link
    expect(second.text).toContain(`${HOSTILE_CHILDREN - 48} more sitemap files were not read: at most 50 per call.`);
    expect(BIG_SITEMAP_URLS).toBeGreaterThan(50_000);
  });
});
