// Three replicas of `web-reader serve --http` on one Redis (issue 16), as an operator runs them: the built CLI as
// child processes, calls spread round-robin by the test through the JSON tools API. What the origin (the fixture
// server) sees is the assertion: one request per page, requests to one host PER_DOMAIN_INTERVAL apart, and calls
// that still answer while Redis is down.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { describeWithRedis } from './redis-server.js';
import { startReplica, type Replica } from './replica-process.js';
import { expectSpaced } from './spacing.js';

/**
 * The spacing asked of the replicas. A turn is taken on Redis's clock just before the request is sent; a replica
 * whose event loop is busy (three replicas and their workers share this machine's cores with the test) sends it that
 * much later: see test/spacing.ts for what the origin can then be held to.
 */
const INTERVAL_MS = 300;

interface FetchAnswer {
  readonly success: boolean;
  readonly error?: string;
}

async function callFetch(replica: Replica, url: string, headers?: Record<string, string>): Promise<FetchAnswer> {
  const response = await fetch(`${replica.url}/tools/fetch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, headers }),
  });
  return (await response.json()) as FetchAnswer;
}

async function healthOf(replica: Replica): Promise<string> {
  const response = await fetch(`${replica.url}/healthz`);
  return ((await response.json()) as { redis: string }).redis;
}

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${'A paragraph of text that reads like an article. '.repeat(20)}</p></article></body></html>`;

describeWithRedis('three replicas sharing one Redis', (redis) => {
  let origin: FixtureServer;
  /** Another host, to warm the replicas up on: spacing is per host, so its reads do not count. */
  let warmUp: FixtureServer;
  /** When each request reached the origin, by path; /llms.txt (asked by the fetch tool) counts as a request too. */
  const arrivals: Array<{ path: string; at: number }> = [];
  const replicas: Replica[] = [];
  const replica = (i: number) => replicas[i % replicas.length]!;

  beforeAll(async () => {
    [origin, warmUp] = await Promise.all([startFixtureServer(), startFixtureServer()]);
    const record = (path: string) => arrivals.push({ path, at: Date.now() });
    // Slow enough that three calls arriving together overlap: the de-duplication, not the cache, is what is tested.
    origin.route('/shared/:name', (req, res, params) => {
      record(req.url!);
      setTimeout(() => res.end(page(params.name!)), 150);
    });
    origin.route('/spaced/:n', (req, res, params) => {
      record(req.url!);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page(`Page ${params.n}`));
    });
    origin.route('/llms.txt', (req, res) => {
      record(req.url!);
      res.statusCode = 404;
      res.end('none');
    });
    const env = {
      REDIS_URL: redis.url,
      ALLOW_PRIVATE_HOSTS: `${origin.hostPort},${warmUp.hostPort}`,
      PER_DOMAIN_INTERVAL: String(INTERVAL_MS),
      RENDER_JS: 'never',
      FETCH_TIMEOUT: '5000',
    };
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env), startReplica(env)])));
    await until('every replica sees Redis', async () =>
      (await Promise.all(replicas.map(healthOf))).every((health) => health === 'up'),
    );
    // Each replica's extraction workers start on its first reads, a burst of CPU that would delay a request after
    // its turn was taken (see test/spacing.ts): start them before anything is measured.
    await Promise.all(Array.from({ length: 6 }, (_, n) => callFetch(replica(n), warmUp.url(`/html?warm=${n}`))));
  });

  afterAll(async () => {
    await Promise.all(replicas.map((one) => one.stop()));
    await Promise.all([origin?.close(), warmUp?.close()]);
  });

  it('reads a page once from the origin when all three replicas are asked for it together, and again after', async () => {
    const url = origin.url('/shared/together');
    const answers = await Promise.all([0, 1, 2].map((i) => callFetch(replica(i), url)));
    expect(answers.map((answer) => answer.success)).toEqual([true, true, true]);
    expect(origin.hits('/shared/together')).toBe(1);
    for (const i of [0, 1, 2]) expect((await callFetch(replica(i), url)).success).toBe(true);
    expect(origin.hits('/shared/together')).toBe(1);
  });

  it('never shares a page read with the caller’s headers (credentials), in either direction', async () => {
    const url = origin.url('/shared/private');
    expect((await callFetch(replica(0), url, { cookie: 'session=alice' })).success).toBe(true);
    expect((await callFetch(replica(1), url)).success).toBe(true); // not served alice's page
    expect(origin.hits('/shared/private')).toBe(2);
    expect((await callFetch(replica(2), url, { cookie: 'session=bob' })).success).toBe(true); // not the shared one
    expect(origin.hits('/shared/private')).toBe(3);
    expect((await callFetch(replica(0), url)).success).toBe(true); // the shared one, read once by replica 1
    expect(origin.hits('/shared/private')).toBe(3);
  });

  it('spaces 30 reads of one host through three replicas by PER_DOMAIN_INTERVAL, as the origin sees them', async () => {
    const from = arrivals.length;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) => callFetch(replica(n), origin.url(`/spaced/${n}`))),
    );
    expect(answers.filter((answer) => !answer.success)).toEqual([]);
    const seen = arrivals.slice(from);
    expect(seen.filter((arrival) => arrival.path.startsWith('/spaced/'))).toHaveLength(30);
    expectSpaced(
      seen.map((arrival) => arrival.at),
      INTERVAL_MS,
    );
  }, 60_000);

  it('answers every call while Redis is down (each replica on its own state), says so in /healthz, and shares again once Redis is back', async () => {
    const load = Array.from({ length: 9 }, (_, n) => callFetch(replica(n), origin.url(`/spaced/outage-${n}`)));
    await until('the load has reached the origin', async () =>
      arrivals.some((arrival) => arrival.path.startsWith('/spaced/outage-')),
    );
    await redis.stop();
    const answers = await Promise.all(load);
    expect(answers.filter((answer) => !answer.success)).toEqual([]);
    expect(await Promise.all(replicas.map(healthOf))).toEqual(['down', 'down', 'down']);
    // Served from local state: a page the replica itself read is a cache hit, another's is read again.
    expect((await callFetch(replica(0), origin.url('/spaced/outage-0'))).success).toBe(true);
    // One warning an outage: each warning is followed by the line saying Redis is back before the next one, and the
    // last line is a warning (this outage). A count of one would be timing: on a loaded machine a command can pass
    // its 500 ms limit before the stop, which is an outage of its own to this replica, warned and ended.
    for (const one of replicas) {
      const said = one.stderr().match(/Redis at \S+ is (unreachable|reachable again)/g) ?? [];
      expect(said.length % 2, said.join('\n')).toBe(1);
      said.forEach((line, i) => expect(line).toMatch(i % 2 === 0 ? /unreachable$/ : /reachable again$/));
    }

    await redis.start();
    await until('every replica sees Redis again', async () =>
      (await Promise.all(replicas.map(healthOf))).every((health) => health === 'up'),
    );
    const url = origin.url('/shared/after-outage');
    const again = await Promise.all([0, 1, 2].map((i) => callFetch(replica(i), url)));
    expect(again.map((answer) => answer.success)).toEqual([true, true, true]);
    expect(origin.hits('/shared/after-outage')).toBe(1);
  }, 60_000);
});
