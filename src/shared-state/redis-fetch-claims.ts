// A fetch claimed across replicas (src/fetch/fetch-claims.ts): SET NX PX, so the claim lapses by itself when its
// holder dies, and released only by its holder (a compare-and-delete script): a holder slower than its claim's TTL
// never deletes the claim another replica has taken since.
import { randomUUID } from 'node:crypto';
import type { FetchClaims } from '../fetch/fetch-claims.js';
import type { PageCache } from '../fetch/page-cache.js';
import type { RedisLink } from './redis-link.js';

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** `pages`: the shared cache itself (redis-page-cache.ts sharedPages), where the holder's page appears. */
export function createRedisFetchClaims(link: RedisLink, pages: PageCache): FetchClaims {
  const release = link.script(RELEASE, 1);
  return {
    pages,
    async claim(key, ttlMs) {
      const claimKey = `claim:${key}`;
      const token = randomUUID();
      const ttl = Math.max(1, Math.ceil(ttlMs));
      // Redis unreachable: 'OK', the claim granted (fetch-claims.ts: fetching ourselves is the safe side).
      const answer = await link.attempt((redis) => redis.set(claimKey, token, 'PX', ttl, 'NX'), 'OK');
      if (answer !== 'OK') return undefined;
      return {
        release: async () => {
          await link.attempt((redis) => release(redis, claimKey, token), 0);
        },
      };
    },
  };
}
