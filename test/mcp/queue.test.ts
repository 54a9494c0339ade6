// The request queue through the whole product: parallel MCP calls to one host arrive PER_DOMAIN_INTERVAL apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixture-server.js';
import { connectStdio, type StdioSession } from './stdio-client.js';

const INTERVAL_MS = 400;

let server: FixtureServer;
let session: StdioSession;
const arrivals: number[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/page/:n', (_req, res) => {
    arrivals.push(performance.now());
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>Queued page with <a href="/next">a link</a> and enough words to be readable content here.</p>');
  });
  session = await connectStdio(['--tools', 'all'], {
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    PER_DOMAIN_INTERVAL: String(INTERVAL_MS),
    MAX_CONCURRENT: '3',
    FETCH_TIMEOUT: '5000',
  });
});

afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe('queue', () => {
  it('lists all seven tools for --tools all', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'fetch',
      'links',
      'web',
      'read_url',
      'crawl',
      'extract_links',
      'web_scraper',
    ]);
  });

  it('N parallel calls to one host reach it at least PER_DOMAIN_INTERVAL apart', async () => {
    // A first request opens the connection and starts the workers, so the burst below measures the queue alone.
    await session.call('fetch', { url: server.url('/page/warm-up') });
    arrivals.length = 0;
    const calls = ['links', 'fetch', 'web_scraper', 'extract_links'].map((tool, n) =>
      session.call(tool, { url: server.url(`/page/${n}`) }),
    );
    const results = await Promise.all(calls);
    expect(results.every((result) => !result.isError)).toBe(true);
    expect(arrivals).toHaveLength(4);
    for (let i = 1; i < arrivals.length; i++) {
      // The queue spaces the starts; loopback connection set-up adds a few ms of jitter to the arrivals.
      expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(INTERVAL_MS - 50);
    }
  });

  it('a queued call honours its own deadline: with FETCH_TIMEOUT shorter than the wait, it times out', async () => {
    const short = await connectStdio(['--tools', 'fetch'], {
      ALLOW_PRIVATE_HOSTS: server.hostPort,
      PER_DOMAIN_INTERVAL: '3000',
      FETCH_TIMEOUT: '1000',
    });
    try {
      const [first, second] = await Promise.all([
        short.call('fetch', { url: server.url('/page/a') }),
        short.call('fetch', { url: server.url('/page/b') }),
      ]);
      expect(first.isError).toBeFalsy();
      expect(second.isError).toBe(true);
      expect(second.text).toMatch(/^Timed out after 1000 ms fetching/);
    } finally {
      await short.close();
    }
  });
});
