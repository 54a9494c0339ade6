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
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('the climate clock on Union Square');
    const lead = explain!.find((entry) => entry.reason.startsWith('joined: the prose just before'));
    expect(lead?.element).toMatch(/^div\.summary "A New York the climate clock/);
    expect(lead?.reason).toBe('joined: the prose just before the content (a lead, past div.post-meta "by The desk")');
    expect(markdown).not.toContain('The desk');
    expect(markdown.indexOf('the climate clock')).toBeLessThan(markdown.indexOf('The committee met'));
  });
});

describe('a date line', () => {
  it('goes from the content, with its label and time; a date inside a sentence stays', () => {
    const html = page(`<article><div class="meta">Veröffentlichung: 2. Februar 2022</div>
      <p>${PROSE.repeat(3)}</p><ul><li><a href="/economy">Economy</a></li><li>published: 2021-04-29 17:13:04</li></ul>
      <p>${PROSE.repeat(2)}</p><p>The report was published on 23.10.2018 and revised a year later.</p><p>23.10.2018</p></article>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).toContain('The report was published on 23.10.2018');
    expect(markdown).not.toContain('Veröffentlichung');
    expect(markdown).not.toContain('2021-04-29');
    expect(markdown).not.toContain('Economy');
    expect(markdown).not.toMatch(/^23\.10\.2018$/m);
    const dateLines = explain!.filter((entry) => entry.reason.startsWith('a date line'));
    expect(dateLines.map((entry) => entry.element)).toEqual([
      'div.meta "Veröffentlichung: 2. Februar 2022"',
      'ul "Economy published: 2021-04-29 17:13:04"', // a category and a date: the post's metadata
      'p "23.10.2018"',
    ]);
  });
});
