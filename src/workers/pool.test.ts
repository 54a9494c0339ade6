// The worker pool runs the compiled worker (dist/), which `npm test` builds first.
import { afterEach, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPool } from './pool.js';

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

it('stops a task over its time limit, replaces the worker and keeps serving', async () => {
  pool = createWorkerPool(SCRIPT, 1);
  await expect(pool.run('spin', {}, 300)).rejects.toMatchObject({
    name: 'ExtractionError',
    code: 'EXTRACTION_TIMEOUT',
  });
  const work = await pool.run<{ raw: string }>('readHtmlWork', page('<p>Still here and reading.</p>'), 5000);
  expect(work.raw).toContain('Still here');
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
