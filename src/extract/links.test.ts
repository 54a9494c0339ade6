import { describe, expect, it } from 'vitest';
import { extractArticle } from './extract-article.js';
import { extractLinks, resolveHref } from './links.js';
import { isSameSite, rankLinks, siteOf, uniqueLinks } from './link-set.js';

const PAGE = 'https://example.com/docs/page';

describe('extractLinks', () => {
  it('resolves against <base href>, then the page URL, in document order with anchor text', () => {
    const html = `<html><head><base href="/root/"></head><body>
      <a href="a">First   link</a><a href="https://other.org/x">Other</a><a href="/abs"><img alt="Logo" src="l.png"></a>
    </body></html>`;
    expect(extractLinks(html, PAGE).links).toEqual([
      { url: 'https://example.com/root/a', text: 'First link' },
      { url: 'https://other.org/x', text: 'Other' },
      { url: 'https://example.com/abs', text: 'Logo' },
    ]);
  });

  it('drops javascript:, fragment-only and empty hrefs, and hidden links (counted)', () => {
    const html = `<body><a href="javascript:void(0)">js</a><a href="#top">top</a><a href="">empty</a>
      <a href="/kept">kept</a><div hidden><a href="/secret">secret</a></div></body>`;
    const { links, hiddenBlocksDropped } = extractLinks(html, PAGE);
    expect(links).toEqual([{ url: 'https://example.com/kept', text: 'kept' }]);
    expect(hiddenBlocksDropped).toBe(1);
  });
});

describe('extractArticle withLinks', () => {
  it('lists where the same links lead as extractLinks, each once, and the canonical URL, from its one parse', () => {
    const html = `<html><head><base href="/root/"><link rel="canonical" href="/canon"></head><body>
      <nav><a href="/home">Home</a></nav><article><h1>Title</h1><p>${'Body text of the story. '.repeat(30)}
      <a href="a">in text</a> <a href="/root/a">again</a></p><p hidden><a href="/secret">secret</a></p></article>
      <footer><a href="https://other.org/x">Other</a></footer></body></html>`;
    const article = extractArticle(html, { baseUrl: PAGE, withLinks: true });
    const listed = extractLinks(html, PAGE);
    expect(article.links?.urls).toEqual([...new Set(listed.links.map((link) => link.url))]);
    expect(article.links?.canonicalUrl).toBe(listed.canonicalUrl);
    expect(article.links?.canonicalUrl).toBe('https://example.com/canon');
    expect(article.links?.urls).toEqual([
      'https://example.com/home',
      'https://example.com/root/a',
      'https://other.org/x',
    ]);
    expect(extractArticle(html, { baseUrl: PAGE }).links).toBeUndefined();
  });
});

describe('resolveHref', () => {
  it.each([
    ['#frag', undefined],
    ['  javascript:alert(1)', undefined],
    ['mailto:a@b.c', 'mailto:a@b.c'],
    ['../up', 'https://example.com/up'],
    ['JaVaScRiPt:alert(1)', undefined],
    ['java\tscript:alert(1)', undefined],
    ['\u0001javascript:alert(1)', undefined],
    ['data:text/html,<script>alert(1)</script>', undefined],
    ['vbscript:msgbox(1)', undefined],
    ['file:///etc/passwd', undefined],
    ['ms-settings:privacy', undefined],
    ['blob:https://example.com/uuid', undefined],
    ['HTTPS://EXAMPLE.COM/X', 'https://example.com/X'],
  ])('%s', (href, expected) => expect(resolveHref(href, PAGE)).toBe(expected));
});

describe('same site', () => {
  it.each([
    ['docs.example.com', 'example.com'],
    ['www.example.co.uk', 'example.co.uk'],
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', 'localhost'],
  ])('siteOf(%s) = %s', (host, site) => expect(siteOf(host)).toBe(site));

  it('treats sub-domains and the other scheme as the same site, other domains and mailto as not', () => {
    expect(isSameSite('http://blog.example.com/x', PAGE)).toBe(true);
    expect(isSameSite('https://example.org/', PAGE)).toBe(false);
    expect(isSameSite('mailto:me@example.com', PAGE)).toBe(false);
  });
});

describe('rankLinks', () => {
  it('orders by frequency, ties by first appearance, text from the first occurrence that has one', () => {
    const ranked = rankLinks([
      { url: 'u1', text: 'One' },
      { url: 'u2', text: '' },
      { url: 'u3', text: 'Three' },
      { url: 'u2', text: 'Two' },
      { url: 'u3', text: 'Three again' },
      { url: 'u4', text: 'Four' },
    ]);
    expect(ranked).toEqual([
      { url: 'u2', text: 'Two', count: 2 },
      { url: 'u3', text: 'Three', count: 2 },
      { url: 'u1', text: 'One', count: 1 },
      { url: 'u4', text: 'Four', count: 1 },
    ]);
  });

  it('uniqueLinks keeps first appearance order', () => {
    expect(
      uniqueLinks([
        { url: 'b', text: 'B' },
        { url: 'a', text: 'A' },
        { url: 'b', text: 'B2' },
      ]),
    ).toEqual([
      { url: 'b', text: 'B' },
      { url: 'a', text: 'A' },
    ]);
  });
});
