// A page holding one 100,000-character word (issue 10): plain o200k spent 7.9 s on it on the main thread, and
// /healthz and every other call waited. Through the JSON tools API of the real HTTP server, while /healthz is
// polled: fetch, links and read_url answer, and no poll waits anywhere near the old seconds. The server runs
// in-process (test/http/http-harness.ts), so a blocked loop would hold the polls too.
import { expect, it } from 'vitest';
import { MAX_LINK_PART_LENGTH } from '../../src/output/link-list.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, useTestHttpServer, watchHealthz } from './http-harness.js';

// Random letters, so no cache of repeated pieces helps (the word); fixed seed, same every run.
function randomWord(length: number): string {
  let state = 11;
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(97 + (state % 26));
  }).join('');
}

const WORD = randomWord(100_000);
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>One long word</title></head><body><article>
<h1>One long word</h1><p>The article starts with ordinary words before the long one.</p>
<p>${WORD}</p><p>And it ends with ordinary words after it.</p>
<p><a href="/next">${WORD}</a> <a href="/short">A short link</a></p></article></body></html>`;

const fixtures = useFixtureServer((fixtures) =>
  fixtures.route('/long-word', (_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(PAGE);
  }),
);
// Deadlines far above the reads' time even on a loaded machine: this test is about the event loop, not them.
const http = useTestHttpServer(() => ({
  ALLOW_PRIVATE_HOSTS: fixtures.hostPort,
  FETCH_TIMEOUT: '30000',
  EXTRACT_TIMEOUT: '30000',
}));

const call = (name: string, body: unknown) => callApi(http.url, name, body);

it(
  'fetch, links and read_url answer on a page with a 100,000-character word while /healthz keeps answering',
  { timeout: 60_000 },
  async () => {
    const url = fixtures.url('/long-word');
    const calls = Promise.all([call('fetch', { url }), call('links', { url }), call('read_url', { url })]);
    const loop = await watchHealthz(http.url, calls);
    const [fetched, links, read] = await calls;
    // The old code held the loop for ~8 s of main-thread CPU per count on this page; /healthz must answer every
    // second. CPU time between answers, not wall-clock time, so a loaded machine does not fail it.
    expect(loop.longestLoopCpuMs, JSON.stringify(loop)).toBeLessThan(1000);

    expect(fetched.success).toBe(true);
    expect(fetched.result?.text).toContain('ordinary words before the long one');
    expect(read.success).toBe(true);
    expect(read.result?.text).toMatch(/Tokens: \d{5,}/);
    expect(links.success).toBe(true);
    const lines = (links.result?.text ?? '').split('\n');
    expect(lines.some((line) => line.includes('A short link'))).toBe(true);
    // The link whose text is the long word is listed, shortened with an ellipsis (MAX_LINK_PART_LENGTH).
    const long = lines.find((line) => line.includes(WORD.slice(0, 50)));
    expect(long).toContain('…');
    expect(long!.length).toBeLessThan(MAX_LINK_PART_LENGTH + 200);
  },
);
