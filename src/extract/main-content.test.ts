// Golden pages for how the main block is chosen: one small handwritten page per mechanism, each failing without it.
import { describe, expect, it } from 'vitest';
import { extractArticle } from './extract-article.js';

const URL = 'https://example.com/post';
const PROSE =
  'The committee met on Tuesday, and after a long debate it agreed to publish the report, which runs to forty pages. ';

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Report</title></head><body>
    <nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>${body}
    <footer><a href="/imprint">Imprint</a> <a href="/privacy">Privacy</a></footer></body></html>`;
}

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
});
