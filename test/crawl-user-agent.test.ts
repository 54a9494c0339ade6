// Who the crawler says it is: `crawl` and `map` send web-reader/<version> (+<repository>) and obey the robots.txt
// group of that name; a User-Agent the user sets is sent instead, and its group obeyed; single-page commands keep the
// browser-like default. What the loopback site saw is read from its request log.
import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT } from '../src/config.js';
import type { CrawlToolResult } from '../src/tools/crawl-schema.js';
import { REPOSITORY_URL, VERSION } from '../src/version.js';
import { runCli } from './run-cli.js';
import { useFixtureServer } from './use-fixture-server.js';

const CRAWLER = `web-reader/${VERSION} (+${REPOSITORY_URL})`;
const PAGES = ['/ua/', '/ua/ours', '/ua/theirs'];

// Each group disallows a different page, so which group was obeyed shows in what was read.
const ROBOTS =
  'User-agent: web-reader\nDisallow: /ua/theirs\n\nUser-agent: MyBot\nDisallow: /ua/ours\n\nUser-agent: *\nDisallow: /\n';

const server = useFixtureServer((server) => {
  server.route('/robots.txt', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(ROBOTS);
  });
  for (const path of PAGES) {
    server.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<html><head><title>${path}</title></head><body><nav><a href="/ua/ours">Ours</a> <a href="/ua/theirs">Theirs</a>` +
          `</nav><article><h1>${path}</h1><p>A page of the user-agent site, long enough to be read as an article.</p>` +
          '</article></body></html>',
      );
    });
  }
});

const env = () => ({ ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0' });

/** The User-Agents of the requests for `paths` that `run` made (the log only grows). */
async function agentsOf(run: () => Promise<unknown>, paths: readonly string[]): Promise<Record<string, string[]>> {
  const before = Object.fromEntries(paths.map((path) => [path, server.requestHeaders(path).length]));
  await run();
  return Object.fromEntries(
    paths.map((path) => [
      path,
      server
        .requestHeaders(path)
        .slice(before[path])
        .map((h) => h['user-agent'] ?? ''),
    ]),
  );
}

async function crawl(extra: string[] = []): Promise<CrawlToolResult> {
  const run = await runCli(['crawl', server.url('/ua/'), '--json', ...extra], env());
  return JSON.parse(run.stdout) as CrawlToolResult;
}

const paths = (result: CrawlToolResult) => result.pages.map((page) => new URL(page.url).pathname);

describe('the crawler names itself', () => {
  it('crawl sends web-reader/<version> (+repository) for robots.txt, sitemaps and pages, and obeys its group', async () => {
    let result!: CrawlToolResult;
    const agents = await agentsOf(async () => (result = await crawl()), ['/robots.txt', '/sitemap.xml', ...PAGES]);
    expect(paths(result)).toEqual(['/ua/', '/ua/ours']);
    expect(result.skipped.robots).toEqual([{ url: server.url('/ua/theirs'), reason: 'disallowed by robots.txt' }]);
    expect(agents).toEqual({
      '/robots.txt': [CRAWLER],
      '/sitemap.xml': [CRAWLER],
      '/ua/': [CRAWLER],
      '/ua/ours': [CRAWLER],
      '/ua/theirs': [],
    });
  });

  it('--user-agent is sent instead, and the robots.txt group of its name is the one obeyed', async () => {
    let result!: CrawlToolResult;
    const agents = await agentsOf(
      async () => (result = await crawl(['--user-agent', 'MyBot/2.0 (+https://me.example)'])),
      ['/robots.txt', ...PAGES],
    );
    expect(paths(result)).toEqual(['/ua/', '/ua/theirs']);
    expect(result.skipped.robots.map((entry) => new URL(entry.url).pathname)).toEqual(['/ua/ours']);
    const mine = 'MyBot/2.0 (+https://me.example)';
    expect(agents).toEqual({ '/robots.txt': [mine], '/ua/': [mine], '/ua/ours': [], '/ua/theirs': [mine] });
  });

  it('map asks as the crawler too', async () => {
    const agents = await agentsOf(() => runCli(['map', server.url('/ua/')], env()), ['/robots.txt', '/ua/']);
    expect(agents).toEqual({ '/robots.txt': [CRAWLER], '/ua/': [CRAWLER] });
  });

  it('a single-page read keeps the browser-like default', async () => {
    const agents = await agentsOf(async () => {
      const run = await runCli(['read', server.url('/ua/')], env());
      expect(run.code).toBe(0);
    }, ['/ua/']);
    expect(agents).toEqual({ '/ua/': [DEFAULT_USER_AGENT] });
  });
});
