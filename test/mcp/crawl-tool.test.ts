// The crawl tool through a real MCP client over stdio, against a generated 220-page loopback site
// (test/crawl-site.ts): exact budgets, no URL fetched twice, skipped URLs listed, progress, cancellation, Crawl-delay.
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { countTokens, loadTokenizer } from '../../src/tokens.js';
import type { CrawlToolResult } from '../../src/tools/crawl-schema.js';
import {
  addCrawlSite,
  crawlSitePaths,
  EXTERNAL_LINK,
  PAGE_COUNT,
  PRIVATE_LINK,
  type CrawlSiteOptions,
} from '../crawl-site.js';
import { closedPort } from '../fixture-server.js';
import { expectSpaced } from '../spacing.js';
import { expectStopsGrowing } from '../stops-growing.js';
import { useMcpSession } from './session.js';

// countTokens is synchronous: the encoding it uses is loaded once, here.
await loadTokenizer();

const SUMMARY_MARK = '---\n\n## Crawl summary';

const site: { -readonly [K in keyof CrawlSiteOptions]: CrawlSiteOptions[K] } = { crawlDelaySeconds: 0.01 };
const pageRequests: Array<{ path: string; at: number }> = [];

// A fresh server process per test: its own page cache, so every test's fetches reach the fixture server.
const { server, connect } = useMcpSession({
  tools: 'all',
  perTest: true,
  setup(server) {
    addCrawlSite(server, site);
    site.onPageRequest = (path) => pageRequests.push({ path, at: Date.now() });
  },
  env: { FETCH_TIMEOUT: '3000' },
});

function totalHits(): number {
  return crawlSitePaths().reduce((sum, path) => sum + server.hits(path), 0);
}

