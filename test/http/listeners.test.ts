// Abort listeners (issue 23 item 9): a 256-page run through the JSON API warned MaxListenersExceededWarning (11 abort
// listeners on one signal). Each call listens on the server's process-long cancel signal until it ends; many calls
// at once are load, not a leak. Asserted by the warnings the process emits, and by the listeners left after calls.
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWebReader } from '../../src/index.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, useTestHttpServer } from './http-harness.js';

const fixtures = useFixtureServer((server) => {
  server.route('/page/:n', (_req, res, params) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<html><head><title>Page ${params.n}</title></head><body><main><p>Page ${params.n} words.</p></main></body></html>`,
    );
  });
});
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, MAX_CONCURRENT: '20' }));

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
beforeEach(() => void process.on('warning', onWarning));
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

it('sixteen JSON API calls at once raise no MaxListenersExceededWarning', async () => {
  const results = await Promise.all(
    Array.from({ length: 16 }, (_, n) => callApi(http.url, 'fetch', { url: fixtures.url(`/page/${n}`) })),
  );
  expect(results.every((result) => result.success)).toBe(true);
  await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
  expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
});

it("a library caller's signal keeps no listener once its calls end, whatever they were", async () => {
  const reader = createWebReader({ env: { ALLOW_PRIVATE_HOSTS: fixtures.hostPort, PER_DOMAIN_INTERVAL: '0' } });
  try {
    const signal = new AbortController().signal;
    for (let n = 0; n < 12; n++) await reader.fetch({ url: fixtures.url(`/page/lib-${n}`) }, signal);
    await reader.call('crawl', { url: fixtures.url('/page/crawl'), max_pages: 3 }, signal);
    await reader.call('links', { url: fixtures.url('/page/links') }, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  } finally {
    await reader.close();
  }
});
