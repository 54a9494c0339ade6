// Crawls across replicas on one Redis (issue 16, scope 4): a crawl's state lives on Redis, so continue_from works on
// any replica, and a crawl whose replica is killed mid-way is continued on another from its last committed page.
// The replicas are the built CLI as child processes, called through the JSON tools API; what the origin (the
// fixture server) sees is the assertion: no page asked for twice, and no more pages than max_pages over the crawl.
import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { describeWithRedis } from './redis-server.js';
import { startReplica, type Replica } from './replica-process.js';

interface CrawlAnswer {
  readonly success: boolean;
  readonly error: string | null;
  readonly result: {
    readonly pages: { readonly url: string }[];
    readonly total_pages_read: number;
    readonly stop_reason: string;
    readonly continue_from?: string;
  };
}

/** POST /tools/crawl: the continue_from header, at once, and the answer when it comes. */
async function startCrawl(
  replica: Replica,
  args: object,
): Promise<{ id: string | null; answer: Promise<CrawlAnswer> }> {
  const response = await fetch(`${replica.url}/tools/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return { id: response.headers.get('web-reader-continue-from'), answer: response.json() as Promise<CrawlAnswer> };
}

async function crawl(replica: Replica, args: object): Promise<CrawlAnswer> {
  return (await startCrawl(replica, args)).answer;
}

async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

const page = (title: string, links: readonly string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${'A paragraph of text that reads like an article. '.repeat(20)}</p>` +
  `<ul>${links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('')}</ul></article></body></html>`;

describeWithRedis('crawls across replicas sharing one Redis', (redis) => {
  let origin: FixtureServer;
  /** The same host on another port: in the crawl's scope, with its own robots.txt (an origin is host and port). */
  let other: FixtureServer;
  /** A third origin whose robots.txt is held while `holdFar` is set: the one-id test's crawl waits there. */
  let far: FixtureServer;
  let holdFar = true;
  let client: Redis;
  const replicas: Replica[] = [];
  /** The other origin's robots.txt answers are held while this is set: a crawl waits there, no page in flight. */
  let holdRobots = true;
  const heldRobots: ServerResponse[] = [];

  beforeAll(async () => {
    [origin, other, far] = await Promise.all([startFixtureServer(), startFixtureServer(), startFixtureServer()]);
    const html = (body: string) => (res: ServerResponse) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(body);
    };
    // A site read two pages at most per call: each page takes 450 ms, and max_seconds is 1.
    origin.route('/t/', (_req, res) =>
      html(
        page(
          'Start',
          [1, 2, 3, 4, 5, 6].map((n) => `/t/${n}`),
        ),
      )(res),
    );
    origin.route('/t/:n', (_req, res, params) => void setTimeout(() => html(page(`Slow ${params.n}`))(res), 450));
    // A site whose crawl reaches the other origin after three pages, and waits there on its robots.txt.
    const links = ['/k/1', '/k/2', other.url('/x'), '/k/3', '/k/4', '/k/5'];
    origin.route('/k/', (_req, res) => html(page('Kill start', links))(res));
    origin.route('/k/:n', (_req, res, params) => html(page(`Page ${params.n}`))(res));
    other.route('/x', (_req, res) => html(page('Other x'))(res));
    other.route('/robots.txt', (_req, res) => {
      if (holdRobots) heldRobots.push(res);
      else res.writeHead(404).end();
    });
    // A site read in two calls: the first stops at max_seconds (pages take 450 ms each), the second reaches the far
    // origin after its third page and waits there on its robots.txt.
    origin.route('/j/', (_req, res) =>
      html(page('One-id start', ['/j/1', '/j/2', '/j/3', far.url('/y'), '/j/4']))(res),
    );
    origin.route('/j/:n', (_req, res, params) => void setTimeout(() => html(page(`J ${params.n}`))(res), 450));
    far.route('/y', (_req, res) => html(page('Far y'))(res));
    far.route('/robots.txt', (_req, res) => {
      if (holdFar) heldRobots.push(res);
      else res.writeHead(404).end();
    });
    const env = {
      REDIS_URL: redis.url,
      ALLOW_PRIVATE_HOSTS: `${origin.hostPort},${other.hostPort},${far.hostPort}`,
      RENDER_JS: 'never',
      MAX_CONCURRENT: '1',
      PER_DOMAIN_INTERVAL: '0', // spacing is test/replicas.test.ts's subject; here it would only slow each call
      FETCH_TIMEOUT: '30000', // a held robots.txt stays held while the test looks
    };
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env), startReplica(env)])));
    client = new Redis(redis.url);
  });

  afterAll(async () => {
    for (const res of heldRobots) res.destroy();
    client?.disconnect();
    await Promise.all(replicas.map((one) => one.stop()));
    await Promise.all([origin?.close(), other?.close(), far?.close()]);
  });

  it('continues a crawl stopped on one replica on the next, and the next, reading every page once', async () => {
    const first = await startCrawl(replicas[0]!, { url: origin.url('/t/'), max_seconds: 1 });
    let answer = await first.answer;
    expect(answer.success).toBe(true);
    expect(answer.result.continue_from).toBe(first.id); // the id told at the start is the one the result gives
    const read = answer.result.pages.map((one) => one.url);
    const ids = [first.id];
    for (let call = 1; answer.result.continue_from !== undefined && call < 30; call++) {
      answer = await crawl(replicas[call % 3]!, { continue_from: answer.result.continue_from, max_seconds: 1 });
      expect(answer.error).toBeNull();
      read.push(...answer.result.pages.map((one) => one.url));
      ids.push(answer.result.continue_from ?? null);
    }
    expect(ids.length).toBeGreaterThanOrEqual(3); // replicas A, B and C each took a turn
    for (const id of ids.slice(0, -1)) expect(id).toBe(first.id); // one crawl, one id
    expect(answer.result.stop_reason).toBe('frontier_empty');
    expect(answer.result.total_pages_read).toBe(7);
    expect(read.sort()).toEqual([origin.url('/t/'), ...[1, 2, 3, 4, 5, 6].map((n) => origin.url(`/t/${n}`))].sort());
    // Complete: its id says so.
    const used = await crawl(replicas[1]!, { continue_from: first.id });
    expect(used.error).toMatch(/this crawl is complete/);
  }, 120_000);

  it('tells an MCP client the crawl’s id in its first progress notification, before any page is read', async () => {
    const mcp = new Client({ name: 'crawl-progress', version: '0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${replicas[2]!.url}/mcp`)));
    const messages: string[] = [];
    const result = await mcp.callTool(
      { name: 'crawl', arguments: { url: origin.url('/t/'), max_pages: 2 } },
      undefined,
      { onprogress: (progress) => messages.push(progress.message ?? '') },
    );
    await mcp.close();
    expect(result.isError).toBeFalsy();
    const id = /^crawl started; if this call is lost, continue with continue_from="([0-9a-f-]{36})"$/.exec(
      messages[0]!,
    );
    expect(id).not.toBeNull();
    expect(messages.slice(1)).not.toEqual([]);
    for (const message of messages.slice(1)) expect(message).toContain(`continue_from="${id![1]}"`);
    // Read to its end (max_pages): its id continues nothing, and says so.
    expect((await crawl(replicas[0]!, { continue_from: id![1] })).error).toMatch(/this crawl is complete/);
  }, 60_000);

  it('continues a crawl whose replica was killed mid-way on another, from its last committed page, budgets held', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const { id, answer } = await startCrawl(a, { url: origin.url('/k/'), max_pages: 5, max_seconds: 120 });
    answer.catch(() => undefined); // its replica is killed before it answers
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const pagesCheckpointed = async () => {
      const state = await client.get(`web-reader:crawl:${id}`);
      return state ? (JSON.parse(state) as { pagesRead: number }).pagesRead : 0;
    };
    // Three pages read and checkpointed, the fourth waiting on its origin's robots.txt: nothing in flight.
    await until('the crawl waits on the other origin', () => other.hits('/robots.txt') === 1);
    await until('three pages are checkpointed', async () => (await pagesCheckpointed()) === 3);
    expect(['/k/', '/k/1', '/k/2'].map((path) => origin.hits(path))).toEqual([1, 1, 1]);

    // While A runs it, the crawl is A's alone.
    const refused = await crawl(b, { continue_from: id });
    expect(refused.success).toBe(false);
    expect(refused.error).toMatch(/this crawl is running on another replica; try again in \d+ s/);

    await a.stop();
    holdRobots = false;
    // The dead replica's fetch claim on that robots.txt (taken while it waited) lapses within its 5 s lease, and its
    // lease on the crawl within seconds: both are waited for, as a user would.
    expect(await client.keys('web-reader:claim:*')).not.toEqual([]);
    let continued: CrawlAnswer | undefined;
    await until('the dead replica’s lease has lapsed', async () => {
      const attempt = await crawl(b, { continue_from: id, max_seconds: 60 });
      if (attempt.success) continued = attempt;
      else expect(attempt.error).toMatch(/running on another replica; try again in \d+ s/);
      return attempt.success;
    });
    expect(continued!.result.pages.map((one) => one.url)).toEqual([other.url('/x'), origin.url('/k/3')]);
    expect(continued!.result.total_pages_read).toBe(5);
    expect(continued!.result.stop_reason).toBe('max_pages');
    // No page asked for twice, and none beyond max_pages over the whole crawl.
    expect(['/k/', '/k/1', '/k/2', '/k/3', '/k/4', '/k/5'].map((path) => origin.hits(path))).toEqual([
      1, 1, 1, 1, 0, 0,
    ]);
    expect(other.hits('/x')).toBe(1);
  }, 120_000);

  it('continues a crawl whose replica died while it continued it, with the id the client sent (issue 23)', async () => {
    const [, b, c] = replicas as [Replica, Replica, Replica];
    const first = await crawl(c, { url: origin.url('/j/'), max_seconds: 1 });
    expect(first.result.stop_reason).toBe('time_limit');
    const id = first.result.continue_from!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // The client continues it on C; C dies before answering, its crawl waiting on the far origin's robots.txt.
    const second = await startCrawl(c, { continue_from: id, max_seconds: 120 });
    second.answer.catch(() => undefined);
    expect(second.id).toBe(id); // the id the client sent is the crawl's, from the start of this call
    const checkpointed = async () => {
      const state = await client.get(`web-reader:crawl:${id}`);
      return state ? (JSON.parse(state) as { pagesRead: number }).pagesRead : 0;
    };
    await until('the crawl waits on the far origin', () => far.hits('/robots.txt') === 1);
    await until('four pages are checkpointed under the id', async () => (await checkpointed()) === 4);
    // While C holds it, the answer is "retry in N s", in the message and the structured error.
    const refused = (await crawl(b, { continue_from: id })) as CrawlAnswer & {
      result: { error?: { code: string; retry_after_seconds?: number } };
    };
    expect(refused.error).toMatch(/this crawl is running on another replica; try again in \d+ s/);
    expect(refused.result.error).toMatchObject({ code: 'QUEUE_TIMEOUT', retry_after_seconds: expect.any(Number) });

    await c.stop();
    holdFar = false;
    let continued: CrawlAnswer | undefined;
    await until('the dead replica’s lease has lapsed', async () => {
      const attempt = await crawl(b, { continue_from: id, max_seconds: 60 });
      if (attempt.success) continued = attempt;
      else expect(attempt.error).toMatch(/running on another replica; try again in \d+ s/);
      return attempt.success;
    });
    expect(continued!.result.pages.map((one) => one.url)).toEqual([far.url('/y'), origin.url('/j/4')]);
    expect(continued!.result.total_pages_read).toBe(6);
    expect(continued!.result.stop_reason).toBe('frontier_empty');
    expect((await crawl(b, { continue_from: id })).error).toMatch(/this crawl is complete/);
  }, 120_000);
});
