import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { setLogLevel } from '../log.js';
import { describeWithRedis } from '../../test/redis-server.js';
import { createRedisLink, redactRedisUrl, type RedisLink } from './redis-link.js';

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition never held');
}

it('keeps a Redis password out of logs', () => {
  expect(redactRedisUrl('redis://:s3cret@cache.internal:6379/2')).toBe('redis://:***@cache.internal:6379/2');
});

describeWithRedis('the connection to Redis when Redis goes away', (server) => {
  let link: RedisLink | undefined;
  // A server logs info and above (a library, warn): 'reachable again' is an info line.
  beforeEach(() => setLogLevel('info'));
  afterEach(async () => {
    vi.restoreAllMocks();
    setLogLevel('warn');
    await link?.close();
  });

  it('answers a command Redis refuses with the fallback, logged as a refusal, not an outage', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    link = createRedisLink(server.url);
    await until(() => link!.isReachable());
    await link.attempt((redis) => redis.set('a-string', 'v'), null);
    expect(await link.attempt((redis) => redis.hget('a-string', 'field'), 'fallback')).toBe('fallback'); // WRONGTYPE
    expect(lines.filter((line) => line.includes('refused a command (WRONGTYPE'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('unreachable'))).toEqual([]);
    expect(await link.isReachable()).toBe(true);
  });

  it('answers every operation with its fallback at once while Redis is down, warns once, and is shared again after', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    link = createRedisLink(server.url);
    await until(() => link!.isReachable());
    expect(await link.attempt((redis) => redis.set('k', 'v'), null)).toBe('OK');

    await server.stop();
    const during = await Promise.all(
      Array.from({ length: 20 }, () => link!.attempt((redis) => redis.get('k'), 'fallback')),
    );
    expect(during).toEqual(Array(20).fill('fallback'));
    expect(await link.isReachable()).toBe(false);
    const warnings = lines.filter((line) => line.includes('warn: Redis at'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('its own in-memory cache');

    await server.start();
    await until(() => link!.isReachable());
    expect(await link.attempt((redis) => redis.set('k', 'again'), null)).toBe('OK');
    expect(lines.some((line) => line.includes('reachable again'))).toBe(true);
    expect(lines.filter((line) => line.includes('warn: Redis at'))).toHaveLength(1);
  });
});
