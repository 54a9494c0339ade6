// Nothing a site sends runs unbounded on the event loop (issue 23 item 1). Through a real `web-reader serve --http`
// process (the built CLI), while /healthz is polled: a sitemap of 8 MB of unclosed <url> tags (through map and
// crawl; it blocked the loop 48 s and 41 s), a user's regular expression against a 40-character link the site
// chose (13.3 s), and a glob of many ** against a 101-character path (15.7 s). Each call may take what it needs;
// every /healthz meanwhile answers within a second of the server's main-thread CPU time (wall-clock time would also
// count a busy machine, which the server cannot help).
import { afterEach, describe, expect, it } from 'vitest';
import { startServeHttp, type ServedHttp } from './replica-process.js';
import { callApi, watchHealthz, type ApiResult } from './http/http-harness.js';
import { useFixtureServer } from './use-fixture-server.js';

const HEALTHZ_LIMIT_MS = 1000;

// 20,000 <url> entries, none closed, padded to 8 MB.
const UNCLOSED_SITEMAP = (origin: string) => {
  const entries = Array.from(
    { length: 20_000 },
    (_, i) => `<url><loc>${origin}/p/${i}</loc><lastmod>2025-01-01</lastmod>${' '.repeat(360)}\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}`;
};

const page = (links: readonly string[]) =>
  `<!doctype html><html><head><title>Hostile</title></head><body><main><h1>Hostile</h1>` +
  `<p>A page whose links were chosen to be expensive to judge, with enough words to read as content.</p>` +
  links.map((href) => `<a href="${href}">link</a>`).join(' ') +
  `</main></body></html>`;

const LONG_DOCS_LINK = `/docs/${'a'.repeat(34)}`; // 40 characters
const LONG_GLOB_PATH = `/g/${'a/'.repeat(48)}a`; // 100 characters

const fixtures = useFixtureServer((server) => {
  let sitemap: string | undefined;
  server.route('/sitemap.xml', (_req, res) => {
    res.setHeader('content-type', 'application/xml');
    res.end((sitemap ??= UNCLOSED_SITEMAP(`http://${server.hostPort}`)));
  });
  server.route('/', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(page(['/p/0', '/p/1']));
  });
  server.route('/p/:n', (_req, res, params) => {
    res.setHeader('content-type', 'text/html');
    res.end(page([`/p/${Number(params.n) + 2}`]));
  });
  server.route('/docs/', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(page([LONG_DOCS_LINK, '/docs/guide/start.html']));
  });
  server.route('/docs/guide/start.html', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(page([]));
  });
  server.route('/g/', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(page([LONG_GLOB_PATH]));
  });
});

const served: ServedHttp[] = [];
afterEach(() => {
  for (const { child } of served.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Served {
  readonly url: string;
  readonly pid: number;
}

/** A server started and warmed: its engine and crawler are loaded on first use, which is not what is measured. */
async function serve(): Promise<Served> {
  const server = await startServeHttp({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, PER_DOMAIN_INTERVAL: '0' });
  served.push(server);
  const warm = await callApi(server.url, 'crawl', { url: fixtures.url('/docs/guide/start.html'), max_pages: 1 });
  expect(warm.success).toBe(true);
  return { url: server.url, pid: server.child.pid! };
}

/**
 * Runs `call` while /healthz is polled; resolves with the call's result and the most CPU time the server's main thread
 * spent between two answers — its event loop held, which a busy machine does not stretch (watchHealthz).
 */
async function whilePolling<T>(server: Served, call: Promise<T>): Promise<{ result: T; slowestMs: number }> {
  const watch = await watchHealthz(server.url, call, server.pid);
  expect(watch.answers).toBeGreaterThan(0);
  return { result: await call, slowestMs: watch.longestLoopCpuMs };
}

describe('hostile input through serve --http, /healthz answering within 1 s', () => {
  it('maps a site whose sitemap is 8 MB of unclosed <url> tags', { timeout: 120_000 }, async () => {
    const server = await serve();
    const { url } = server;
    const { result, slowestMs } = await whilePolling(server, callApi(url, 'map', { url: fixtures.url('/') }));
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);
    expect(result.success).toBe(true);
    // Each unclosed entry ends where the next opens: the sitemap's URLs are listed.
    expect(result.result?.text).toContain(fixtures.url('/p/19'));
    expect(result.result).toMatchObject({ stop_reason: 'max_urls' });
  });

  it('crawls a site whose sitemap is 8 MB of unclosed <url> tags', { timeout: 120_000 }, async () => {
    const server = await serve();
    const { url } = server;
    const call = callApi<ApiResult>(url, 'crawl', { url: fixtures.url('/'), max_pages: 4, max_seconds: 60 });
    const { result, slowestMs } = await whilePolling(server, call);
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);
    expect(result.success).toBe(true);
    expect(result.result).toMatchObject({ status: 'ok', pages_read: 4 });
  });

  it('judges a 40-character link by a nested-repetition regular expression', { timeout: 120_000 }, async () => {
    const server = await serve();
    const { url } = server;
    const call = callApi<ApiResult>(url, 'crawl', {
      url: fixtures.url('/docs/'),
      patterns: ['re:^/docs/([\\w-]+/?)+\\.html$'],
      max_pages: 3,
    });
    const { result, slowestMs } = await whilePolling(server, call);
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);
    expect(result.result).toMatchObject({ status: 'ok', pages_read: 2 });
    const read = (result.result?.pages as { url: string }[]).map((entry) => entry.url);
    expect(read).toEqual([fixtures.url('/docs/'), fixtures.url('/docs/guide/start.html')]);
  });

  it('judges a 100-character path by a glob of many **', { timeout: 120_000 }, async () => {
    const server = await serve();
    const { url } = server;
    const call = callApi<ApiResult>(url, 'crawl', {
      url: fixtures.url('/g/'),
      patterns: [`/g/**${'a**'.repeat(15)}b`],
      max_pages: 2,
    });
    const { result, slowestMs } = await whilePolling(server, call);
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);
    expect(result.result).toMatchObject({ status: 'ok', pages_read: 1 });
  });

  it('refuses a pattern it cannot run in linear time, naming the argument and the entry', async () => {
    const { url } = await serve();
    const result = await callApi(url, 'crawl', { url: fixtures.url('/'), exclude_patterns: ['re:(a)\\1'] });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(
      /exclude_patterns: 're:\(a\)\\1' is not a valid pattern \(it uses what a linear-time matcher cannot run: backreferences/,
    );
  });
});
