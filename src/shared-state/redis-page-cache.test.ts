import { expect, it } from 'vitest';
import { describeWithRedis, untilReachable, useRedisConnections } from '../../test/redis-server.js';
import { createPageCache } from '../fetch/page-cache.js';
import type { FetchedPage } from '../fetch/types.js';
import { recordMetricsWith } from '../metrics.js';
import { createRedisPageCache } from './redis-page-cache.js';

function page(url: string, body: string | Uint8Array, fetchedAt = new Date()): FetchedPage {
  return {
    url,
    finalUrl: `${url}?final`,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', etag: '"x"' },
    mediaType: 'text/html',
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    fetchedAt,
  };
}

/** Bytes that do not compress: each cap test knows its entries' stored size within a few bytes. */
function noise(bytes: number, seed: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let state = seed;
  for (let i = 0; i < bytes; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

describeWithRedis('the page cache shared through Redis', (server) => {
  const connections = useRedisConnections(server);
  const replica = (options: { ttlSeconds?: number; maxBytes?: number } = {}) => {
    const link = connections.open();
    const local = createPageCache({ ttlSeconds: options.ttlSeconds ?? 60, maxBytes: 1e7 });
    return {
      local,
      ...createRedisPageCache(link, { ttlSeconds: 60, maxBytes: 1e7, ...options, local }),
      ready: () => untilReachable(link),
    };
  };

  it('gives another replica the same snapshot: body, headers, final URL and fetch time', async () => {
    const a = replica();
    const b = replica();
    await Promise.all([a.ready(), b.ready()]);
    const fetchedAt = new Date(Date.now() - 5000);
    const html = `<p>${'Café — 日本語 '.repeat(500)}</p>`;
    await a.pages.set('https://example.test/one', page('https://example.test/one', html, fetchedAt));
    const copy = await b.pages.get('https://example.test/one');
    expect(copy).toMatchObject({ finalUrl: 'https://example.test/one?final', status: 200, mediaType: 'text/html' });
    expect(copy!.headers).toEqual({ 'content-type': 'text/html; charset=utf-8', etag: '"x"' });
    expect(copy!.fetchedAt.getTime()).toBe(fetchedAt.getTime());
    expect(new TextDecoder().decode(copy!.body)).toBe(html);
    // Kept in b's own cache from then on.
    expect(b.local.get('https://example.test/one')?.fetchedAt.getTime()).toBe(fetchedAt.getTime());
  });

  it('stores the body compressed, with CACHE_TTL as the key’s time to live', async () => {
    const a = replica({ ttlSeconds: 30 });
    await a.ready();
    const html = `<p>${'the same sentence again and again. '.repeat(2000)}</p>`;
    await a.pages.set('https://example.test/big', page('https://example.test/big', html));
    const stored = await connections.inspect().getBuffer('page:1:https://example.test/big');
    expect(stored!.byteLength).toBeLessThan(html.length / 20);
    const ttl = await connections.inspect().pttl('page:1:https://example.test/big');
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('keeps the total under REDIS_CACHE_MAX_SIZE, dropping the oldest pages, and skips a page over it', async () => {
    await connections.inspect().flushdb();
    const a = replica({ maxBytes: 10_000 });
    await a.ready();
    for (const n of [1, 2, 3, 4]) await a.sharedPages.set(`https://cap.test/${n}`, page('x', noise(3000, n)));
    expect(await a.sharedPages.get('https://cap.test/1')).toBeUndefined();
    for (const n of [2, 3, 4]) expect(await a.sharedPages.get(`https://cap.test/${n}`)).toBeDefined();
    expect(Number(await connections.inspect().get('pages:bytes'))).toBeLessThanOrEqual(10_000);
    await a.sharedPages.set('https://cap.test/huge', page('x', noise(12_000, 9)));
    expect(await a.sharedPages.get('https://cap.test/huge')).toBeUndefined();
    expect(await a.sharedPages.get('https://cap.test/4')).toBeDefined();
  });

  it('counts lookups for /metrics by tier: memory first, shared only after a memory miss', async () => {
    const a = replica();
    const b = replica();
    await Promise.all([a.ready(), b.ready()]);
    await a.pages.set('https://example.test/counted', page('https://example.test/counted', '<p>counted</p>'));
    const lookups: string[] = [];
    recordMetricsWith({
      toolCall: () => undefined,
      cacheLookup: (tier, isHit) => lookups.push(`${tier} ${isHit ? 'hit' : 'miss'}`),
      queueWait: () => undefined,
      upstreamLatency: () => undefined,
    });
    try {
      await b.pages.get('https://example.test/counted'); // from Redis, then kept in b's memory
      await b.pages.get('https://example.test/counted');
      await b.pages.get('https://example.test/never');
      // A call waiting for another replica's fetch polls sharedPages (fetch-claims.ts): not a lookup of its own.
      await b.sharedPages.get('https://example.test/never');
    } finally {
      recordMetricsWith(undefined);
    }
    expect(lookups).toEqual(['memory miss', 'shared hit', 'memory hit', 'memory miss', 'shared miss']);
  });

  it('reads a value it did not write as a miss', async () => {
    const a = replica();
    await a.ready();
    await connections.inspect().set('page:1:https://example.test/damaged', 'not a page');
    expect(await a.sharedPages.get('https://example.test/damaged')).toBeUndefined();
  });
});
