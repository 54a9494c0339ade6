// Golden pages for how the main block is chosen: one small handwritten page per mechanism, each failing without it.
import { describe, expect, it } from 'vitest';
import { articlePage as page, PAGE_URL as URL, PROSE } from '../../test/fixtures/article-page.js';
import { extractArticle } from './extract-article.js';
import { findMainContent } from './main-content.js';
import { isElement, keepChildren, parseHtml, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';

describe('choosing the main content', () => {
  it('joins the parts of a body split over blocks with the same tag and class in separate wrappers', () => {
    const step = (text: string): string =>
      `<div class="step"><div class="step-text">${text}</div><div class="spacer"></div></div>`;
    const html = page(`<div class="steps">${step(`<p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p>`)}
      <div class="clear"></div>${step(`<p>The second part explains how the vote went, who voted against it, and what happens next.</p>`)}
      ${step(`<h3><a href="/other">Another story</a></h3><p>A teaser for another story, in the same kind of block as the body, and as long as a paragraph.</p>`)}</div>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).toContain('The second part explains how the vote went');
    expect(markdown).not.toContain('Another story');
  });

  it('credits text set in inline elements directly in a container (no <p>), over a box of short paragraphs', () => {
    const line = (text: string): string => `<font face="Arial">${text}</font><br><br>`;
    const html =
      page(`<table><tr><td class="story">${line('The harbour reopened on Monday after a winter of works that, by the council’s own count, cost twice the estimate.')}
      ${line('Fishing boats were the first to return, followed by the ferry, which will run every hour until the end of the season.')}
      ${line('The harbour master said the new wall should hold for fifty years, though the old one, built in 1890, lasted longer.')}</td></tr></table><img src="/i/harbour.jpg" alt=""></div></div>
      <div class="col-4"><div class="inner"><div class="box"><p>Our newsletter, sent every Friday, brings the week’s stories, the tides and the weather to your inbox.</p>
      <p>Write to the desk, call us, or visit the office on the quay, which is open on weekdays from nine to five.</p></div><img src="/i/desk.jpg" alt=""></div></div>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('Fishing boats were the first to return');
    expect(markdown).not.toContain('Our newsletter');
  });

  it('does not take a cookie or consent bar for the content, on a page with little else', () => {
    const bar = `<div class="consent-wrapper"><h4>Served with love!</h4><p>${'With our cookies we would like to offer you the best experience possible, with offers, ads and remembered preferences. '.repeat(3)}</p></div>`;
    const html = page(`${bar}<div class="cookie-settings"><p>${PROSE}</p></div>
      <main><h2>We looked everywhere, but we do not know this product.</h2><p>You can find others in our product overview or with our search.</p>
      <p>We answer questions on weekdays from nine in the morning to six.</p><p>Our shop and warehouse are in the same town since the year 1954.</p>
      <p>Returns are free within thirty days of the day the parcel arrived.</p></main>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('You can find others in our product overview');
    expect(markdown).not.toContain('With our cookies');
    expect(markdown).not.toContain('The committee met');
  });
});

// Issue 23 item 8: removing boilerplate and cleaning the content gave every element of the tree a new children array,
// with the spare room of one grown by push (about 190 bytes for one child): 12 MB more on a 9 MB page, and the old
// arrays as garbage. The tree is cut in place: each element keeps its exact-length array, shortened.
describe('cutting the tree in place', () => {
  function elements(node: HtmlElement | HtmlDocument, into: HtmlElement[] = []): HtmlElement[] {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      into.push(child);
      elements(child, into);
    }
    return into;
  }

  it('keeps every element its own children array through detection and cleaning', () => {
    const html = page(`<article><h1>Report</h1><p>${PROSE}</p><div class="share"><a href="/s">Share</a></div>
      <p>${PROSE}</p><figure><img src="/i.jpg" alt="x"><figcaption>A caption</figcaption></figure>
      <ul class="related"><li><a href="/1">One</a></li><li><a href="/2">Two</a></li></ul></article>`);
    const doc = parseHtml(html);
    const before = new Map(elements(doc).map((el) => [el, el.children]));
    const main = findMainContent(doc, { stripUnlikely: true, title: 'Report' });
    expect(main).toBeDefined();
    const left = elements(doc);
    expect(left.length).toBeLessThan(before.size); // navigation, footer, caption and link list went
    for (const el of left) expect(el.children).toBe(before.get(el));
  });

  it('keepChildren asks in order, keeps the accepted in order, in the same array', () => {
    const doc = parseHtml('<div><p>a</p><p>b</p><p>c</p><p>d</p></div>');
    const div = elements(doc).find((el) => el.name === 'div')!;
    const array = div.children;
    const asked: string[] = [];
    const text = (node: HtmlNode): string =>
      isElement(node) && node.children[0]?.type === 'text' ? node.children[0].data : '';
    keepChildren(div, (child) => {
      asked.push(text(child));
      return text(child) !== 'b' && text(child) !== 'd';
    });
    expect(asked).toEqual(['a', 'b', 'c', 'd']);
    expect(div.children).toBe(array);
    expect(div.children.map(text)).toEqual(['a', 'c']);
  });
});
