import { expect, it } from 'vitest';
import { describeWithRedis, useRedisConnections } from '../../test/redis-server.js';
import type { CrawlState } from '../crawl/frontier.js';
import { createMemoryResumeStore, type ResumeStore, type RunningCrawl } from '../crawl/resume-store.js';
import { createRedisLink, type RedisLink } from './redis-link.js';
import { createRedisResumeStore, type RedisResumeStoreOptions } from './redis-resume-store.js';

const STATE: CrawlState = {
  version: 1,
  scope: {
    url: 'https://site.test/',
    maxTokens: 1000,
    maxPages: 10,
    maxDepth: 3,
    allowedDomains: ['site.test'],
    patterns: [],
    excludePatterns: [],
    respectRobots: true,
    concurrency: 3,
  },
  frontier: [{ url: 'https://site.test/b', depth: 1 }],
  seen: ['https://site.test/', 'https://site.test/b'],
  readAs: [['https://site.test/', 'https://site.test/']],
  pagesRead: 1,
  tokensUsed: 120,
  processed: 1,
  sitemapsMerged: true,
  lastStartByOrigin: {},
};

const later = (pages: number): CrawlState => ({ ...STATE, pagesRead: pages, processed: pages });
const HOLD = 30_000;

type Taken = { state: CrawlState; running?: RunningCrawl };

