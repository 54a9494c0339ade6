// The request queue through the whole product: parallel MCP calls to one host arrive PER_DOMAIN_INTERVAL apart.
import { describe, expect, it } from 'vitest';
import { expectSpaced } from '../spacing.js';
import { useMcpSession } from './session.js';
import { connectStdio } from './stdio-client.js';

const INTERVAL_MS = 400;

const arrivals: number[] = [];

const { server, session } = useMcpSession({
  tools: 'all',
  setup(server) {
    server.route('/page/:n', (_req, res) => {
      arrivals.push(performance.now());
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>Queued page with <a href="/next">a link</a> and enough words to be readable content here.</p>');
    });
  },
  env: { PER_DOMAIN_INTERVAL: String(INTERVAL_MS), MAX_CONCURRENT: '3', FETCH_TIMEOUT: '5000' },
});

/**
 * Two fetches of pages on the fixture host sent at once to a stdio server of its own, PER_DOMAIN_INTERVAL 3 s plus
 * `env`: the second waits about 3 s for its turn.
 */
async function fetchTwoAtOnce(env: Record<string, string>, firstPath: string, secondPath: string) {
  const client = await connectStdio(['--tools', 'fetch'], {
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    PER_DOMAIN_INTERVAL: '3000',
    ...env,
  });
  try {
    const fetchPage = (path: string) => client.call('fetch', { url: server.url(path) });
    return await Promise.all([fetchPage(firstPath), fetchPage(secondPath)]);
  } finally {
    await client.close();
  }
}

describe('queue', () => {
  it('lists every tool for --tools all (search only with a provider, and none is configured here)', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'fetch',
      'links',
      'web',
      'read_url',
      'crawl',
      'extract_links',
      'web_scraper',
      'map',
      'read_many',
      'screenshot',
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
    // The queue spaces the starts; a busy machine delays some arrivals after their turn (test/spacing.ts). Unspaced
    // requests would arrive a few ms apart.
    expectSpaced(arrivals, INTERVAL_MS);
  });

  it('FETCH_TIMEOUT starts when the call leaves the queue: a wait longer than it is not a time-out', async () => {
    const [first, second] = await fetchTwoAtOnce({ FETCH_TIMEOUT: '1000' }, '/page/a', '/page/b');
    expect(first.isError).toBeFalsy();
    expect(second.isError).toBeFalsy(); // waited ~3 s for its turn, then answered in milliseconds
    expect(second.text).toContain('Queued page');
  });

  it('a call whose turn would come after QUEUE_TIMEOUT is refused at once as busy, never as a time-out', async () => {
    const [first, second] = await fetchTwoAtOnce({ QUEUE_TIMEOUT: '2000' }, '/page/c', '/page/d');
    expect(first.isError).toBeFalsy();
    expect(second.isError).toBe(true);
    expect(second.text).toMatch(/^busy: [01] requests ahead for host 127\.0\.0\.1:\d+, retry in [1-3] s\./);
    expect(second.structuredContent).toMatchObject({ error: { code: 'QUEUE_TIMEOUT' } });
  });
});
