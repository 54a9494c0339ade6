import { expect, it } from 'vitest';
import { describeWithRedis, useRedisConnections } from '../../test/redis-server.js';
import { createRedisFetchClaims } from './redis-fetch-claims.js';
import { type RedisLink } from './redis-link.js';
import { createPageCache } from '../fetch/page-cache.js';

describeWithRedis('fetch claims shared through Redis (in-flight de-duplication across replicas)', (server) => {
  const connections = useRedisConnections(server);
  const linkOf = new Map<object, RedisLink>();
  async function replica() {
    const link = await connections.link();
    const claims = createRedisFetchClaims(link, createPageCache({ ttlSeconds: 60, maxBytes: 1e6 }));
    linkOf.set(claims, link);
    return claims;
  }
  /** A replica that dies: its connection to Redis goes, so nothing renews its claims any more. */
  const die = (claims: object) => linkOf.get(claims)!.close();

  it('grants one claim among concurrent claimants, and another once it is released', async () => {
    const replicas = await Promise.all([replica(), replica(), replica()]);
    const claims = await Promise.all(replicas.map((claims) => claims.claim('https://a.test/', 60_000)));
    const granted = claims.filter((claim) => claim !== undefined);
    expect(granted).toHaveLength(1);
    expect(await replicas[0]!.claim('https://a.test/', 60_000)).toBeUndefined();
    await granted[0]!.release();
    expect(await replicas[1]!.claim('https://a.test/', 60_000)).toBeDefined();
  });

  it('keeps a claim while its holder lives (renewed), however long past its lease the fetch takes', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    // A 1.5 s lease renewed every 0.5 s: only a pause of over a second (event loop or Redis) lets it lapse. A 0.3 s
    // lease lapsed once with two test suites on two cores (a 0.2 s pause), which this test is not about.
    const held = await a.claim('https://renewed.test/', 1500);
    expect(held).toBeDefined();
    await new Promise((r) => setTimeout(r, 4500)); // three leases
    expect(await b.claim('https://renewed.test/', 60_000)).toBeUndefined();
    await held!.release();
    expect(await b.claim('https://renewed.test/', 60_000)).toBeDefined();
  });

  it('lets a claim lapse within its lease when its holder dies (a replica killed mid-fetch)', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    // A 1.5 s lease, as the renewed-claim test's: a 30 ms one lapsed while its holder lived, with two test suites
    // on two cores (its renewal came late), so the other replica's first claim took it.
    expect(await a.claim('https://lapse.test/', 1500)).toBeDefined();
    expect(await b.claim('https://lapse.test/', 60_000)).toBeUndefined();
    await die(a);
    // Nothing renews it now: it lapses within its lease, and the other replica takes it (polled until it does).
    let claim;
    for (let i = 0; i < 400 && !claim; i++) {
      await new Promise((r) => setTimeout(r, 50));
      claim = await b.claim('https://lapse.test/', 60_000);
    }
    expect(claim).toBeDefined();
  });

  it('never releases a claim another replica took after the holder’s own lapsed', async () => {
    const [a, b, c] = await Promise.all([replica(), replica(), replica()]);
    const late = await a.claim('https://late.test/', 60_000);
    // Its lease lapses (as when Redis could not be reached to renew it): the key goes, as expiry would take it.
    await linkOf.get(a)!.attempt((redis) => redis.del('claim:https://late.test/'), 0);
    let taken;
    for (let i = 0; i < 100 && !taken; i++) {
      await new Promise((r) => setTimeout(r, 10));
      taken = await b.claim('https://late.test/', 60_000);
    }
    expect(taken).toBeDefined();
    await late!.release();
    expect(await c.claim('https://late.test/', 60_000)).toBeUndefined();
  });
});
