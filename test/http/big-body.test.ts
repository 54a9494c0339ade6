// A 9 MB RSS feed and 9 MB of JSON (issue 10): decoding, parsing the feed into Markdown, pretty-printing the JSON
// and cleaning the text held the main thread for 200–700 ms per read, and /healthz and every other call waited.
// Through the JSON tools API of the real HTTP server, while /healthz is polled: the reads answer with the rendered
// content, and no poll waits anywhere near that long. The server runs in-process (test/http/http-harness.ts), so a
// blocked loop would hold the polls too.
import { expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, useTestHttpServer, watchHealthz } from './http-harness.js';

const SIZE = 9 * 1024 * 1024; // under MAX_RESPONSE_SIZE (10 MB)

// Each item carries a zero-width space and a bidi override, so cleaning has work to do on every one.
const ITEM = (i: number) =>
  `<item><title>Item ${i}</title><link>http://feed.test/${i}</link>` +
  `<description>Some text\u200b for item ${i}\u202e here.</description></item>`;
const FEED =
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Big\u200b feed</title>` +
  Array.from({ length: Math.floor(SIZE / ITEM(99_999).length) }, (_, i) => ITEM(i)).join('') +
  `</channel></rss>`;
const JSON_BODY = JSON.stringify(
  Array.from({ length: SIZE / 60 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] })),
);

const fixtures = useFixtureServer((fixtures) => {
  fixtures.route('/big-feed.xml', (_req, res) => {
    res.setHeader('content-type', 'application/rss+xml; charset=utf-8');
    res.end(FEED);
  });
  fixtures.route('/big.json', (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON_BODY);
  });
});
// Deadlines far above the reads' time even on a loaded machine: this test is about the event loop, not them.
const http = useTestHttpServer(() => ({
  ALLOW_PRIVATE_HOSTS: fixtures.hostPort,
  FETCH_TIMEOUT: '30000',
  EXTRACT_TIMEOUT: '30000',
}));

const call = (name: string, body: unknown) => callApi(http.url, name, body);

it('reads a 9 MB feed and 9 MB of JSON while /healthz keeps answering', { timeout: 60_000 }, async () => {
  expect(FEED.length).toBeGreaterThan(8 * 1024 * 1024);
  const feedUrl = fixtures.url('/big-feed.xml');
  const jsonUrl = fixtures.url('/big.json');
  const calls = Promise.all([
    call('read_url', { url: feedUrl, max_length: 2000 }),
    call('read_url', { url: jsonUrl, max_length: 2000 }),
  ]);
  const loop = await watchHealthz(http.url, calls);
  const [feed, json] = await calls;
  // The old code held the loop for 1.2–1.5 s here; a free loop answers within tens of ms (~110 ms measured with both
  // bodies in flight). CPU time between answers, not wall-clock time, so a loaded machine does not fail it.
  expect(loop.longestLoopCpuMs, JSON.stringify(loop)).toBeLessThan(750);

  expect(feed.success, feed.error ?? '').toBe(true);
  // The feed rendered as Markdown (not fenced XML), its title and items clean.
  expect(feed.result?.text).toContain('Big feed');
  expect(feed.result?.text).toContain('Item 0');
  expect(feed.result?.text).not.toContain('<item>');
  expect(feed.result?.text).not.toMatch(/[\u200b\u202e]/);
  expect(json.success, json.error ?? '').toBe(true);
  // Pretty-printed: one key a line.
  expect(json.result?.text).toMatch(/\n {4}"id": 0,\n/);
});
