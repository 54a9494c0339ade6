// Fair, honest queues through the JSON tools API (issue 10, scope 5; SPEC "Calls that end in time"): time spent
// waiting for a turn never counts against FETCH_TIMEOUT, a wait past QUEUE_TIMEOUT is its own error, stalled
// origins cannot starve a healthy one, and one caller's hang-up does not cancel another's shared fetch.
// Distinct fixture servers (distinct ports) are distinct hosts to the queue.
import { afterEach, describe, expect, it } from 'vitest';
import { ARTICLE_HTML, startFixtureServer, type FixtureServer } from '../fixture-server.js';
import { callApi, startTestHttpServer, type TestHttpServer } from './http-harness.js';

const open: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function fixtureServers(count: number): Promise<FixtureServer[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => startFixtureServer()));
  open.push(...servers);
  return servers;
}

async function apiServer(env: Record<string, string>): Promise<TestHttpServer> {
  const http = await startTestHttpServer(env);
  open.push(http);
  return http;
}

const call = (http: TestHttpServer, name: string, args: unknown, signal?: AbortSignal) =>
  callApi(http.url, name, args, signal);

/**
 * Routes `/shared` on `site`: answers ARTICLE_HTML after `answerAfterMs`, or never when it is undefined, and counts
 * the responses whose connection closed before they were finished (the fetch behind them was aborted).
 */
