// The search providers against their documented answers served on loopback (test/search-providers.ts): pages,
// keys, and every failure as SEARCH_UNAVAILABLE naming the provider. The provider's address is private and named in
// no ALLOW_PRIVATE_HOSTS: trusted as configuration, for searching only.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { addSearchProviders } from '../../test/search-providers.js';
import { useFixtureServer } from '../../test/use-fixture-server.js';
import { searchWebFor } from './search-web.js';

let provider: ReturnType<typeof addSearchProviders>;
const server = useFixtureServer((server) => {
  provider = addSearchProviders(server);
});

const results = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    url: `https://example.com/r${i + 1}`,
    title: `Result ${i + 1}`,
    snippet: `s${i + 1}`,
  }));

function searxng() {
  return searchWebFor(resolveConfig({ SEARXNG_URL: server.url('/') }));
}

describe('SearXNG', () => {
  it('pages through its JSON answer until max_results, in its order, without ALLOW_PRIVATE_HOSTS', async () => {
    provider.mode = 'results';
    provider.results = results(25);
    provider.perPage = 10;
    const before = provider.requests.length;
    const answer = await searxng().search({ query: 'rust async', maxResults: 15, language: 'en', timeRange: 'week' });
    expect(answer.provider).toBe('SearXNG');
    expect(answer.hits.map((hit) => hit.title)).toEqual(results(15).map((r) => r.title));
    expect(answer.hits[0]).toMatchObject({ url: 'https://example.com/r1', snippet: 's1', engine: 'duckduckgo' });
    const sent = provider.requests.slice(before).map((r) => Object.fromEntries(r.params));
    expect(sent).toEqual([
      { q: 'rust async', format: 'json', pageno: '1', language: 'en', time_range: 'week' },
      { q: 'rust async', format: 'json', pageno: '2', language: 'en', time_range: 'week' },
    ]);
  });

  it('stops at the page that adds nothing', async () => {
    provider.mode = 'results';
    provider.results = results(12);
    const before = provider.requests.length;
    const answer = await searxng().search({ query: 'q', maxResults: 20 });
    expect(answer.hits).toHaveLength(12);
    expect(provider.requests.length - before).toBe(3); // pages 1, 2, and the empty 3
  });

  it('returns no hits for an empty answer', async () => {
    provider.mode = 'empty';
    expect((await searxng().search({ query: 'nothing', maxResults: 5 })).hits).toEqual([]);
  });

  it.each([
    ['429', /SearXNG search provider is rate-limiting us \(HTTP 429\); retry after 60 s/],
    ['401', /SearXNG search provider refused our credentials \(HTTP 401\)/],
    ['malformed', /SearXNG search provider answered with something that is not its JSON search results \(not JSON\)/],
  ] as const)('a %s answer is SEARCH_UNAVAILABLE naming the provider', async (mode, message) => {
    provider.mode = mode;
    await expect(searxng().search({ query: 'q', maxResults: 5 })).rejects.toMatchObject({
      code: 'SEARCH_UNAVAILABLE',
      message: expect.stringMatching(message),
    });
  });

  it('a provider that is down is SEARCH_UNAVAILABLE naming it', async () => {
    const down = searchWebFor(resolveConfig({ SEARXNG_URL: 'http://127.0.0.1:1/' }));
    await expect(down.search({ query: 'q', maxResults: 5 })).rejects.toMatchObject({
      code: 'SEARCH_UNAVAILABLE',
      message: expect.stringMatching(/^The SearXNG search provider could not be reached \(CONNECT_FAILED/),
    });
  });

  it("refuses a result on the provider's own host:port, and no other", () => {
    const searcher = searxng();
    expect(searcher.providerResultError(server.url('/admin'))).toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(searcher.providerResultError('https://example.com/')).toBeUndefined();
  });
});

describe('Brave Search API', () => {
  const brave = () =>
    searchWebFor(resolveConfig({ BRAVE_API_KEY: 'k-123', BRAVE_API_URL: server.url('/res/v1/web/search') }));

  it('sends the key as X-Subscription-Token and count, language and freshness as Brave names them', async () => {
    provider.mode = 'results';
    provider.results = results(8);
    const before = provider.requests.length;
    const answer = await brave().search({ query: 'q', maxResults: 5, language: 'de', timeRange: 'month' });
    expect(answer.provider).toBe('Brave');
    expect(answer.hits).toHaveLength(5);
    // <strong> is markup around the matched words, and &amp; an entity: the snippet is plain text.
    expect(answer.hits[0]).toMatchObject({ title: 'Result 1', snippet: 's1 & more', engine: 'brave' });
    const [request] = provider.requests.slice(before);
    expect(request!.token).toBe('k-123');
    expect(Object.fromEntries(request!.params)).toEqual({ q: 'q', count: '5', search_lang: 'de', freshness: 'pm' });
  });

  it('an answer without `web` (nothing matched) has no hits', async () => {
    provider.mode = 'empty';
    expect((await brave().search({ query: 'q', maxResults: 5 })).hits).toEqual([]);
  });

  it('a 401 (a wrong key) is SEARCH_UNAVAILABLE naming Brave', async () => {
    provider.mode = '401';
    await expect(brave().search({ query: 'q', maxResults: 5 })).rejects.toMatchObject({
      code: 'SEARCH_UNAVAILABLE',
      message: expect.stringMatching(/^The Brave search provider refused our credentials \(HTTP 401\)/),
    });
  });
});

it('without a provider, says which variable to set', () => {
  expect(() => searchWebFor(resolveConfig({}))).toThrow(/set SEARXNG_URL .* or BRAVE_API_KEY/);
});
