// Lookups nobody asked for never cost the caller (issue 23 item 5), through the library (createWebReader) against a
// loopback site that records every request with its User-Agent, in arrival order: the /llms.txt lookup a page read
// starts waits for an idle turn and never goes before a caller's request; a crawl with CACHE_TTL=0 asks for
// /llms.txt and /robots.txt once, as the crawler; and after close() no lookup reaches the site.
import { afterEach, expect, it, vi } from 'vitest';
import { PRODUCT_USER_AGENT } from '../src/config.js';
import { createWebReader, type WebReader } from '../src/index.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

interface Seen {
  readonly path: string;
  readonly userAgent: string;
}

const page = (title: string, links: readonly string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${'A paragraph of text that reads like an article, long enough to be one. '.repeat(12)}</p>` +
  `<ul>${links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('')}</ul></article></body></html>`;

/** A site of pages /p/0 … /p/8 (/p/0 links to the others), a 404 /llms.txt and /robots.txt, every request logged. */
async function recordingSite(): Promise<{ server: FixtureServer; seen: Seen[] }> {
  const server = await startFixtureServer();
  const seen: Seen[] = [];
  const log = (path: string, userAgent: string | undefined) => seen.push({ path, userAgent: userAgent ?? '' });
  server.route('/p/:n', (req, res, params) => {
    log(`/p/${params.n}`, req.headers['user-agent']);
    const links = params.n === '0' ? [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `/p/${n}`) : [];
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`Page ${params.n}`, links));
  });
  for (const path of ['/llms.txt', '/robots.txt']) {
    server.route(path, (req, res) => {
      log(path, req.headers['user-agent']);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
  }
  return { server, seen };
}

let server: FixtureServer | undefined;
let reader: WebReader | undefined;
afterEach(async () => {
  await reader?.close();
  await server?.close();
  reader = server = undefined;
});

function open(site: FixtureServer, env: Record<string, string>): WebReader {
  return createWebReader({ env: { ALLOW_PRIVATE_HOSTS: site.hostPort, RENDER_JS: 'never', ...env } });
}

it("an agent's second read of a site is not queued behind the /llms.txt lookup the first one started", async () => {
  const site = await recordingSite();
  server = site.server;
  // The site holds its answer to /llms.txt: a lookup that took the host's turn, or its one request slot
  // (MAX_CONCURRENT=1), would keep the next read waiting until the lookup's own deadline closes it.
  let lookupOpen = false;
  server.route('/llms.txt', (req, res) => {
    site.seen.push({ path: '/llms.txt', userAgent: req.headers['user-agent'] ?? '' });
    lookupOpen = true;
    res.on('close', () => (lookupOpen = false));
  });
  const openWhenAsked: boolean[] = [];
  server.route('/p/2', (_req, res) => {
    openWhenAsked.push(lookupOpen);
    site.seen.push({ path: '/p/2', userAgent: '' });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Page 2'));
  });
  reader = open(server, { PER_DOMAIN_INTERVAL: '1000', MAX_CONCURRENT: '1' });
  expect((await reader.fetch({ url: server.url('/p/1') })).isError).toBeFalsy();
  await vi.waitFor(() => expect(lookupOpen).toBe(true), { timeout: 15_000 });
  const began = Date.now();
  expect((await reader.fetch({ url: server.url('/p/2') })).isError).toBeFalsy();
  console.info(`second read, the lookup in flight: ${Date.now() - began} ms (PER_DOMAIN_INTERVAL 1000)`);
  expect(site.seen.map((one) => one.path)).toEqual(['/p/1', '/llms.txt', '/p/2']);
  expect(openWhenAsked).toEqual([true]); // asked while the lookup was still waiting for its answer
});

it('a crawl with CACHE_TTL=0 asks for /llms.txt and /robots.txt once each, as the crawler it announces', async () => {
  const site = await recordingSite();
  server = site.server;
  reader = open(server, { CACHE_TTL: '0', PER_DOMAIN_INTERVAL: '0' });
  const result = await reader.call('crawl', { url: server.url('/p/0'), max_pages: 9 });
  expect(result.isError).toBeFalsy();
  expect((result.structured as unknown as { pages_read: number }).pages_read).toBe(9);
  await vi.waitFor(() => expect(site.seen.map((one) => one.path)).toContain('/llms.txt'), { timeout: 15_000 });
  await new Promise((resolve) => setTimeout(resolve, 300)); // room for a second ask, were there one
  const asked = (path: string) => site.seen.filter((one) => one.path === path);
  expect(asked('/llms.txt').length).toBe(1);
  expect(asked('/robots.txt').length).toBe(1);
  for (const one of site.seen) expect(one.userAgent, one.path).toBe(PRODUCT_USER_AGENT);
});

it('after close() no lookup reaches the site', async () => {
  const site = await recordingSite();
  server = site.server;
  const closing = open(server, { PER_DOMAIN_INTERVAL: '1000' });
  expect((await closing.fetch({ url: server.url('/p/1') })).isError).toBeFalsy();
  await closing.close();
  // The lookup would have had its turn 1 s after the page; wait well past it.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(site.seen.map((one) => one.path)).toEqual(['/p/1']);
});
