// llms.txt and Markdown twins by convention (issue 14 item 6), through a real MCP client over stdio: a page whose
// site's /llms.txt lists its .md twin is read from the twin, and says so; the file is fetched once per origin per
// site-file TTL (at least an hour, whatever CACHE_TTL says), found or not; a listed twin that is missing costs one
// request, not one per read.
import { describe, expect, it, vi } from 'vitest';
import { addMapSite } from '../map-site-routes.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { useMcpSession } from './session.js';

// A second origin without /llms.txt (404 on every path but its pages).
const bare = useFixtureServer(addMapSite);
const { server, connect } = useMcpSession({
  tools: 'fetch,read_url,map',
  setup: addMapSite,
  perTest: true,
  env: () => ({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},${bare.hostPort}`, FETCH_TIMEOUT: '5000' }),
});

/** The origin's llms.txt read, as `map` reads it (a page read only starts the lookup; it never waits for it). */
async function lookUp(session: Awaited<ReturnType<typeof connect>>): Promise<void> {
  await session.call('map', { url: server.url('/map-start'), max_urls: 1 });
}

describe('Markdown twins named by /llms.txt', () => {
  it('a first read does not wait for llms.txt; it starts the lookup, and the next read uses the twin', async () => {
    const session = await connect();
    const url = server.url('/docs/guide');
    const first = await session.call('fetch', { url });
    expect(first.text).toContain('The HTML guide');
    // The lookup takes an idle turn of the host's: on a loaded machine that is seconds, not vi.waitFor's default 1 s.
    await vi.waitFor(
      async () => {
        const next = await session.call('fetch', { url });
        expect(next.structuredContent).toMatchObject({ markdown_source: 'llms.txt' });
      },
      { timeout: 30_000, interval: 500 },
    );
  });

  it('reads the .md twin llms.txt lists for the page, and says where the Markdown came from', async () => {
    const session = await connect();
    await lookUp(session);
    const url = server.url('/docs/guide');
    const result = await session.call('fetch', { url });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain(
      `(Markdown version of this page, from ${server.url('/docs/guide.md')}, which the site's /llms.txt lists for it.)`,
    );
    expect(result.text).toContain('The guide as its author wrote it in Markdown.');
    expect(result.text).not.toContain('The HTML guide');
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      markdown_twin: server.url('/docs/guide.md'),
      markdown_source: 'llms.txt',
    });
  });

  it("a page llms.txt lists by its own URL is read from the convention's twin, its path + .md", async () => {
    const session = await connect();
    await lookUp(session);
    const result = await session.call('read_url', { url: server.url('/docs/listed') });
    expect(result.text).toContain('The twin the convention points at.');
    const fetched = await session.call('fetch', { url: server.url('/docs/listed') });
    expect(fetched.structuredContent).toMatchObject({
      markdown_twin: server.url('/docs/listed.md'),
      markdown_source: 'llms.txt',
    });
  });

  it('a twin the page declares with <link rel="alternate"> says so: link-alternate', async () => {
    const session = await connect();
    const result = await session.call('fetch', { url: server.url('/docs/declared') });
    expect(result.text).toContain('which the page declares as its text/markdown alternate.');
    expect(result.structuredContent).toMatchObject({ markdown_source: 'link-alternate' });
  });

  it('fetches llms.txt once per origin across reads and the map tool; a missing guessed twin costs one request', async () => {
    const session = await connect();
    const before = server.hits('/llms.txt');
    const missingBefore = server.hits('/docs/nomd.md');
    await lookUp(session);
    for (const path of ['/docs/guide', '/docs/listed', '/docs/nomd', '/docs/declared', '/docs/nomd']) {
      expect((await session.call('fetch', { url: server.url(path) })).isError).toBeFalsy();
    }
    await session.call('map', { url: server.url('/map-start') });
    expect(server.hits('/llms.txt') - before).toBe(1);
    // /docs/nomd is listed but has no twin: extracted, and the guess is not tried again within CACHE_TTL.
    expect(server.hits('/docs/nomd.md') - missingBefore).toBe(1);
    const nomd = await session.call('fetch', { url: server.url('/docs/nomd') });
    expect(nomd.text).toContain('A listed page that has no Markdown twin.');
    expect(nomd.structuredContent).not.toHaveProperty('markdown_source');
  });

  it('a site without llms.txt (404) costs one request per origin, and its pages read as before', async () => {
    const session = await connect();
    // `bare` has the same routes but answers /llms.txt with 404.
    bare.route('/llms.txt', (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
    });
    const before = bare.hits('/llms.txt');
    for (const n of [1, 2, 3]) {
      const result = await session.call('fetch', { url: bare.url(`/plain/${n}`) });
      expect(result.isError).toBeFalsy();
      expect(result.text).toContain(`Plain ${n}`);
      expect(result.structuredContent).not.toHaveProperty('markdown_source');
    }
    const guide = await session.call('fetch', { url: bare.url('/docs/guide') });
    expect(guide.text).toContain('The HTML guide');
    await vi.waitFor(() => expect(bare.hits('/llms.txt') - before).toBe(1), { timeout: 30_000, interval: 200 });
  });

  it('with CACHE_TTL=0 the answer is still kept per origin (the site-file TTL): llms.txt is asked for once', async () => {
    const session = await connect({ CACHE_TTL: '0' });
    const before = server.hits('/llms.txt');
    await session.call('fetch', { url: server.url('/docs/guide') });
    await session.call('fetch', { url: server.url('/docs/guide') });
    await vi.waitFor(
      async () => {
        const next = await session.call('fetch', { url: server.url('/docs/guide') });
        expect(next.structuredContent).toMatchObject({ markdown_source: 'llms.txt' });
      },
      { timeout: 30_000, interval: 500 },
    );
    expect(server.hits('/llms.txt') - before).toBe(1);
  });
});
