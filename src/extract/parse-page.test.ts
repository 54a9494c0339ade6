import { describe, expect, it } from 'vitest';
import { removeHidden } from './clean-hidden.js';
import { parsePage } from './parse-page.js';
import { textOf } from './parse.js';

describe('parsePage', () => {
  it('reads title, language and the base URL from <head>, <base href> resolved against the page URL', () => {
    const page = parsePage(
      '<html lang="de"><head><title>Seite</title><base href="/docs/"></head><body><p>x</p></body></html>',
      'https://site.test/a/b.html',
    );
    expect(page.metadata).toEqual({
      title: 'Seite',
      lang: 'de',
      baseUrl: 'https://site.test/docs/',
      declaresArticle: false,
    });
  });

  it('reads whether the page declares itself an article (og:type)', () => {
    const head = (type: string): string =>
      `<html><head><meta property="og:type" content="${type}"></head><body><p>x</p></body></html>`;
    expect(parsePage(head('article'), 'https://site.test/').metadata.declaresArticle).toBe(true);
    expect(parsePage(head('website'), 'https://site.test/').metadata.declaresArticle).toBe(false);
  });

  it('reads each from the first element of its kind in document order, wherever it is', () => {
    const page = parsePage(
      '<html lang="fr"><head><base target="_top"><meta name="og:type" content="website">' +
        '<meta property="og:type" content="article"></head><body><h1>Le titre</h1><base href="/un/">' +
        '<base href="/deux/"><h1>Autre</h1><html lang="en"></html></body></html>',
      'https://site.test/a/b.html',
    );
    expect(page.metadata).toEqual({
      title: 'Le titre',
      lang: 'fr',
      baseUrl: 'https://site.test/un/',
      declaresArticle: false,
    });
    const titled = parsePage(
      '<html><head><meta property="og:title" content=" "><meta name="og:title" content="Second"></head></html>',
      'https://site.test/',
    );
    expect(titled.metadata.title).toBe(undefined);
  });

  it("reads the hiding rules of the page's <style> sheets, whose bodies the parse itself drops", () => {
    // Enough visible text that the hidden paragraph is a small part of the page (clean-hidden.ts keeps a page that
    // would lose most of its text).
    const prose = 'The committee met on Tuesday and agreed to publish the report, which runs to forty pages. '.repeat(
      8,
    );
    const { doc, sheet } = parsePage(
      `<html><head><style>.promo { display: none }</style></head><body><p>${prose}</p><p class="promo">Buy now</p></body></html>`,
      'https://site.test/',
    );
    expect(removeHidden(doc, { sheet })).toBe(1);
    expect(textOf(doc)).toContain('The committee met');
    expect(textOf(doc)).not.toContain('Buy now');
  });
});
