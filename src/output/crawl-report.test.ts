import { describe, expect, it } from 'vitest';
import type { CrawlResult } from '../crawl/commit.js';
import { renderCrawlSummary } from './crawl-report.js';

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
