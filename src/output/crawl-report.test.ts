import { describe, expect, it } from 'vitest';
import type { CrawlResult } from '../crawl/commit.js';
import { renderCrawl, renderCrawlSummary } from './crawl-report.js';
import { countTokens, loadTokenizer } from '../tokens.js';

await loadTokenizer();

const START = 'http://127.0.0.1:1/';

function result(overrides: Partial<CrawlResult> = {}): CrawlResult {
  return {
    startUrl: START,
    pages: [],
    tokensUsed: 0,
    earlier: { pages: 0, tokens: 0 },
    maxTokens: 1000,
    maxPages: 10,
    elapsedMs: 1200,
    timeLimitMs: 45000,
    stopReason: 'frontier_empty',
    skipped: { robots: [], scope: [], budget: [], errors: [], duplicates: [] },
    ...overrides,
  };
}

const skipped = (lists: Partial<CrawlResult['skipped']>): CrawlResult['skipped'] => ({
  robots: [],
  scope: [],
  budget: [],
  errors: [],
  duplicates: [],
  ...lists,
});

describe('the crawl summary when nothing was read', () => {
  it('says the start page failed, with its error, instead of "every URL in scope was visited"', () => {
    const errors = [
      { url: START, code: 'CONNECT_FAILED', message: "Failed to connect to http://127.0.0.1:1/: 'ECONNREFUSED'" },
    ];
    const text = renderCrawlSummary(result({ skipped: skipped({ errors }) }));
    expect(text).toContain(
      "- Stopped: nothing could be read: the start page failed (CONNECT_FAILED: Failed to connect to http://127.0.0.1:1/: 'ECONNREFUSED')",
    );
    expect(text).not.toContain('every URL in scope was visited');
    expect(text).not.toContain('Skipped for robots.txt');
  });

  it('begins with the summary, with no rule above it, when no page was read', async () => {
    const errors = [{ url: START, code: 'CONNECT_FAILED', message: 'refused' }];
    const text = await renderCrawl(result({ skipped: skipped({ errors }) }));
    expect(text.startsWith('## Crawl summary')).toBe(true);
  });

  it('says robots.txt disallows the start page when it does', () => {
    const robots = [{ url: START, reason: 'disallowed by robots.txt' }];
    const text = renderCrawlSummary(result({ skipped: skipped({ robots }) }));
    expect(text).toContain(
      '- Stopped: nothing could be read: robots.txt disallows the start page (disallowed by robots.txt)',
    );
  });

  it('keeps "every URL in scope was visited" for a crawl that read pages, over its calls', () => {
    // A continuation whose last URLs failed: the crawl read pages in its earlier call.
    const errors = [{ url: `${START}x`, code: 'HTTP_STATUS', message: 'HTTP 500' }];
    const text = renderCrawlSummary(result({ earlier: { pages: 3, tokens: 300 }, skipped: skipped({ errors }) }));
    expect(text).toContain('- Stopped: every URL in scope was visited');
  });

  it('leaves the other stop reasons alone with nothing read', () => {
    expect(renderCrawlSummary(result({ stopReason: 'cancelled' }))).toContain('- Stopped: cancelled');
  });
});

describe('the crawl text within MAX_OUTPUT_TOKENS', () => {
  const scope = Array.from({ length: 60 }, (_, n) => ({
    url: `http://elsewhere-${n}.example/a/rather/long/path/${n}`,
    reason: `host elsewhere-${n}.example is not in allowed_domains`,
  }));
  const section = `# Start\n\n${'word '.repeat(15)}\n\n`;
  const page = { url: START, finalUrl: START, title: 'Start', depth: 0, section, tokens: 20, content: section };
  const pages = [{ ...page, isCut: false, rendered: false }];
  const big = result({ pages, tokensUsed: 20, skipped: skipped({ scope }) });

  it('is the whole text when it fits, or without a cap', async () => {
    const text = await renderCrawl(big, [], undefined, 0);
    expect(text).toContain(scope[49]!.url);
    expect(text).toContain('- … and 10 more');
  });

  it('shortens the skipped lists to fit, and says so', async () => {
    const text = await renderCrawl(big, [], undefined, 400);
    expect(countTokens(text)).toBeLessThanOrEqual(400);
    expect(text).toContain('# Start');
    expect(text).toContain('### Skipped for scope (60)');
    expect(text).toContain('shortened to fit MAX_OUTPUT_TOKENS (400)');
  });

  it('cuts the text, saying so, when the cap is smaller than even the summary', async () => {
    const text = await renderCrawl(big, [], undefined, 60);
    expect(countTokens(text)).toBeLessThanOrEqual(60);
    expect(text).toContain('cut here to stay within MAX_OUTPUT_TOKENS (60)');
  });
});
