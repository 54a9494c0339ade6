import { describe, expect, it } from 'vitest';
import { createRequestQueue } from './queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createRequestQueue', () => {
  it('starts calls to one host at least PER_DOMAIN_INTERVAL apart, other hosts at once', async () => {
    const queue = createRequestQueue({ maxConcurrent: 5, perDomainIntervalMs: 100 });
    const starts: Array<[string, number]> = [];
    const t0 = Date.now();
    const task = (name: string) => async () => void starts.push([name, Date.now() - t0]);
    await Promise.all([
      queue.schedule('http://a.test/1', task('a1'), { timeoutMs: 5000 }),
      queue.schedule('http://a.test/2', task('a2'), { timeoutMs: 5000 }),
      queue.schedule('http://b.test/1', task('b1'), { timeoutMs: 5000 }),
      queue.schedule('http://a.test/3', task('a3'), { timeoutMs: 5000 }),
    ]);
    const at = Object.fromEntries(starts);
    expect(at.b1).toBeLessThan(50);
    expect(at.a2! - at.a1!).toBeGreaterThanOrEqual(95);
    expect(at.a3! - at.a2!).toBeGreaterThanOrEqual(95);
  });

  it('runs at most MAX_CONCURRENT calls at once', async () => {
    const queue = createRequestQueue({ maxConcurrent: 2, perDomainIntervalMs: 0 });
    let running = 0;
    let most = 0;
    const task = async () => {
      most = Math.max(most, ++running);
      await sleep(20);
      running--;
    };
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => queue.schedule(`http://h${i}.test/`, task, { timeoutMs: 5000 })),
    );
    expect(most).toBe(2);
  });

  it('a waiting call leaves on its deadline with a TimeoutError, and on cancellation', async () => {
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 0 });
    const blocker = queue.schedule('http://a.test/', () => sleep(300), { timeoutMs: 5000 });
    await expect(queue.schedule('http://b.test/', async () => 'ran', { timeoutMs: 50 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const controller = new AbortController();
    const cancelled = queue.schedule('http://c.test/', async () => 'ran', {
      signal: controller.signal,
      timeoutMs: 5000,
    });
    controller.abort(new Error('cancelled by caller'));
    await expect(cancelled).rejects.toThrow('cancelled by caller');
    expect(queue.waiting).toBe(0);
    await blocker;
  });
});
