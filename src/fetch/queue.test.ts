import { setMaxListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { log, runWithLogSink, type LogLevel } from '../log.js';
import { createRequestQueue } from './queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request to an origin that never answers: it ends only when its signal aborts. */
const stalled = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

/** A task the test ends by hand, and whether it has started. */
function manualTask() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const task = { started: false, finish, run: async () => ((task.started = true), await done, 'done') };
  return task;
}

describe('createRequestQueue', () => {
  it('starts calls to one host at least PER_DOMAIN_INTERVAL apart, other hosts at once', async () => {
    // On a fake clock: with the real one, a loaded machine can pause this process between the queue's reading of
    // the time and the task's, and two starts 100 ms apart by the queue's clock measured 93 ms apart by the tasks'.
    vi.useFakeTimers();
    try {
      const queue = createRequestQueue({ maxConcurrent: 5, perDomainIntervalMs: 100, maxWaitMs: 5000 });
      const starts: Array<[string, number]> = [];
      const t0 = Date.now();
      const task = (name: string) => async () => void starts.push([name, Date.now() - t0]);
      const all = Promise.all([
        queue.schedule('http://a.test/1', task('a1'), { timeoutMs: 5000 }),
        queue.schedule('http://a.test/2', task('a2'), { timeoutMs: 5000 }),
        queue.schedule('http://b.test/1', task('b1'), { timeoutMs: 5000 }),
        queue.schedule('http://a.test/3', task('a3'), { timeoutMs: 5000 }),
      ]);
      await vi.runAllTimersAsync();
      await all;
      expect(starts).toEqual([
        ['a1', 0],
        ['b1', 0], // another host does not wait for a.test's interval
        ['a2', 100],
        ['a3', 200],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an idle turn waits while a caller waits or runs, takes no turn, no slot, and yields to every caller', async () => {
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 100, maxWaitMs: 5000 });
    const order: string[] = [];
    const page = manualTask();
    const first = queue.schedule('http://a.test/1', async () => (order.push('a1'), page.run()), { timeoutMs: 5000 });
    const lookup = manualTask();
    const idle = queue.schedule('http://a.test/llms.txt', async () => (order.push('idle'), lookup.run()), {
      timeoutMs: 5000,
      idle: true,
    });
    const second = queue.schedule('http://a.test/2', async () => void order.push('a2'), { timeoutMs: 5000 });
    await sleep(150);
    page.finish();
    await first;
    await second; // the caller's second request went first: the idle one yields to it
    await vi.waitFor(() => expect(order).toEqual(['a1', 'a2', 'idle']), { timeout: 10_000 });
    // While the idle request runs, a caller's request holds no wait for it: no turn taken, no slot held.
    const third = queue.schedule('http://a.test/3', async () => void order.push('a3'), { timeoutMs: 5000 });
    await third;
    expect(lookup.started).toBe(true);
    expect(order).toEqual(['a1', 'a2', 'idle', 'a3']);
    lookup.finish();
    await idle;
  });

  it('an idle request leaves the queue when its signal aborts, and never starts', async () => {
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 200, maxWaitMs: 5000 });
    await queue.schedule('http://a.test/1', async () => {}, { timeoutMs: 5000 });
    const stop = new AbortController();
    let started = false;
    const idle = queue.schedule('http://a.test/llms.txt', async () => void (started = true), {
      timeoutMs: 5000,
      idle: true,
      signal: stop.signal,
    });
    stop.abort(new Error('closed'));
    await expect(idle).rejects.toThrow('closed');
    await sleep(300);
    expect(started).toBe(false);
  });

  it('runs at most MAX_CONCURRENT calls at once', async () => {
    const queue = createRequestQueue({ maxConcurrent: 2, perDomainIntervalMs: 0, maxWaitMs: 5000 });
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

  it('starts the network deadline when the call leaves the queue: a long wait does not time out a fast request', async () => {
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 0, maxWaitMs: 5000 });
    const blocker = queue.schedule('http://a.test/', () => sleep(400), { timeoutMs: 5000 });
    // Waits ~400 ms for the slot, four times its own 100 ms deadline, then answers at once.
    const fast = queue.schedule('http://b.test/', async () => 'ran', { timeoutMs: 100 });
    await expect(fast).resolves.toBe('ran');
    await blocker;
  });

  it('still enforces the network deadline once the request runs, as TIMEOUT', async () => {
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 0, maxWaitMs: 5000 });
    await expect(queue.schedule('http://a.test/', stalled, { timeoutMs: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'TIMEOUT',
      timeoutMs: 100,
    });
    expect(queue.active).toBe(0);
  });

  it('bounds the wait: past QUEUE_TIMEOUT a call fails with QUEUE_TIMEOUT and says how busy the host is', async () => {
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 0, maxWaitMs: 150 });
    const blocker = manualTask();
    const running = queue.schedule('http://a.test/1', blocker.run, { timeoutMs: 10_000 });
    const waiting = queue.schedule('http://a.test/2', async () => 'ran', { timeoutMs: 10_000 });
    const error = await waiting.catch((caught: unknown) => caught);
    // The 150 ms wait limit ended it: the blocker never finishes by itself, and the 10 s deadline would be TIMEOUT.
    expect(error).toMatchObject({ name: 'TimeoutError', code: 'QUEUE_TIMEOUT', timeoutMs: 150 });
    expect((error as Error).message).toMatch(/^busy: 1 requests ahead for host a\.test, retry in \d+ s\./);
    expect((error as Error).message).toContain('QUEUE_TIMEOUT');
    expect((error as Error).message).not.toMatch(/timed out/i);
    expect(queue.waiting).toBe(0);
    blocker.finish();
    await expect(running).resolves.toBe('done');
  });

  it("refuses at once a call whose place in the host's line already needs longer than QUEUE_TIMEOUT", async () => {
    const queue = createRequestQueue({ maxConcurrent: 10, perDomainIntervalMs: 1000, maxWaitMs: 2500 });
    const ran: number[] = [];
    const calls = Array.from({ length: 5 }, (_, i) =>
      queue.schedule(`http://a.test/${i}`, async () => (ran.push(i), i), { timeoutMs: 5000 }),
    );
    // Calls 0–2 start at 0, 1 and 2 s; call 3 would start at 3 s, past the 2.5 s limit: refused without waiting,
    // while call 1 has yet to start.
    const refused = await calls[3]!.catch((caught: unknown) => caught);
    expect(ran).not.toContain(1);
    expect(refused).toMatchObject({ code: 'QUEUE_TIMEOUT', retryAfterSeconds: 3 });
    expect((refused as Error).message).toMatch(/^busy: 3 requests ahead for host a\.test, retry in 3 s\./);
    await expect(calls[4]).rejects.toMatchObject({ code: 'QUEUE_TIMEOUT' });
    await expect(Promise.all(calls.slice(0, 3))).resolves.toEqual([0, 1, 2]);
  });

  it('a waiting call leaves on cancellation; a running one answers at once while its slot stays taken', async () => {
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 0, maxWaitMs: 5000 });
    const blocker = manualTask();
    const running = new AbortController();
    const first = queue.schedule('http://a.test/', blocker.run, { signal: running.signal, timeoutMs: 5000 });
    const waiting = new AbortController();
    const second = queue.schedule('http://c.test/', async () => 'ran', { signal: waiting.signal, timeoutMs: 5000 });
    waiting.abort(new Error('cancelled while waiting'));
    await expect(second).rejects.toThrow('cancelled while waiting');
    expect(queue.waiting).toBe(0);

    running.abort(new Error('cancelled while running'));
    await expect(first).rejects.toThrow('cancelled while running');
    expect(queue.active).toBe(1); // the task has not stopped yet
    blocker.finish();
    await sleep(10);
    expect(queue.active).toBe(0);
  });

  it('three stalled origins cannot starve a healthy host: its call starts once they turn slow', async () => {
    const queue = createRequestQueue({ maxConcurrent: 3, perDomainIntervalMs: 0, maxWaitMs: 10_000, slowAfterMs: 100 });
    const controller = new AbortController();
    const stalls = ['s1', 's2', 's3'].map((host) =>
      queue.schedule(`http://${host}.test/`, stalled, { signal: controller.signal, timeoutMs: 8000 }),
    );
    expect(queue.active).toBe(3);
    let stallsEnded = 0;
    for (const stall of stalls) void stall.catch(() => undefined).finally(() => (stallsEnded += 1));
    await expect(queue.schedule('http://healthy.test/', async () => 'page', { timeoutMs: 8000 })).resolves.toBe('page');
    // Before the stalled requests' 8 s deadline freed their slots: none has ended.
    expect(stallsEnded).toBe(0);
    expect(queue.active).toBe(3);
    controller.abort(new Error('done'));
    await Promise.allSettled(stalls);
  });

  it('a stalled host keeps at most MAX_CONCURRENT requests in flight; all hosts together at most 4 × MAX_CONCURRENT', async () => {
    const queue = createRequestQueue({ maxConcurrent: 2, perDomainIntervalMs: 0, maxWaitMs: 10_000, slowAfterMs: 0 });
    const controller = new AbortController();
    setMaxListeners(12, controller.signal); // one caller's signal on the test's twelve calls: not a leak
    const options = { signal: controller.signal, timeoutMs: 8000 };
    const calls = [];
    for (let i = 0; i < 4; i++) calls.push(queue.schedule('http://stalled.test/', stalled, options));
    // Requests turn slow on timers: wait for the state to be reached, however late a loaded machine runs them.
    await expect.poll(() => queue.active).toBe(2); // the host's own limit, although slow requests freed the shared slots
    await sleep(50);
    expect(queue.active).toBe(2);
    for (const host of ['b', 'c', 'd', 'e']) {
      for (let i = 0; i < 2; i++) calls.push(queue.schedule(`http://${host}.test/`, stalled, options));
    }
    await expect.poll(() => queue.active).toBe(8); // the ceiling
    await sleep(50);
    expect(queue.active).toBe(8);
    expect(queue.waiting).toBe(4);
    controller.abort(new Error('done'));
    await Promise.allSettled(calls);
  });

  it('a freed slot goes to the host with the fewest requests in flight, before earlier calls to busier hosts', async () => {
    const queue = createRequestQueue({ maxConcurrent: 2, perDomainIntervalMs: 0, maxWaitMs: 10_000, slowAfterMs: 0 });
    // Fill the ceiling of 8: a, b, c two each, d and e one each.
    const tasks = new Map<string, ReturnType<typeof manualTask>>();
    const calls: Promise<unknown>[] = [];
    const add = (name: string, host: string) => {
      const task = manualTask();
      tasks.set(name, task);
      calls.push(queue.schedule(`http://${host}.test/${name}`, task.run, { timeoutMs: 8000 }));
    };
    for (const host of ['a', 'b', 'c']) for (const n of [1, 2]) add(`${host}${n}`, host);
    add('d1', 'd');
    add('e1', 'e');
    await expect.poll(() => queue.active).toBe(8);
    add('d2', 'd'); // arrives first; d already has one in flight
    add('h1', 'h'); // arrives later; h has none
    tasks.get('e1')!.finish();
    // One slot freed: h1 takes it (d2 taking it instead would leave h1 waiting, and this poll failing).
    await expect.poll(() => tasks.get('h1')!.started).toBe(true);
    expect(tasks.get('d2')!.started).toBe(false);
    for (const task of tasks.values()) task.finish();
    await Promise.all(calls);
  });

  it("runs a waiting call, and logs its wait, in its own caller's context, not the one whose request freed the slot", async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let clock = 0;
    const queue = createRequestQueue({ maxConcurrent: 1, perDomainIntervalMs: 0, maxWaitMs: 5000, now: () => clock });
    const heard = { a: [] as string[], b: [] as string[] };
    const sinkOf = (who: 'a' | 'b') => (_level: LogLevel, message: string) => void heard[who].push(message);
    const blocker = manualTask();
    const first = runWithLogSink(sinkOf('a'), () =>
      queue.schedule('http://shared.test/a', blocker.run, { timeoutMs: 5000 }),
    );
    const second = runWithLogSink(sinkOf('b'), () =>
      queue.schedule('http://shared.test/b', async () => log('info', 'b fetching'), { timeoutMs: 5000 }),
    );
    await sleep(10);
    clock = 2500; // b has waited 2.5 s when a's request ends and frees the slot, from a's context
    runWithLogSink(sinkOf('a'), () => blocker.finish());
    await Promise.all([first, second]);
    expect(heard.a).toEqual([]);
    expect(heard.b).toEqual([
      expect.stringMatching(/^waited 2\.5 s in the queue before fetching http:\/\/shared\.test\/b: .*MAX_CONCURRENT/),
      'b fetching',
    ]);
    vi.restoreAllMocks();
  });
});
