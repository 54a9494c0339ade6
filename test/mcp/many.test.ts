// search and read_many through a real MCP client (issue 26 "Done means"): the built CLI as an MCP server over stdio,
// a SearXNG answering its documented JSON on loopback, and pages on five loopback hosts (five servers: a host is a
// name and a port, as the request queue keys it).
import type { ServerResponse } from 'node:http';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokensAsync } from '../../src/tokens.js';
import { closedPort, startFixtureServer, type FixtureServer } from '../fixture-server.js';
import { addSearchProviders } from '../search-providers.js';
import { expectSpaced } from '../spacing.js';
import { connectStdio, type StdioSession } from './stdio-client.js';

const INTERVAL_MS = 300;
const HOSTS = 5;

const paragraph = (title: string) =>
  `<p>${`${title} explains one thing at length, with words enough to be the page's main content. `.repeat(40)}</p>`;
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${paragraph(title)}</main></body></html>`;

let provider: FixtureServer;
let providerState: ReturnType<typeof addSearchProviders>;
const hosts: FixtureServer[] = [];
/** Arrival times of page requests, per host index, and the order of first arrivals across hosts. */
const arrivals: number[][] = [];
const events: string[] = [];
const stalled: ServerResponse[] = [];
let droppedStalled = 0;
let session: StdioSession;

beforeAll(async () => {
  provider = await startFixtureServer();
  providerState = addSearchProviders(provider);
  for (let h = 0; h < HOSTS; h++) {
    const server = await startFixtureServer();
    arrivals.push([]);
    server.route('/page/:n', (_req, res, params) => {
      arrivals[h]!.push(performance.now());
      events.push(`host${h}`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(`Host ${h} page ${params.n}`));
    });
    server.route('/stall', (_req, res) => {
      events.push(`host${h}-stall`);
      stalled.push(res);
      res.on('close', () => {
        if (!res.writableEnded) droppedStalled += 1;
      });
    });
    hosts.push(server);
  }
  session = await connectStdio(['--tools', 'all'], {
    ALLOW_PRIVATE_HOSTS: hosts.map((server) => server.hostPort).join(','),
    SEARXNG_URL: provider.url('/'),
    PER_DOMAIN_INTERVAL: String(INTERVAL_MS),
    FETCH_TIMEOUT: '60000',
    QUEUE_TIMEOUT: '60000',
  });
}, 60_000);

afterAll(async () => {
  await session?.close();
  for (const res of stalled) res.destroy();
  await Promise.all([provider?.close(), ...hosts.map((server) => server.close())]);
});

const structured = (result: CallToolResult) =>
  result.structuredContent as {
    status: string;
    pages: Array<
      Record<string, unknown> & {
        status: string;
        url: string;
        error?: { code: string };
        tokens: number;
        content: string;
      }
    >;
    unfinished: string[];
    cut_pages: number;
    budget_tokens?: number;
    results?: Array<{ url: string; title: string; engine: string }>;
  };

describe('search', () => {
  it('with read: 3 returns the results and three read pages, the whole within max_tokens', async () => {
    providerState.mode = 'results';
    providerState.results = [0, 1, 2, 3].map((h) => ({
      url: hosts[h]!.url(`/page/search${h}`),
      title: `Result on host ${h}`,
      snippet: `about host ${h}`,
    }));
    const result = await session.call('search', { query: 'host pages', read: 3, max_tokens: 1500 });
    expect(result.isError, result.text).toBeFalsy();
    const data = structured(result);
    expect(data.results!.map((hit) => hit.title)).toEqual([0, 1, 2, 3].map((h) => `Result on host ${h}`));
    expect(data.pages.map((p) => [p.url, p.status])).toEqual(
      [0, 1, 2].map((h) => [hosts[h]!.url(`/page/search${h}`), 'ok']),
    );
    // Each page needs more than a third of the budget: all three are cut, to shares within one token of each other.
    expect(data.cut_pages).toBe(3);
    const tokens = data.pages.map((p) => p.tokens);
    expect(Math.max(...tokens) - Math.min(...tokens)).toBeLessThanOrEqual(Math.ceil(Math.max(...tokens) * 0.1));
    expect(await countTokensAsync(result.text)).toBeLessThanOrEqual(1500);
    if (process.env.SHOW) console.log(result.text);
    expect(result.text).toMatch(/^4 results for "host pages" \(SearXNG\):\n\n1\. Result on host 0\n {3}http/);
    // The pages read are narrowed to the search words (query): a cut one is read whole alone, with that query.
    expect(result.text).toContain('call fetch with this URL and the same query for its whole answer.');
    expect(data.pages[0]!.content).toContain('### Host 0 page search0 (part 1 of 5)'); // its passages, under its path
  });

  it("does not read a result on the provider's own address", async () => {
    providerState.mode = 'results';
    providerState.results = [{ url: provider.url('/internal'), title: 'The provider itself' }];
    const result = await session.call('search', { query: 'inside', read: 1 });
    const [only] = structured(result).pages;
    expect(only).toMatchObject({ status: 'error', error: { code: 'PRIVATE_ADDRESS' } });
    expect(result.text).toContain('points at the search provider itself');
    expect(provider.hits('/internal')).toBe(0);
  });

  it('a provider answering 429 is SEARCH_UNAVAILABLE naming it', async () => {
    providerState.mode = '429';
    const result = await session.call('search', { query: 'busy' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'SEARCH_UNAVAILABLE' } });
    expect(result.text).toMatch(/SearXNG search provider is rate-limiting us/);
  });

  it('an empty query is refused naming the argument', async () => {
    const result = await session.call('search', { query: '' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/query must not be empty/);
  });
});

describe('read_many', () => {
  it('reads 20 URLs on 5 hosts: the 19 others by the deadline, the stalled one named, each host spaced', async () => {
    // Hosts 0–3 have 19 pages between them (5, 5, 5, 4); host 4 has one page, which never answers.
    const urls: string[] = [];
    for (let n = 0; n < 19; n++) urls.push(hosts[n % 4]!.url(`/page/many${n}`));
    urls.splice(7, 0, hosts[4]!.url('/stall'));
    const progress: Progress[] = [];
    events.length = 0;
    const result = (await session.client.callTool({ name: 'read_many', arguments: { urls, timeout: 15 } }, undefined, {
      onprogress: (update) => progress.push(update),
      timeout: 60_000,
    })) as CallToolResult;
    const data = structured(result);
    expect(result.isError).toBeFalsy();
    // In the order given, each with its own outcome; the stalled one named as unfinished.
    expect(data.pages.map((p) => p.url)).toEqual(urls);
    expect(data.pages.filter((p) => p.status === 'ok')).toHaveLength(19);
    expect(data.pages[7]).toMatchObject({ status: 'error', finished: false, error: { code: 'TIMEOUT' } });
    expect(data.unfinished).toEqual([hosts[4]!.url('/stall')]);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('1 unfinished at the deadline') });
    // Progress for each page that finished, counted against all twenty.
    expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    expect(progress.every((p) => p.total === 20)).toBe(true);
    // Across hosts at once: every host's first request came before any host's third.
    const firstThird = events.findIndex((event, i) => events.slice(0, i).filter((e) => e === event).length === 2);
    expect(new Set(events.slice(0, firstThird)).size).toBe(5);
    // Within a host, PER_DOMAIN_INTERVAL apart.
    for (let h = 0; h < 4; h++) expectSpaced(arrivals[h]!.slice(-(h === 3 ? 4 : 5)), INTERVAL_MS);
    // The stalled read was cancelled at the deadline: its request dropped.
    await expect.poll(() => droppedStalled).toBe(1);
  }, 60_000);

  it('a cancelled call stops its reads: the stalled request is dropped, and the server reads on', async () => {
    const before = droppedStalled;
    const stalledUrl = hosts[4]!.url('/stall?cancelled');
    events.length = 0;
    const controller = new AbortController();
    const call = session.client.callTool(
      { name: 'read_many', arguments: { urls: [hosts[0]!.url('/page/c1'), stalledUrl], timeout: 120 } },
      undefined,
      { signal: controller.signal, timeout: 120_000 },
    );
    await expect.poll(() => events.includes('host4-stall')).toBe(true);
    controller.abort(new Error('the agent moved on'));
    await expect(call).rejects.toThrow();
    // notifications/cancelled reached the server: the read waiting on the stalled host was cancelled, long before
    // the call's own 120 s deadline.
    await expect.poll(() => droppedStalled - before, { timeout: 30_000 }).toBe(1);
    const next = await session.call('read_many', { urls: [hosts[1]!.url('/page/after-cancel')] });
    expect(structured(next).pages[0]).toMatchObject({ status: 'ok' });
  });

  it('a call whose every page failed is an error (isError), each page naming its failure', async () => {
    const refused = `http://127.0.0.1:${await closedPort()}/gone`; // a port ALLOW_PRIVATE_HOSTS does not name
    const result = await session.call('read_many', { urls: [refused, hosts[0]!.url('/missing/page')] });
    expect(result.isError).toBe(true);
    const data = structured(result);
    expect(data.pages.map((p) => p.status)).toEqual(['error', 'error']);
    expect(data.pages.map((p) => p.error?.code)).toEqual(['PRIVATE_ADDRESS', 'HTTP_STATUS']);
    const mixed = await session.call('read_many', { urls: [refused, hosts[0]!.url('/page/fine')] });
    expect(mixed.isError).toBeFalsy();
  });

  it('a max_tokens too small for the pages says so and what would do, rather than returning bare headers', async () => {
    const urls = [0, 1, 2].map((h) => hosts[h]!.url('/page/starved'));
    const result = await session.call('read_many', { urls, max_tokens: 120 });
    expect(result.text).toMatch(/max_tokens 120 is too small for 3 pages: their headers and notes take \d+ tokens/);
    const enough = Number(/max_tokens of at least (\d+)/.exec(result.text)?.[1]);
    const fed = await session.call('read_many', { urls, max_tokens: enough });
    expect(fed.text).not.toMatch(/is too small/);
    // The summary names the caller's max_tokens beside the share left for the pages' content.
    const shared = new RegExp(`cut to share the (\\d+) tokens of max_tokens ${enough} left for content`);
    expect(Number(shared.exec(fed.text)?.[1])).toBeLessThan(enough);
    expect(structured(fed).pages.every((p) => p.content.includes('explains one thing at length'))).toBe(true);
  });

  it('refuses 21 URLs and a non-URL, naming them', async () => {
    const many = Array.from({ length: 21 }, (_, n) => hosts[0]!.url(`/page/x${n}`));
    const tooMany = await session.call('read_many', { urls: many });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toMatch(/urls takes at most 20 URLs; 21 were given/);
    const notUrl = await session.call('read_many', { urls: [hosts[0]!.url('/page/1'), 'not a url'] });
    expect(notUrl.isError).toBe(true);
    expect(notUrl.text).toMatch(/urls\[1\] is not an absolute http\(s\) URL: 'not a url'/);
  });
});

it('without a provider, search is not offered', async () => {
  const plain = await connectStdio(['--tools', 'all'], {});
  try {
    const { tools } = await plain.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('read_many');
    expect(tools.map((tool) => tool.name)).not.toContain('search');
  } finally {
    await plain.close();
  }
});
