// robots.txt answers shared by replicas (RESPECT_ROBOTS=always, src/fetch/robots-gate.ts): one replica reads an
// origin's robots.txt, the others use its answer for the same CACHE_TTL. Stored as the answer (text, no rules, or
// everything disallowed and why), never as parsed rules: each replica parses it itself.
import type { RobotsStore } from '../fetch/robots-gate.js';
import type { RobotsAnswer } from '../fetch/robots.js';
import type { RedisLink } from './redis-link.js';

function isAnswer(value: unknown): value is RobotsAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Record<string, unknown>;
  return typeof answer.text === 'string' || answer.allowAll === true || typeof answer.disallowReason === 'string';
}

export function createRedisRobotsStore(link: RedisLink): RobotsStore {
  const robotsKey = (origin: string) => `robots:${origin}`;
  return {
    async get(origin) {
      const value = await link.attempt((redis) => redis.get(robotsKey(origin)), null);
      if (!value) return undefined;
      try {
        const answer: unknown = JSON.parse(value);
        return isAnswer(answer) ? answer : undefined;
      } catch {
        return undefined; // not ours: a miss, overwritten by the next read
      }
    },
    async set(origin, answer, ttlMs) {
      if (ttlMs <= 0) return;
      const value = JSON.stringify(answer);
      await link.attempt((redis) => redis.set(robotsKey(origin), value, 'PX', Math.ceil(ttlMs)), null);
    },
  };
}
