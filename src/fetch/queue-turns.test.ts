// The queue with turns shared with other processes (REDIS_URL): the shared store is played here by a table the test
// controls; the real one, against a real Redis, is src/shared-state/redis-host-turns.test.ts and test/replicas.test.ts.
import { describe, expect, it } from 'vitest';
import { createRequestQueue, type HostTurns } from './queue.js';

/** Turns another process holds: `take` answers the next wait from `waits`, then 0; every question is recorded. */
function scriptedTurns(waits: Record<string, number[]>) {
  const asked: Array<[string, number]> = [];
  const turns: HostTurns = {
    async take(key, intervalMs) {
      asked.push([key, intervalMs]);
      return waits[key]?.shift() ?? 0;
    },
  };
  return { turns, asked };
}

describe('createRequestQueue with shared turns', () => {
  it('asks for the host’s turn before each start, with PER_DOMAIN_INTERVAL, and waits as long as it is told', async () => {
    const { turns, asked } = scriptedTurns({ 'a.test': [150] });
    const queue = createRequestQueue({ maxConcurrent: 2, perDomainIntervalMs: 50, maxWaitMs: 5000, turns });
    const t0 = Date.now();
    const startedAt = await queue.schedule('http://a.test/1', async () => Date.now() - t0, { timeoutMs: 5000 });
    expect(startedAt).toBeGreaterThanOrEqual(145);
    expect(asked).toEqual([
      ['a.test', 50],
      ['a.test', 50],
    ]);
  });

  it('holds no slot while a host waits for its turn: another host starts meanwhile', async () => {
    const { turns } = scriptedTurns({ 'slow.test': [300] });
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 50, maxWaitMs: 5000, turns });
    const order: string[] = [];
    const run = (name: string) => async () => void order.push(name);
    await Promise.all([
      queue.schedule('http://slow.test/', run('slow'), { timeoutMs: 5000 }),
      queue.schedule('http://fast.test/', run('fast'), { timeoutMs: 5000 }),
    ]);
    expect(order).toEqual(['fast', 'slow']);
  });

  it('refuses with QUEUE_TIMEOUT when the shared wait outlasts the call’s wait limit', async () => {
    const { turns } = scriptedTurns({ 'held.test': [60_000] });
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 50, maxWaitMs: 100, turns });
    await expect(queue.schedule('http://held.test/', async () => 'ran', { timeoutMs: 5000 })).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'QUEUE_TIMEOUT',
    });
  });

  it('starts on the process’s own spacing when the store cannot answer', async () => {
    const turns: HostTurns = { take: () => Promise.reject(new Error('down')) };
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 50, maxWaitMs: 5000, turns });
    await expect(queue.schedule('http://a.test/', async () => 'ran', { timeoutMs: 5000 })).resolves.toBe('ran');
  });
});
