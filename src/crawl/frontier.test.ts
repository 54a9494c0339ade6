import { describe, expect, it } from 'vitest';
import { createFrontier, type CrawlScope } from './frontier.js';

const SCOPE: CrawlScope = {
  url: 'https://site.test/',
  maxTokens: 1000,
  maxPages: 10,
  maxDepth: 1,
  allowedDomains: ['site.test'],
  patterns: [],
  excludePatterns: ['/private/**'],
  respectRobots: false,
  concurrency: 1,
};

describe('createFrontier', () => {
  it('takes a URL once, in order, and lists out-of-scope and too-deep ones with the reason', () => {
    const frontier = createFrontier({ startUrl: 'https://site.test/', scope: SCOPE });
    frontier.enqueue('https://site.test/a', 1);
    frontier.enqueue('https://site.test/a#top', 1); // the same page once normalised
    frontier.enqueue('https://other.test/', 1);
    frontier.enqueue('https://site.test/private/x', 1);
    frontier.enqueue('https://site.test/b', 2);
    expect(frontier.remaining().map((entry) => entry.url)).toEqual(['https://site.test/', 'https://site.test/a']);
    expect(frontier.outOfScope).toEqual([
      { url: 'https://other.test/', reason: 'host other.test is not in allowed_domains' },
      { url: 'https://site.test/private/x', reason: "matches exclude pattern '/private/**'" },
      { url: 'https://site.test/b', reason: 'deeper than max_depth 1' },
    ]);
    frontier.take();
    expect(frontier.peek()).toEqual({ url: 'https://site.test/a', depth: 1 });
    expect(frontier.size()).toBe(1);
  });

  it('knows a page read under a redirect or canonical URL as a duplicate', () => {
    const frontier = createFrontier({ startUrl: 'https://site.test/', scope: SCOPE });
    const first = frontier.sightPage('https://site.test/', 'https://site.test/home', undefined);
    expect(first).toEqual({ aliases: ['https://site.test/', 'https://site.test/home'] });
    frontier.markRead(first.aliases, 'https://site.test/');
    expect(frontier.sightPage('https://site.test/c', 'https://site.test/c', 'https://site.test/home').original).toBe(
      'https://site.test/',
    );
    expect(frontier.followable('https://site.test/home', 1)).toBeUndefined();
    expect(frontier.followable('https://site.test/d', 1)).toBe('https://site.test/d');
    expect(frontier.state().readAs).toEqual([
      ['https://site.test/', 'https://site.test/'],
      ['https://site.test/home', 'https://site.test/'],
    ]);
  });
});
