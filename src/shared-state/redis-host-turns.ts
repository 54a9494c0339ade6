// PER_DOMAIN_INTERVAL across replicas: each host's last request start, in Redis, taken with one Lua script so that
// reading it, comparing and writing the new start are one step no other replica's request can come between. The
// times are Redis's own clock (TIME), so replicas whose clocks disagree still space requests by the interval.
// The queue (src/fetch/queue.ts) asks only once its own spacing and slots allow a start, and starts at once on 0.
import type { HostTurns } from '../fetch/queue.js';
import type { RedisLink } from './redis-link.js';

/**
 * A start is remembered at least this long (or the interval, if longer): a caller with a longer interval than the
 * last taker (a Crawl-delay of up to 30 s, crawl/politeness.ts) must still find it.
 */
export const REMEMBER_START_MS = 60_000;

// KEYS[1]: the host's last start (microseconds, Redis clock). ARGV[1]: the caller's interval in ms; ARGV[2]: how long
// to keep the start. Returns 0 and records now as the start, or the whole milliseconds left, recording nothing.
const TAKE_TURN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1]) * 1000
local last = tonumber(redis.call('GET', KEYS[1]))
if last and now < last + interval then
  return math.ceil((last + interval - now) / 1000)
end
redis.call('SET', KEYS[1], string.format('%d', now), 'PX', math.max(tonumber(ARGV[1]), tonumber(ARGV[2])))
return 0
`;

export function createRedisHostTurns(link: RedisLink): HostTurns {
  const takeTurn = link.script(TAKE_TURN, 1);
  return {
    async take(key, intervalMs) {
      if (intervalMs <= 0) return 0;
      const left = await link.attempt((redis) => takeTurn(redis, `turn:${key}`, intervalMs, REMEMBER_START_MS), 0);
      return typeof left === 'number' && left > 0 ? left : 0;
    },
  };
}