describeWithRedis('crawl states shared through Redis (continue_from on any replica)', (server) => {
  const connections = useRedisConnections(server);
  let replicas = 0;
  async function replica(options: Partial<RedisResumeStoreOptions> = {}): Promise<ResumeStore & { link: RedisLink }> {
    const link = await connections.link();
    const store = createRedisResumeStore(link, {
      ttlSeconds: 900,
      local: createMemoryResumeStore({ ttlSeconds: 900 }),
      processId: `replica-${++replicas}`,
      ...options,
    });
    return Object.assign(store, { link });
  }

  it('continues an id saved by one replica on another, under the same id; complete says so', async () => {
    const [a, b, c] = await Promise.all([replica(), replica(), replica()]);
    const id = await a.save(STATE);
    expect(await b.take(id, HOLD)).toEqual(STATE);
    expect(await c.save(later(2), id)).toBe(id);
    expect(await a.take(id, HOLD)).toEqual(later(2));
    await c.complete(id);
    expect(await b.take(id, HOLD)).toBe('complete');
    expect(await b.checkpoints!.takeOver(id, HOLD)).toBe('complete');
  });

  it('keeps a state for CRAWL_RESUME_TTL after its last write', async () => {
    const a = await replica({ ttlSeconds: 600 });
    const id = await a.save(STATE);
    const ttl = await a.link.attempt((redis) => redis.pttl(`crawl:${id}`), -3);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
    const running = (await a.checkpoints!.begin())!;
    await running.checkpoint(STATE);
    const checkpointTtl = await a.link.attempt((redis) => redis.pttl(`crawl:${running.id}`), -3);
    expect(checkpointTtl).toBeGreaterThan(590_000);
    await running.discard();
  });

  it('refuses to continue a running crawl while its owner holds the lease, saying where and when to retry', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const running = (await a.checkpoints!.begin())!;
    await running.checkpoint(later(2));
    await expect(b.checkpoints!.takeOver(running.id, HOLD)).rejects.toMatchObject({
      code: 'QUEUE_TIMEOUT',
      retryAfterSeconds: expect.any(Number),
      message: expect.stringMatching(/this crawl is running on another replica; try again in [1-8] s/),
    });
    await expect(a.take(running.id, HOLD)).rejects.toThrow(/this crawl is running on this server; try again in/);
    // Released with its final state, the crawl continues on the other replica under the same id.
    expect(await running.release(later(3))).toBe('kept');
    const taken = (await b.checkpoints!.takeOver(running.id, HOLD)) as Taken;
    expect(taken.state).toEqual(later(3));
    expect(taken.running!.id).toBe(running.id);
    // The continuation is itself checkpointed, and held, from the start.
    await expect(a.checkpoints!.takeOver(running.id, HOLD)).rejects.toThrow(/running on another replica/);
    await running.checkpoint(later(9)); // the first owner's lease is gone: it writes nothing
    await taken.running!.checkpoint(later(4));
    expect(await taken.running!.release(later(5))).toBe('kept');
    const again = (await a.checkpoints!.takeOver(running.id, HOLD)) as Taken; // continued again, same id
    expect(again.state).toEqual(later(5));
    await again.running!.discard();
    expect(await b.take(running.id, HOLD)).toBe('complete'); // complete: its id says so
  });

  it('lets a dead owner’s lease lapse, and continues from its last checkpoint', async () => {
    const dying = await replica({ leaseMs: 300, renewMs: 100 });
    const survivor = await replica();
    const running = (await dying.checkpoints!.begin())!;
    await running.checkpoint(later(4));
    await running.checkpoint(later(5));
    await dying.link.close(); // the replica is gone: no renewal, no release
    let taken: Taken | undefined;
    for (let i = 0; i < 300 && !taken; i++) {
      try {
        taken = (await survivor.checkpoints!.takeOver(running.id, HOLD)) as Taken | undefined;
      } catch (error) {
        expect(error).toMatchObject({ code: 'QUEUE_TIMEOUT' });
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(taken?.state).toEqual(later(5));
    await taken!.running!.discard();
  });

  it('keeps the last checkpoint of a call released without a final state (a cancelled call)', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const running = (await a.checkpoints!.begin())!;
    await running.checkpoint(later(6));
    expect(await running.release()).toBe('kept');
    expect(await b.take(running.id, HOLD)).toEqual(later(6));
  });

  it('stops checkpointing a crawl another replica took over after its lease lapsed', async () => {
    const slow = await replica({ leaseMs: 200, renewMs: 60_000 }); // renews only at checkpoints, as a stalled one
    const other = await replica();
    const running = (await slow.checkpoints!.begin())!;
    await running.checkpoint(later(2));
    let taken: Taken | undefined;
    for (let i = 0; i < 300 && !taken; i++) {
      taken = (await other.checkpoints!.takeOver(running.id, HOLD).catch(() => undefined)) as Taken | undefined;
      if (!taken) await new Promise((r) => setTimeout(r, 20));
    }
    expect(taken?.state).toEqual(later(2));
    await running.checkpoint(later(9)); // refused: not its crawl any more
    expect(await running.release(later(9))).toBe('lost');
    await taken!.running!.release(later(3));
    expect(await slow.take(running.id, HOLD)).toEqual(later(3));
  });

  it('keeps a paused owner from writing over a crawl taken over and let go while it slept', async () => {
    const slow = await replica({ leaseMs: 200, renewMs: 60_000 });
    const other = await replica();
    const running = (await slow.checkpoints!.begin())!;
    await running.checkpoint(later(2));
    let taken: Taken | undefined;
    for (let i = 0; i < 300 && !taken; i++) {
      taken = (await other.checkpoints!.takeOver(running.id, HOLD).catch(() => undefined)) as Taken | undefined;
      if (!taken) await new Promise((r) => setTimeout(r, 20));
    }
    expect(await taken!.running!.release(later(3))).toBe('kept'); // no lease held now
    await running.checkpoint(later(9)); // wakes: refused, the crawl is no longer its own
    expect(await running.release(later(9))).toBe('lost');
    expect(await other.take(running.id, HOLD)).toEqual(later(3));
  });

  it('keeps ids in this replica’s memory while Redis is unreachable, and runs crawls without checkpoints', async () => {
    const link = createRedisLink('redis://127.0.0.1:1'); // nothing listens there
    const store = createRedisResumeStore(link, { ttlSeconds: 60, local: createMemoryResumeStore({ ttlSeconds: 60 }) });
    const id = await store.save(STATE);
    expect(await store.take(id, HOLD)).toEqual(STATE);
    await expect(store.take(id, HOLD)).rejects.toMatchObject({ code: 'QUEUE_TIMEOUT' }); // held by this call
    expect(await store.save(later(2), id)).toBe(id);
    expect(await store.take(id, HOLD)).toEqual(later(2));
    expect(await store.checkpoints!.begin()).toBeUndefined();
    await link.close();
  });
});
