// The worker pool runs the compiled worker (dist/), which `npm test` builds first.
import { afterEach, describe, expect, it } from 'vitest';
import { runAsCaller } from './callers.js';
import { createWorkerPool, WORKER_YOUNG_GENERATION_MB, workerResourceLimits, type WorkerPool } from './pool.js';

const SCRIPT = new URL('../../dist/workers/extract-worker.js', import.meta.url);
let pool: WorkerPool | undefined;
const page = (html: string) => ({
  bytes: new TextEncoder().encode(html),
  contentType: 'text/html; charset=utf-8',
  baseUrl: 'https://x.test/',
  article: {},
});
afterEach(() => pool?.close());

it('runs extraction off the main thread', async () => {
  pool = createWorkerPool(SCRIPT, 1);
  const html = '<html><body><article><h1>Hi</h1><p>Some words here to read.</p></article></body></html>';
  const work = await pool.run<{ article: { content: string } }>('readHtmlWork', page(html), 5000);
  expect(work.article.content).toContain('Some words here to read.');
});

it("starts its workers with a small young generation, so a big page's garbage is collected as it goes", async () => {
  pool = createWorkerPool(SCRIPT, 1);
  const limits = await pool.run<{ maxYoungGenerationSizeMb: number }>('resourceLimits', {}, 5000);
  expect(limits.maxYoungGenerationSizeMb).toBe(WORKER_YOUNG_GENERATION_MB);
});

it("caps each worker's old generation: 1 GB for the default page limit, more for a larger one", async () => {
  expect(workerResourceLimits().maxOldGenerationSizeMb).toBe(1024);
  expect(workerResourceLimits(50 * 1024 * 1024).maxOldGenerationSizeMb).toBe(5000);
  pool = createWorkerPool(SCRIPT, 1, workerResourceLimits(20 * 1024 * 1024));
  const limits = await pool.run<{ maxOldGenerationSizeMb: number }>('resourceLimits', {}, 5000);
  expect(limits.maxOldGenerationSizeMb).toBe(2000);
});

it('stops a task over its time limit, replaces the worker and keeps serving', async () => {
  pool = createWorkerPool(SCRIPT, 1);
  await expect(pool.run('spin', {}, 300)).rejects.toMatchObject({
    name: 'ExtractionError',
    code: 'EXTRACTION_TIMEOUT',
  });
  const work = await pool.run<{ raw: string }>('readHtmlWork', page('<p>Still here and reading.</p>'), 5000);
  expect(work.raw).toContain('Still here');
});

it('a page whose extraction passes the heap cap fails alone; its worker is replaced and the pool keeps serving', async () => {
  pool = createWorkerPool(SCRIPT, 1, { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 24 });
  const cells = '<tr><td>cell</td><td><a href="/x">a link</a></td></tr>'.repeat(150_000);
  await expect(pool.run('readHtmlWork', page(`<table>${cells}</table>`), 60_000)).rejects.toMatchObject({
    name: 'ExtractionError',
    code: 'EXTRACTION_FAILED',
    message: expect.stringMatching(/^Extraction worker crashed: .*memory/),
  });
  const work = await pool.run<{ raw: string }>('readHtmlWork', page('<p>Still reading after it.</p>'), 10_000);
  expect(work.raw).toContain('Still reading after it.');
});

it('a task queued behind a stuck one still runs once the stuck one is stopped', async () => {
  pool = createWorkerPool(SCRIPT, 1);
  const stuck = pool.run('spin', {}, 300);
  const queued = pool.run<{ raw: string }>('readHtmlWork', page('<p>Queued page text.</p>'), 5000);
  await expect(stuck).rejects.toMatchObject({ code: 'EXTRACTION_TIMEOUT' });
  await expect(queued).resolves.toMatchObject({ raw: expect.stringContaining('Queued page text.') });
});

it('an unknown task is an extraction error, not a crash', async () => {
  pool = createWorkerPool(SCRIPT, 1);
  await expect(pool.run('nope', {}, 1000)).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
});

