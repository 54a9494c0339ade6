// Golden extraction files, as Readability's test-pages/: fixtures/pages/<name>.html → fixtures/expected/<name>.md.
// A missing expected file fails; UPDATE_GOLDEN=1 rewrites them (review that diff like code).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractArticle, type Article } from '../src/extract/extract-article.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const PAGES = join(FIXTURES, 'pages');
const EXPECTED = join(FIXTURES, 'expected');
const BASE_URL = 'https://site.example/articles/story.html';
const shouldUpdate = process.env.UPDATE_GOLDEN === '1';

/** The golden file: the article's fields as a small header, then the Markdown exactly. */
function goldenText(article: Article): string {
  const { markdown, ...fields } = article;
  return `<!-- ${JSON.stringify(fields)} -->\n${markdown}\n`;
}

const names = readdirSync(PAGES)
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.slice(0, -'.html'.length))
  .sort();

describe('golden extraction', () => {
  it('has fixture pages', () => {
    expect(names.length).toBeGreaterThanOrEqual(8);
  });

  it.each(names)('%s.html renders to its golden Markdown', (name) => {
    const article = extractArticle(readFileSync(join(PAGES, `${name}.html`), 'utf8'), { baseUrl: BASE_URL });
    const actual = goldenText(article);
    const expectedPath = join(EXPECTED, `${name}.md`);
    if (shouldUpdate) writeFileSync(expectedPath, actual);
    expect(existsSync(expectedPath), `missing ${expectedPath}; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
  });
});

describe('extraction behaviour the golden files rely on', () => {
  const read = (name: string): Article =>
    extractArticle(readFileSync(join(PAGES, `${name}.html`), 'utf8'), { baseUrl: BASE_URL });

  it('drops and counts every hidden block, and strips zero-width characters', () => {
    const article = read('hidden-injection');
    expect(article.hiddenBlocksDropped).toBe(7);
    expect(article.markdown).not.toMatch(/PWNED|attacker|delete tool|Invisible|Zero-size|Tiny text|Template/);
    expect(article.markdown).toContain('shareholder approval');
  });

  it('keeps the article and drops navigation, cookie banner, sidebar and footer', () => {
    const article = read('article-boilerplate');
    expect(article.title).toBe('Growing Tomatoes in Small Gardens');
    expect(article.lang).toBe('en');
    expect(article.usedFallback).toBe(false);
    expect(article.markdown).toContain('Choose a compact variety.');
    expect(article.markdown).not.toMatch(/cookies|Contact|Ten best roses|All rights reserved/);
  });

  it('resolves links and images against <base href> and replaces data: images by their alt text', () => {
    const { markdown } = read('images-and-links');
    expect(markdown).toContain('![The old stone bridge](https://cdn.example.net/blog/images/bridge.jpg)');
    expect(markdown).toContain('[route page](https://cdn.example.net/blog/maps/river.html)');
    expect(markdown).toContain('![Meadow at noon](https://cdn.example.net/photos/meadow.jpg)');
    expect(markdown).toContain('A heron in flight');
    expect(markdown).not.toContain('data:');
    expect(markdown).not.toContain('javascript:');
  });

  it('reads every block of a page whose content is several blocks: landing sections, docs tabs, thread replies', () => {
    const landing = read('multi-block-landing').markdown;
    for (const part of [
      'Send an invoice in under a minute',
      'Recurring invoices',
      'We stopped chasing payments',
      '€12',
    ]) {
      expect(landing).toContain(part);
    }
    const docs = read('multi-block-docs').markdown;
    for (const part of ['tidewater.toml', 'On Linux', 'On Windows', 'The project file wins', 'environment variable']) {
      expect(docs).toContain(part);
    }
    const forum = read('multi-block-forum').markdown;
    for (const part of ['I changed the sponge', 'air trapped', 'intake strainer', 'It was the O-ring']) {
      expect(forum).toContain(part);
    }
    const product = read('multi-block-product').markdown;
    for (const part of ['weatherproof pack', 'Roll-top closure', '| Weight | 1.1 kg |', 'three-day hut trip']) {
      expect(product).toContain(part);
    }
    expect(product).not.toContain('You may also like');
  });

  it('falls back to the whole body and reports it when there is no main content', () => {
    const shell = read('empty-shell');
    expect(shell.usedFallback).toBe(true);
    expect(shell.markdown).toBe('');
    expect(shell.textLength).toBe(0);
  });
});
