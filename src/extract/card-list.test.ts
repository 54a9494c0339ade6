import { describe, expect, it } from 'vitest';
import {
  cardHubPage,
  LINK_HEAVY_CARDS as POSTS,
  linkHeavyCard as postCard,
  linkHeavyCardHubBody,
} from '../../test/fixtures/forum-pages.js';
import { articlePage as page, PAGE_URL as URL, PROSE } from '../../test/fixtures/article-page.js';
import { extractArticle } from './extract-article.js';

describe('card hubs', () => {
  it('lists the cards: one item per card, its linked title and its short text', () => {
    const { markdown } = extractArticle(cardHubPage(), { baseUrl: URL });
    expect(markdown).toContain(
      [
        '- [Trail Runner 2](https://example.com/shoes/trail-runner-2) — A light shoe for rocky paths, with a grippy sole. · $120',
        '- [Road Glide](https://example.com/shoes/road-glide) — Cushioned for long runs on tarmac and park paths. · $140',
        '- [Track Spike](https://example.com/shoes/track-spike) — Stiff and fast, for the track and cross-country races. · $95',
        '- [Daily Trainer](https://example.com/shoes/daily-trainer) — An everyday shoe that lasts for hundreds of miles. · $110',
      ].join('\n'),
    );
    expect(markdown).not.toContain('![');
    expect(markdown).not.toContain('###');
  });

  it('makes cards that are list items already into items in place, none lost', () => {
    const item = (n: number): string =>
      `<li class="tile"><a href="/p/${n}"><img src="/p/${n}.jpg" alt=""></a><a class="tile-name" href="/p/${n}">Stove ${n}</a><span>Weight: ${n} kg</span></li>`;
    const html = page(`<main><h1>Stoves</h1><ul class="grid">${[1, 2, 3, 4, 5].map(item).join('')}</ul></main>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    const items = markdown.split('\n').filter((line) => line.startsWith('- '));
    expect(items).toEqual([1, 2, 3, 4, 5].map((n) => `- [Stove ${n}](https://example.com/p/${n}) — Weight: ${n} kg`));
  });

  it('names the decision in --explain', () => {
    const { explain } = extractArticle(cardHubPage(), { baseUrl: URL, explain: true });
    const note = explain!.find((entry) => entry.phase === 'shape');
    expect(note?.element).toMatch(/^div\.product-grid/);
    expect(note?.reason).toBe(
      'card hub: 4 cards (a linked title and a short text each) listed as "- [Title](url) — text"',
    );
  });

  it('leaves teaser cards beside an article as they are', () => {
    const teaser = (n: number): string =>
      `<div class="teaser"><h3><a href="/story/${n}">Story ${n}</a></h3><p>A short line about story ${n}.</p></div>`;
    const html = page(`<main><h1>Report</h1><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(3)}</p>
      <div class="more">${[1, 2, 3].map(teaser).join('')}</div></main>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('[Story 2](https://example.com/story/2)'); // in the content, not listed
    expect(markdown).not.toMatch(/^- \[Story/m);
    const note = explain!.find((entry) => entry.phase === 'shape');
    expect(note?.reason).toMatch(/^not a card hub: 3 cards hold \d+ of the content's \d+ chars \(under 60 %\)/);
  });

  it('keeps link-heavy cards that are the content from the link-density tests, and lists them', () => {
    const html = page(linkHeavyCardHubBody(PROSE));
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    const items = markdown.split('\n').filter((line) => line.startsWith('- '));
    expect(items).toEqual(POSTS.map(([title, text], n) => `- [${title}](https://example.com/blog/${n}) — ${text}`));
    expect(explain!.filter((entry) => entry.reason.startsWith('link farm'))).toEqual([]);
    const note = explain!.find((entry) => entry.phase === 'cleaning' && entry.action === 'note');
    expect(note?.element).toMatch(/^div\.posts "How we moved/);
    expect(note?.reason).toMatch(
      /^4 cards hold \d+ % of the content's text \(at least 30 %\): they are kept from the link-density tests$/,
    );
  });

  it('counts the runs when the cards kept from the link-density tests sit in several', () => {
    const row = `<div class="row">${POSTS.map(postCard).join('')}</div>`;
    const html = page(`<main><h1>Engineering</h1><p>${PROSE}</p><div class="posts">${row}${row}</div></main>`);
    const { explain } = extractArticle(html, { baseUrl: URL, explain: true });
    const note = explain!.find((entry) => entry.phase === 'cleaning' && entry.action === 'note');
    expect(note?.reason).toMatch(/^8 cards in 2 runs hold \d+ % of the content's text/);
  });

  it('judges cards by link density when they are a small part of the content', () => {
    const html =
      page(`<main><h1>Report</h1><p>${PROSE.repeat(5)}</p><div class="posts">${POSTS.slice(0, 3).map(postCard).join('')}</div>
      <p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(4)}</p></main>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).not.toContain('remote execution');
    const removed = explain!.filter((entry) => entry.reason === 'link farm: link density > 0.33');
    expect(removed.map((entry) => entry.element)).toEqual([
      expect.stringMatching(/^div\.card "How we moved/),
      expect.stringMatching(/^div\.card "What we learned/),
      expect.stringMatching(/^div\.card "A look under/),
    ]);
  });
});