function routeShared(site: FixtureServer, answerAfterMs?: number): { readonly closedEarly: number } {
  const counts = { closedEarly: 0 };
  site.route('/shared', (_req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) counts.closedEarly++;
    });
    if (answerAfterMs === undefined) return;
    setTimeout(() => {
      if (!res.destroyed) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(ARTICLE_HTML);
      }
    }, answerAfterMs);
  });
  return counts;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the request queue through the JSON API', () => {
  it('a burst of distinct pages on one host waits its turn without one network time-out', async () => {
    const [site] = await fixtureServers(1);
    site!.route('/page/:n', (_req, res, { n }) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(ARTICLE_HTML.replace('</h1>', ` ${n}</h1>`));
    });
    // 13 pages 700 ms apart: the last waits ~8.4 s in the queue, more than twice FETCH_TIMEOUT. A deadline of 4 s
    // leaves a loaded machine time for each page's own fetch (1 s did not, at load 23).
    const http = await apiServer({
      ALLOW_PRIVATE_HOSTS: site!.hostPort,
      MAX_CONCURRENT: '3',
      PER_DOMAIN_INTERVAL: '700',
      FETCH_TIMEOUT: '4000',
    });
    const results = await Promise.all(
      Array.from({ length: 13 }, (_, n) => call(http, 'fetch', { url: site!.url(`/page/${n}`) })),
    );
    const failures = results.filter((result) => !result.success).map((result) => result.error);
    expect(failures).toEqual([]);
    expect(site!.hits('/page/12')).toBe(1);
  });

  it('refuses with QUEUE_TIMEOUT, at once, calls whose turn would come after QUEUE_TIMEOUT', async () => {
    const [site] = await fixtureServers(1);
    // A spacing of 3 s: the third call's turn is 6 s away, past the 4 s wait limit.
    const http = await apiServer({
      ALLOW_PRIVATE_HOSTS: site!.hostPort,
      PER_DOMAIN_INTERVAL: '3000',
      QUEUE_TIMEOUT: '4000',
    });
    const first = call(http, 'fetch', { url: site!.url('/html?1') });
    await until(() => site!.hits('/html') === 1, 'the first request');
    const second = call(http, 'fetch', { url: site!.url('/html?2') });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the second is in line
    const third = await call(http, 'fetch', { url: site!.url('/html?3') });
    // At once: while the second is still in line (its turn 3 s after the first), not after waiting out the limit.
    expect(site!.hits('/html')).toBe(1);
    expect(third.success).toBe(false);
    expect(third.result?.error?.code).toBe('QUEUE_TIMEOUT');
    // The wait, as data, for a client that schedules its retry.
    expect(third.result?.error?.retry_after_seconds).toBeGreaterThanOrEqual(4);
    expect(third.error).toContain(`retry in ${third.result?.error?.retry_after_seconds} s`);
    expect(third.error).toMatch(
      new RegExp(`^busy: [12] requests ahead for host ${site!.hostPort}, retry in [4-6] s\\.`),
    );
    expect(third.error).not.toMatch(/timed out/i);
    // web_scraper keeps its seed wording for network time-outs only.
    const scraper = await call(http, 'web_scraper', { url: site!.url('/html?4') });
    expect(scraper.success).toBe(false);
    expect(scraper.error).toMatch(/^busy: \d+ requests ahead for host /);
    expect((await first).success).toBe(true);
    const secondResult = await second;
    expect(secondResult.success, JSON.stringify(secondResult)).toBe(true);
  });

  it('three stalled origins holding every MAX_CONCURRENT slot do not starve a call to a healthy host', async () => {
    const [healthy, ...stalled] = await fixtureServers(4);
    const http = await apiServer({
      ALLOW_PRIVATE_HOSTS: [healthy!, ...stalled].map((server) => server.hostPort).join(','),
      MAX_CONCURRENT: '3',
      FETCH_TIMEOUT: '20000',
    });
    const hangUp = new AbortController();
    const stalls = stalled.map((server) =>
      call(http, 'fetch', { url: server.url('/slow-headers') }, hangUp.signal).catch(() => undefined),
    );
    await until(() => stalled.every((server) => server.hits('/slow-headers') === 1), 'three stalled requests');
    let stallsAnswered = 0;
    for (const stall of stalls) void stall.finally(() => (stallsAnswered += 1));
    const result = await call(http, 'fetch', { url: healthy!.url('/html') });
    expect(result.success).toBe(true);
    expect(result.result?.text).toContain('Fixture');
    // About 2 s in, when a stalled request gives its slot back: before any stalled call ends (their 20 s deadline).
    expect(stallsAnswered).toBe(0);
    hangUp.abort();
    await Promise.all(stalls);
  });

  it('one caller hanging up does not cancel the fetch another caller of the same URL is waiting on', async () => {
    const [site] = await fixtureServers(1);
    const shared = routeShared(site!, 800);
    const http = await apiServer({ ALLOW_PRIVATE_HOSTS: site!.hostPort });
    const leaver = new AbortController();
    const first = call(http, 'fetch', { url: site!.url('/shared') }, leaver.signal).catch((error: unknown) => error);
    await until(() => site!.hits('/shared') === 1, 'the shared request');
    const second = call(http, 'fetch', { url: site!.url('/shared') });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the second caller has joined the fetch
    leaver.abort();
    expect(await first).toMatchObject({ name: 'AbortError' });
    const result = await second;
    expect(result.success).toBe(true);
    expect(result.result?.text).toContain('Fixture');
    expect(site!.hits('/shared')).toBe(1);
    expect(shared.closedEarly).toBe(0);
  });

  it('the shared fetch is aborted once every caller waiting on it has gone', async () => {
    const [site] = await fixtureServers(1);
    const shared = routeShared(site!);
    const http = await apiServer({ ALLOW_PRIVATE_HOSTS: site!.hostPort, FETCH_TIMEOUT: '20000' });
    const callers = [new AbortController(), new AbortController()];
    const calls = callers.map((caller) =>
      call(http, 'fetch', { url: site!.url('/shared') }, caller.signal).catch((error: unknown) => error),
    );
    await until(() => site!.hits('/shared') === 1, 'the shared request');
    await new Promise((resolve) => setTimeout(resolve, 100));
    callers[0]!.abort();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(shared.closedEarly).toBe(0); // one caller is still waiting
    callers[1]!.abort();
    await until(() => shared.closedEarly === 1, 'the origin connection to close');
    await Promise.all(calls);
    expect(site!.hits('/shared')).toBe(1);
  });
});