function hitsSnapshot(): Map<string, number> {
  return new Map(crawlSitePaths().map((path) => [path, server.hits(path)]));
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe('crawl over MCP', () => {
  it('is listed with its arguments, defaults and output schema', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('crawl');
    const crawl = tools.find((tool) => tool.name === 'crawl')!;
    expect(crawl.inputSchema.required).toBeUndefined(); // url, unless continue_from is given (checked when run)
    expect(crawl.inputSchema.properties).toMatchObject({
      max_tokens: { type: 'integer' },
      allowed_domains: { type: 'array' },
      patterns: { type: 'array', default: [] },
      exclude_patterns: { type: 'array', default: [] },
      max_pages: { type: 'integer', default: 100 },
      max_depth: { type: 'integer', default: 5 },
      max_seconds: { type: 'integer', default: 45 },
    });
    expect(crawl.outputSchema?.properties).toHaveProperty('skipped');
    expect(crawl.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it('reads the whole site once: no URL twice, robots, scope, errors, duplicates and the sitemap orphan accounted for', async () => {
    const { client } = await connect({ MAX_OUTPUT_TOKENS: '0' });
    const before = hitsSnapshot();
    const result = (await client.callTool({
      name: 'crawl',
      arguments: { url: server.url('/p/0'), max_tokens: 1_000_000, max_pages: 1000, max_depth: 20 },
    })) as CallToolResult;
    const data = result.structuredContent as CrawlToolResult;
    expect(result.isError).toBeFalsy();
    expect(data.stop_reason).toBe('frontier_empty');
    expect(data.status).toBe('ok');
    const read = data.pages.map((page) => new URL(page.url).pathname);
    // Every generated page, the slow page and the sitemap-only orphan; the canonical duplicate is not a page.
    expect(new Set(read).size).toBe(read.length);
    expect(read).toHaveLength(PAGE_COUNT + 2);
    expect(read).toContain('/p/orphan');
    expect(read).toContain('/slow-page');
    expect(read.slice(0, 3)).toEqual(['/p/0', '/p/1', '/p/2']); // breadth-first
    // No URL fetched twice: tracking-parameter, fragment and canonical spellings never reach the server again.
    for (const path of crawlSitePaths()) {
      expect.soft(server.hits(path) - (before.get(path) ?? 0), path).toBeLessThanOrEqual(1);
    }
    expect(server.hits('/private/secret') - before.get('/private/secret')!).toBe(0);
    expect(data.skipped.robots).toEqual([{ url: server.url('/private/secret'), reason: 'disallowed by robots.txt' }]);
    expect(data.skipped.scope).toContainEqual({
      url: EXTERNAL_LINK,
      reason: 'host external.example is not in allowed_domains',
    });
    expect(data.skipped.errors).toContainEqual(
      expect.objectContaining({
        url: PRIVATE_LINK,
        code: 'PRIVATE_ADDRESS',
        message: expect.stringContaining('Refusing to fetch'),
      }),
    );
    expect(data.skipped.errors).toContainEqual(
      expect.objectContaining({ url: server.url('/status/500'), code: 'HTTP_STATUS' }),
    );
    expect(data.skipped.duplicates).toEqual([
      { url: server.url('/duplicate'), reason: `same page as ${server.url('/p/1')} (canonical or redirect)` },
    ]);
    const text = textOf(result);
    expect(text).toContain('## [1] Page 0\n\nURL: ' + server.url('/p/0'));
    expect(text).toContain(
      `### Skipped for robots.txt (1)\n\n- ${server.url('/private/secret')} — disallowed by robots.txt`,
    );
    expect(text).toContain(`- ${PRIVATE_LINK} — PRIVATE_ADDRESS: Refusing to fetch`);
    expect(text).toMatch(
      /- Pages read: 222 \(max_pages 1000\)\n- Tokens used: \d+ of 1000000 \(max_tokens\)\n- Elapsed: [\d.]+ s/,
    );
  });

  it('holds the token budget exactly, cuts the last page cleanly, and sends progress after every page', async () => {
    const { client } = await connect();
    const progress: Progress[] = [];
    const maxTokens = 3000;
    const result = (await client.callTool(
      { name: 'crawl', arguments: { url: server.url('/p/0'), max_tokens: maxTokens, max_pages: 200 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    )) as CallToolResult;
    const data = result.structuredContent as CrawlToolResult;
    const text = textOf(result);
    const pagesText = text.slice(0, text.indexOf(SUMMARY_MARK));
    // The same tokenizer as the output cap: the pages' Markdown, counted whole, is within the budget.
    expect(countTokens(pagesText)).toBeLessThanOrEqual(maxTokens);
    expect(data.tokens_used).toBe(data.pages.reduce((sum, page) => sum + page.tokens, 0));
    expect(data.tokens_used).toBeLessThanOrEqual(maxTokens);
    expect(data.tokens_used).toBeGreaterThan(maxTokens - 200);
    expect(data.stop_reason).toBe('max_tokens');
    expect(data.status).toBe('ok');
    expect(data.truncated).toBe(true);
    // The page that did not fit was cut with a notice, or (too little room left) left out and listed.
    const last = data.pages.at(-1)!;
    if (!last.cut) expect(data.skipped.budget[0]!.reason).toBe('did not fit in the tokens left of max_tokens');
    else
      expect(pagesText).toMatch(
        /\.\n\n<error>Page cut at \d+ of \d+ characters to stay within the crawl budget of 3000 tokens/,
      );
    expect(data.skipped_counts.budget).toBeGreaterThan(0);
    expect(text).toContain('- Stopped: the token budget (max_tokens) was spent');
    // Progress: one notification per page or skipped fetch, rising, naming pages, tokens and the frontier.
    expect(progress.length).toBeGreaterThanOrEqual(data.pages_read);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_p, i) => i + 1));
    expect(progress.at(-1)!.message).toMatch(
      new RegExp(
        `^${data.pages_read} of at most ${data.max_pages} pages read, ${data.tokens_used} of 3000 tokens, ` +
          `\\d+ URLs in the frontier$`,
      ),
    );
  });

  it('never reads more than max_pages, and fetches no more pages than it reads', async () => {
    const { client } = await connect();
    const before = totalHits();
    const result = (await client.callTool({
      name: 'crawl',
      arguments: { url: server.url('/p/0'), max_pages: 7, exclude_patterns: ['/status/**', '/slow-page'] },
    })) as CallToolResult;
    const data = result.structuredContent as CrawlToolResult;
    expect(data.pages_read).toBe(7);
    expect(data.stop_reason).toBe('max_pages');
    expect(data.skipped.budget[0]).toMatchObject({ reason: 'max_pages (7) reached' });
    expect(data.skipped.scope).toContainEqual({
      url: server.url('/status/500'),
      reason: "matches exclude pattern '/status/**'",
    });
    // robots.txt, sitemap.xml, and the pages: the private link is refused before any connection.
    expect(totalHits() - before).toBeLessThanOrEqual(2 + 7 + 1);
  });

  it('follows only paths matching patterns', async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: 'crawl',
      arguments: { url: server.url('/p/0'), patterns: ['/p/{1,2,3,4}'], max_pages: 50 },
    })) as CallToolResult;
    const data = result.structuredContent as CrawlToolResult;
    expect(data.pages.map((page) => new URL(page.url).pathname)).toEqual(['/p/0', '/p/1', '/p/2', '/p/3', '/p/4']);
    expect(data.skipped.scope).toContainEqual({ url: server.url('/p/5'), reason: 'matches none of patterns' });
  });

  it('spaces requests by robots.txt Crawl-delay', async () => {
    site.crawlDelaySeconds = 0.2;
    try {
      const { client } = await connect({ MAX_CONCURRENT: '3' });
      pageRequests.length = 0;
      await client.callTool({
        name: 'crawl',
        arguments: {
          url: server.url('/p/0'),
          max_pages: 6,
          exclude_patterns: ['/status/**', '/slow-page', '/duplicate'],
        },
      });
      const times = pageRequests.map((request) => request.at);
      expect(times.length).toBeGreaterThanOrEqual(5);
      // Arrival times are read in this process, whose event loop also runs vitest and the MCP client, so one
      // arrival can be stamped late and shorten the gap after it: see test/spacing.ts for what holds regardless.
      // Ignoring the delay fails it outright (gaps of a few ms).
      expectSpaced(times, 200);
    } finally {
      site.crawlDelaySeconds = 0.01;
    }
  });

  it('stops fetching when the client cancels', async () => {
    site.crawlDelaySeconds = 0.1;
    try {
      const { client } = await connect();
      const before = totalHits();
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'crawl', arguments: { url: server.url('/p/0'), max_pages: 1000, max_tokens: 1_000_000 } },
        undefined,
        { signal: controller.signal },
      );
      // Cancel once the crawl is under way (a few pages read), however long a loaded machine takes to get there.
      while (totalHits() - before < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort('test cancels');
      await expect(call).rejects.toThrow();
      // In-flight requests end; then the count stays where it is (a crawl not stopped reads a page every 0.1 s).
      await expectStopsGrowing(totalHits, 'pages read after the cancellation', { quietMs: 1000 });
      const atCancel = totalHits();
      expect(atCancel - before).toBeGreaterThan(2);
      expect(atCancel - before).toBeLessThan(40);
    } finally {
      site.crawlDelaySeconds = 0.01;
    }
  });

  it('says why nothing was read when the start URL fails', async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: 'crawl',
      arguments: { url: server.url('/status/500'), max_depth: 0 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`- ${server.url('/status/500')} — HTTP_STATUS:`);
  });

  it('lists a site that refuses connections under errors, and says the start page failed', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/`;
    const { client } = await connect({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${port}` });
    const result = (await client.callTool({ name: 'crawl', arguments: { url } })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('- Stopped: nothing could be read: the start page failed (CONNECT_FAILED: ');
    expect(text).toContain(`### Errors (1)\n\n- ${url} — CONNECT_FAILED: `);
    expect(text).not.toContain('Skipped for robots.txt');
  });

  it('names the argument when one is wrong', async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: 'crawl',
      arguments: { url: server.url('/p/0'), patterns: ['re:('] },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/patterns: 're:\(' is not a valid pattern/);
  });
});
