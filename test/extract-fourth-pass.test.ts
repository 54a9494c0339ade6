// Issue 24, fourth pass: one small page per mechanism kept (docs/benchmarks.md, "Fourth pass"). Each test fails
// without its mechanism.
import { describe, expect, it } from 'vitest';
import { articlePage as page, PAGE_URL as URL, PROSE } from './fixtures/article-page.js';
import { extractArticle } from '../src/extract/extract-article.js';

const LEAD =
  'A New York the climate clock on Union Square now counts down the years left to cut emissions, and it reminds the world that time is short. ';

describe('the lead before the content', () => {
  it('is found past a byline whose author name is a link', () => {
    const html = page(`<div class="post"><h1>Report</h1>
      <div class="summary"><p>${LEAD}</p></div>
      <div class="post-meta"><span>by</span> <a href="/author/desk" rel="author">The desk</a></div>
      <div class="post-content"><div class="entry-content"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></div></div></div>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('the climate clock on Union Square');
    expect(markdown).not.toContain('The desk');
    expect(markdown.indexOf('the climate clock')).toBeLessThan(markdown.indexOf('The committee met'));
  });
});
