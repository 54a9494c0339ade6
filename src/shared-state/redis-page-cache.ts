// The page cache shared by replicas (REDIS_URL): pages compressed (page-codec.ts), kept for CACHE_TTL, their total
// size capped at REDIS_CACHE_MAX_SIZE by this product rather than by Redis's own eviction, which could as well
// drop the hosts' turns (redis-host-turns.ts) or a fetch's claim. In front of it, each replica keeps its in-memory
// cache (src/fetch/page-cache.ts): a continuation re-read on the same replica costs no round trip.
//
// What is never here: a response fetched with the caller's `headers` (load-page.ts caches none), and errors.
// Eviction past the cap goes by age (oldest first), not by last use: a read does not write.
import type { MemoryPageCache, PageCache } from '../fetch/page-cache.js';
import { countCacheLookup } from '../metrics.js';
import { decodePage, encodePage } from './page-codec.js';
import type { RedisLink } from './redis-link.js';

/** Keys: a page per URL, and the bookkeeping of the cap. `1` is the value format (page-codec.ts). */
const pageKey = (key: string) => `page:1:${key}`;
const INDEX_KEY = 'pages:expiry'; // sorted set: page key → when it expires (ms, Redis clock)
const SIZES_KEY = 'pages:size'; // hash: page key → bytes
const TOTAL_KEY = 'pages:bytes'; // the sum of the sizes

/** Expired entries forgotten per write, so one write never walks a long list. */
const FORGET_PER_WRITE = 64;

// Stores a page and keeps the total under the cap, in one step (no other write between the sum and the eviction).
// KEYS: the page, the index, the sizes, the total. ARGV: the value, its TTL in ms, the cap in bytes.
const SET_PAGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local size = string.len(ARGV[1])
local ttl = tonumber(ARGV[2])
local cap = tonumber(ARGV[3])
if size > cap then return 0 end
local function forget(member)
  local bytes = tonumber(redis.call('HGET', KEYS[3], member) or '0')
  redis.call('HDEL', KEYS[3], member)
  redis.call('ZREM', KEYS[2], member)
  redis.call('DECRBY', KEYS[4], bytes)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, ${FORGET_PER_WRITE})) do
  forget(member)
end
forget(KEYS[1])
while tonumber(redis.call('GET', KEYS[4]) or '0') + size > cap do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not oldest then break end
  forget(oldest)
  redis.call('DEL', oldest)
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
redis.call('INCRBY', KEYS[4], size)
return 1
`;

export interface RedisPageCacheOptions {
  readonly ttlSeconds: number; // CACHE_TTL
  readonly maxBytes: number; // REDIS_CACHE_MAX_SIZE, compressed
  /** This replica's own cache, in front. */
  readonly local: MemoryPageCache;
}

export interface RedisPageCaches {
  /** What the engine uses: the local cache, then Redis; a write goes to both. */
  readonly pages: PageCache;
  /** Redis alone: where a fetch's claim holder leaves its page for the others (fetch-claims.ts). */
  readonly sharedPages: PageCache;
}

export function createRedisPageCache(link: RedisLink, options: RedisPageCacheOptions): RedisPageCaches {
  const setPage = link.script(SET_PAGE, 4);
  const ttlMs = options.ttlSeconds * 1000;

  const sharedPages: PageCache = {
    async get(key) {
      const value = await link.attempt((redis) => redis.getBuffer(pageKey(key)), null);
      if (!value) return undefined;
      try {
        return await decodePage(value);
      } catch {
        return undefined; // another format or a damaged value: a miss, overwritten by the next fetch
      }
    },
    async set(key, page) {
      if (ttlMs <= 0) return;
      const value = await encodePage(page);
      if (value.byteLength > options.maxBytes) return;
      await link.attempt(
        (redis) => setPage(redis, pageKey(key), INDEX_KEY, SIZES_KEY, TOTAL_KEY, value, ttlMs, options.maxBytes),
        0,
      );
    },
  };

  const pages: PageCache = {
    async get(key) {
      const local = options.local.get(key);
      if (local) return local;
      const shared = await sharedPages.get(key);
      // Counted here, not in sharedPages.get: a call waiting for another replica's fetch polls that (fetch-claims.ts).
      // Redis unreachable counts as a miss: the call goes on to fetch.
      countCacheLookup('shared', shared !== undefined);
      if (shared) options.local.set(key, shared, shared.fetchedAt.getTime() + ttlMs);
      return shared;
    },
    async set(key, page) {
      options.local.set(key, page);
      await sharedPages.set(key, page);
    },
  };

  return { pages, sharedPages };
}
