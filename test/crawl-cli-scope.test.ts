// `web-reader crawl` kept to a part of a site with its scope flags (--include, --exclude, --max-depth,
// --allowed-domains), and a start URL that redirects to another host, through the built CLI against a loopback site
// served under two names: 127.0.0.1:PORT and localhost:PORT (both in ALLOW_PRIVATE_HOSTS).
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { CrawlToolResult } from '../src/tools/crawl-schema.js';
import type { FixtureServer } from './fixture-server.js';
import { runCli } from './run-cli.js';
import { useFixtureServer } from './use-fixture-server.js';

// path → the paths it links to (relative, so they stay on the host the page was read from), plus one absolute link
// to the site's other name.
const DOCS: Record<string, readonly string[]> = {
  // Its nav links to itself first, as home pages do.
  '/docs/': ['/docs/', '/docs/a', '/docs/b', '/docs/old/x', '/blog/post', '/about'],
  '/docs/a': ['/docs/a/deep', '/docs/'],
  '/docs/b': [],
  '/docs/a/deep': [],
  '/docs/old/x': [],
  '/blog/post': [],
  '/about': [],
};

const isLocalhost = (req: IncomingMessage) => (req.headers.host ?? '').startsWith('localhost:');

function addDocsSite(server: FixtureServer): void {
  for (const [path, links] of Object.entries(DOCS)) {
    server.route(path, (req, res) => {
      // The site's canonical name is 127.0.0.1: its start page on localhost redirects there, as www → apex.
      if (path === '/docs/' && isLocalhost(req)) {
        res.writeHead(301, { location: server.url('/docs/') });
        res.end();
        return;
      }
      const anchors = links.map((link) => `<a href="${link}">${link}</a>`);
      if (path === '/docs/') anchors.push(`<a href="http://localhost:${server.port}/docs/elsewhere">Elsewhere</a>`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>${path}</title></head><body><nav>${anchors.join(' ')}</nav>` +
          `<main><article><h1>Page ${path}</h1><p>The page at ${path}, with enough words to be read as an ` +
          `article by the extractor.</p></article></main></body></html>`,
      );
    });
  }
  server.route('/docs/elsewhere', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<html><head><title>Elsewhere</title></head><body><article><h1>Elsewhere</h1><p>Read only when its host is allowed.</p></article></body></html>',
    );
  });
}

const server = useFixtureServer(addDocsSite);

async function crawl(args: string[]): Promise<CrawlToolResult> {
  const env = {
    ALLOW_PRIVATE_HOSTS: `${server.hostPort},localhost:${server.port}`,
    PER_DOMAIN_INTERVAL: '0',
  };
  const run = await runCli(['crawl', ...args, '--json'], env);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as CrawlToolResult;
}

const paths = (entries: readonly { url: string }[]) => entries.map((entry) => new URL(entry.url).pathname);
const start = () => server.url('/docs/');

describe('web-reader crawl: scope flags', () => {
  it('--include keeps the crawl inside /docs/', async () => {
    const result = await crawl([start(), '--include', '/docs/**']);
    expect(paths(result.pages)).toEqual(['/docs/', '/docs/a', '/docs/b', '/docs/old/x', '/docs/a/deep']);
    expect(result.skipped.scope).toEqual(
      expect.arrayContaining([
        { url: server.url('/blog/post'), reason: 'matches none of patterns' },
        { url: server.url('/about'), reason: 'matches none of patterns' },
      ]),
    );
  });

  it('--exclude (repeatable) leaves out what it matches', async () => {
    const result = await crawl([start(), '--include', '/docs/**', '--exclude', '/docs/old/**', '--exclude', '/docs/b']);
    expect(paths(result.pages)).toEqual(['/docs/', '/docs/a', '/docs/a/deep']);
    expect(result.skipped.scope).toEqual(
      expect.arrayContaining([
        { url: server.url('/docs/old/x'), reason: "matches exclude pattern '/docs/old/**'" },
        { url: server.url('/docs/b'), reason: "matches exclude pattern '/docs/b'" },
      ]),
    );
  });

  it('--max-depth 0 reads the start page only', async () => {
    const result = await crawl([start(), '--max-depth', '0']);
    expect(paths(result.pages)).toEqual(['/docs/']);
    expect(result.skipped.scope).toContainEqual({ url: server.url('/docs/a'), reason: 'deeper than max_depth 0' });
  });

  it("--allowed-domains lets the crawl onto another host; by default it stays on the start URL's", async () => {
    const elsewhere = `http://localhost:${server.port}/docs/elsewhere`;
    const alone = await crawl([start(), '--max-depth', '1']);
    expect(alone.skipped.scope).toContainEqual({ url: elsewhere, reason: 'host localhost is not in allowed_domains' });
    const both = await crawl([start(), '--max-depth', '1', '--allowed-domains', '127.0.0.1, localhost']);
    expect(both.pages.map((page) => page.url)).toContain(elsewhere);
  });
});

describe('web-reader crawl: a start URL that redirects to another host', () => {
  it('crawls the site where it landed and says so', async () => {
    const before = server.hits('/docs/');
    const result = await crawl([`http://localhost:${server.port}/docs/`, '--include', '/docs/**']);
    // Asked twice: on localhost (the redirect) and where it landed; its link to itself does not fetch it again.
    expect(server.hits('/docs/') - before).toBe(2);
    expect(result.pages.map((page) => page.final_url)).toEqual([
      server.url('/docs/'),
      server.url('/docs/a'),
      server.url('/docs/b'),
      server.url('/docs/old/x'),
      server.url('/docs/a/deep'),
    ]);
    expect(result.notes).toContainEqual(
      expect.stringContaining(`The start URL redirected from localhost to ${start()}`),
    );
    // The start host left the scope: its link back to localhost is not followed.
    expect(result.skipped.scope).toContainEqual({
      url: `http://localhost:${server.port}/docs/elsewhere`,
      reason: 'host localhost is not in allowed_domains',
    });
  });

  it('stays where --allowed-domains says', async () => {
    const result = await crawl([`http://localhost:${server.port}/docs/`, '--allowed-domains', 'localhost']);
    // The start page's own links lead to 127.0.0.1, not allowed; its one link to localhost is followed.
    const elsewhere = `http://localhost:${server.port}/docs/elsewhere`;
    expect(result.pages.map((page) => page.final_url)).toEqual([start(), elsewhere]);
    expect(result.skipped.scope).toContainEqual({
      url: server.url('/docs/a'),
      reason: 'host 127.0.0.1 is not in allowed_domains',
    });
    expect(result.notes).toEqual([]);
  });
});
