// search and read_many over the JSON tools API (issue 26): the same structured results as MCP, `success` per call
// and an outcome per page; an argument error is HTTP 400; search is listed once a provider is configured.
import { describe, expect, it } from 'vitest';
import { createWebReader } from '../../src/index.js';
import { addSearchProviders } from '../search-providers.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { type ApiResult, useTestHttpServer } from './http-harness.js';

const article = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${`${title} has words enough to be read as the main content of this page. `.repeat(4)}</p></main></body></html>`;

let provider: ReturnType<typeof addSearchProviders>;
const pages = useFixtureServer((server) => {
  for (const name of ['a', 'b']) {
    server.route(`/${name}`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(article(`Page ${name}`));
    });
  }
});
const search = useFixtureServer((server) => {
  provider = addSearchProviders(server);
});
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: pages.hostPort, SEARXNG_URL: search.url('/') }));

async function call(name: string, body: unknown): Promise<{ status: number; json: ApiResult }> {
  const response = await fetch(`${http.url}/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as ApiResult };
}

type Pages = { pages: Array<{ url: string; status: string; content: string; error?: { code: string } }> };

describe('the JSON API', () => {
  it('lists search once a provider is configured', async () => {
    const tools = (await (await fetch(`${http.url}/tools`)).json()) as Array<{ name: string }>;
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read_many', 'search']));
  });

  it('read_many: each page with its outcome, in the order given', async () => {
    const urls = [pages.url('/b'), pages.url('/nothing-here'), pages.url('/a')];
    const { status, json } = await call('read_many', { urls });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    const result = json.result as unknown as Pages & { text: string };
    expect(result.pages.map((page) => [page.url, page.status])).toEqual([
      [urls[0], 'ok'],
      [urls[1], 'error'],
      [urls[2], 'ok'],
    ]);
    expect(result.pages[1]!.error).toMatchObject({ code: 'HTTP_STATUS' });
    expect(result.pages[2]!.content).toContain('# Page a');
    expect(result.text).toContain(`## [2/3] ${urls[1]} — error`);
  });

  it('read_many: 21 URLs is HTTP 400 naming urls', async () => {
    const urls = Array.from({ length: 21 }, (_, n) => pages.url(`/a?n=${n}`));
    const { status, json } = await call('read_many', { urls });
    expect(status).toBe(400);
    expect(json.error).toMatch(/urls takes at most 20 URLs; 21 were given/);
  });

  it('search with read: results and the pages read', async () => {
    provider.mode = 'results';
    provider.results = [
      { url: pages.url('/a'), title: 'Page a' },
      { url: pages.url('/b'), title: 'Page b' },
    ];
    const { json } = await call('search', { query: 'pages', read: 1 });
    expect(json.success).toBe(true);
    const result = json.result as unknown as Pages & { results: Array<{ url: string }>; provider: string };
    expect(result.provider).toBe('SearXNG');
    expect(result.results.map((hit) => hit.url)).toEqual([pages.url('/a'), pages.url('/b')]);
    expect(result.pages.map((page) => page.status)).toEqual(['ok']);
  });

  it('search: a provider answering 401 is success: false with SEARCH_UNAVAILABLE', async () => {
    provider.mode = '401';
    const { status, json } = await call('search', { query: 'pages' });
    expect(status).toBe(200);
    expect(json.success).toBe(false);
    expect(json.result).toMatchObject({ error: { code: 'SEARCH_UNAVAILABLE' } });
  });
});

describe('the library', () => {
  it('readMany and search return the same structured results', async () => {
    const reader = createWebReader({
      env: { ALLOW_PRIVATE_HOSTS: pages.hostPort, PER_DOMAIN_INTERVAL: '0', SEARXNG_URL: search.url('/') },
    });
    try {
      const many = await reader.readMany({ urls: [pages.url('/a'), pages.url('/b')], max_tokens: 5000 });
      expect((many.structured as unknown as Pages).pages.map((page) => page.status)).toEqual(['ok', 'ok']);
      provider.mode = 'results';
      provider.results = [{ url: pages.url('/b'), title: 'Page b' }];
      const found = await reader.search({ query: 'b', max_results: 1 });
      expect(found.structured).toMatchObject({ status: 'ok', results: [{ rank: 1, url: pages.url('/b') }] });
    } finally {
      await reader.close();
    }
  });

  it('search without a provider says which variable to set', async () => {
    const reader = createWebReader();
    try {
      const output = await reader.search({ query: 'anything' });
      expect(output.isError).toBe(true);
      expect(output.structured).toMatchObject({ error: { code: 'SEARCH_UNAVAILABLE' } });
      expect(output.text).toMatch(/set SEARXNG_URL/);
    } finally {
      await reader.close();
    }
  });
});
