// A fetch claimed across replicas (src/fetch/fetch-claims.ts): SET NX PX, a short lease its holder renews while it
// lives (every third of the lease, by a compare-and-expire script), so a claim lapses within one lease of its
// holder dying — not after the longest a fetch could take, which outlasted the waiters' patience and dropped the
// pages a killed replica had claimed (cold trial of issue 16). Released only by its holder (a compare-and-delete
// script): a holder whose lease lapsed (Redis unreachable for a while) never deletes the claim another replica has
// taken since.
import { randomUUID } from 'node:crypto';
import type { FetchClaims } from '../fetch/fetch-claims.js';
import type { PageCache } from '../fetch/page-cache.js';
import type { RedisLink } from './redis-link.js';

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** `pages`: the shared cache itself (redis-page-cache.ts sharedPages), where the holder's page appears. */
export function createRedisFetchClaims(link: RedisLink, pages: PageCache): FetchClaims {
  const release = link.script(RELEASE, 1);
  const renew = link.script(RENEW, 1);
  return {
    pages,
    async claim(key, ttlMs) {
      const claimKey = `claim:${key}`;
      const token = randomUUID();
      const ttl = Math.max(1, Math.ceil(ttlMs));
      // Redis unreachable: 'OK', the claim granted (fetch-claims.ts: fetching ourselves is the safe side).
      const answer = await link.attempt((redis) => redis.set(claimKey, token, 'PX', ttl, 'NX'), 'OK');
      if (answer !== 'OK') return undefined;
      const renewal = setInterval(
        () => void link.attempt((redis) => renew(redis, claimKey, token, ttl), 0),
        Math.max(10, Math.floor(ttl / 3)),
      );
      renewal.unref(); // a claim never keeps a process alive
      return {
        release: async () => {
          clearInterval(renewal);
          await link.attempt((redis) => release(redis, claimKey, token), 0);
        },
      };
    },
  };
}