describe('a fair share between callers (issue 23)', () => {
  /** Starts `count` never-ending tasks as `caller`; `ended` counts those that settled. */
  function spin(target: WorkerPool, caller: object, count: number, timeoutMs = 60_000) {
    const state = { ended: 0, tasks: [] as Promise<unknown>[] };
    for (let i = 0; i < count; i++) {
      const task = runAsCaller(caller, () => target.run('spin', {}, timeoutMs));
      state.tasks.push(task.catch((error: unknown) => error).finally(() => (state.ended += 1)));
    }
    return state;
  }

  it("one caller's stuck tasks leave a worker for another caller's page", async () => {
    pool = createWorkerPool(SCRIPT, 3);
    const heavy = spin(pool, {}, 4);
    const plain = await runAsCaller({}, () =>
      pool!.run<{ raw: string }>('readHtmlWork', page('<p>A small page read beside them.</p>'), 5000),
    );
    expect(plain.raw).toContain('A small page');
    expect(heavy.ended).toBe(0); // still spinning: the page did not wait for any of them
  });

  it('takes turns: a second caller is served before the first caller’s backlog', async () => {
    pool = createWorkerPool(SCRIPT, 2); // one worker per caller at most
    const first = {};
    const order: string[] = [];
    const read = (caller: object, name: string) =>
      runAsCaller(caller, () => pool!.run('readHtmlWork', page(`<p>${name} page text.</p>`), 5000)).then(() =>
        order.push(name),
      );
    const stuck = spin(pool, first, 1, 500); // holds first's one worker until its time limit
    const backlog = [read(first, 'a1'), read(first, 'a2'), read(first, 'a3')];
    await read({}, 'b1');
    expect(order).toEqual(['b1']); // while first's stuck task held its share, the other worker served b1
    await Promise.all([...backlog, ...stuck.tasks]);
    expect(order).toEqual(['b1', 'a1', 'a2', 'a3']);
  });

  it('one caller alone uses all but one worker, and its tasks run in order', async () => {
    pool = createWorkerPool(SCRIPT, 3);
    const caller = {};
    const heavy = spin(pool, caller, 2, 400);
    const queued = runAsCaller(caller, () =>
      pool!.run<{ raw: string }>('readHtmlWork', page('<p>After the two.</p>'), 5000),
    );
    await expect(queued).resolves.toMatchObject({ raw: expect.stringContaining('After the two.') });
    // It waited for one of its own: the third worker stayed free for others. (Each spin's limit runs from its own
    // worker's start, so the second may end just after the queued task.)
    expect(heavy.ended).toBeGreaterThanOrEqual(1);
  });
});

describe('the spare worker (issue 22: no third worker on two cores unless one caller holds the others)', () => {
  const THREADS = new URL('../../test/fixtures/workers/thread-worker.mjs', import.meta.url);
  const whoami = (target: WorkerPool, caller: object, ms: number) =>
    runAsCaller(caller, () => target.run<number>('whoami', ms, 10_000));

  it('callers that each hold less than their share use the regular workers only', async () => {
    pool = createWorkerPool(THREADS, 3);
    const threads = await Promise.all([{}, {}, {}, {}, {}, {}].map((caller) => whoami(pool!, caller, 300)));
    expect(new Set(threads).size).toBe(2);
  });

  it('starts the spare for another caller once one caller holds all the regular workers', async () => {
    pool = createWorkerPool(THREADS, 3);
    const heavy = {};
    const held = [whoami(pool, heavy, 1500), whoami(pool, heavy, 1500)];
    const other = await whoami(pool, {}, 0);
    const heavyThreads = await Promise.all(held);
    expect(new Set([...heavyThreads, other]).size).toBe(3);
  });
});

it("runs a task's time limit from when its worker is ready, not while the worker starts", async () => {
  // The worker takes 3 s to start; the task, nothing, within 2 s. Counted from the start, it would time out.
  pool = createWorkerPool(new URL('../../test/fixtures/workers/slow-start-worker.mjs', import.meta.url), 1);
  await expect(pool.run('echo', 'answered', 2000)).resolves.toBe('answered');
});
