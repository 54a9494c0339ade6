import { describe, expect, it } from 'vitest';
import { countTokens, loadTokenizer } from '../tokens.js';
import { cleanCutEnd, fitSection, MIN_CUT_CONTENT_TOKENS, pageSection } from './budget.js';

// countTokens is synchronous: the encoding it uses is loaded once, here.
await loadTokenizer();

const paragraphs = Array.from(
  { length: 60 },
  (_, i) => `Paragraph ${i} says something useful about crawling, budgets and tokens.`,
);
const page = { index: 1, title: 'A page', url: 'https://example.com/a', content: paragraphs.join('\n\n') };

describe('fitSection', () => {
  it('keeps a page that fits whole, counting the whole section', async () => {
    const fitted = (await fitSection(page, 100000, 100000))!;
    expect(fitted.isCut).toBe(false);
    expect(fitted.text).toBe(pageSection(page));
    expect(fitted.tokens).toBe(countTokens(fitted.text));
    expect(fitted.text.startsWith('## [1] A page\n\nURL: https://example.com/a\n\nParagraph 0')).toBe(true);
  });

  it.each([120, 200, 333, 500, 777])('cuts a page that does not fit within exactly %i tokens', async (available) => {
    const fitted = (await fitSection(page, available, 1000))!;
    expect(fitted.isCut).toBe(true);
    expect(countTokens(fitted.text)).toBe(fitted.tokens);
    expect(fitted.tokens).toBeLessThanOrEqual(available);
    // A clean boundary: the shown content ends with a whole paragraph.
    expect(fitted.text).toMatch(
      /useful about crawling, budgets and tokens\.\n\n<error>Page cut at \d+ of \d+ characters/,
    );
    expect(fitted.text).toContain('crawl budget of 1000 tokens');
  });

  it('leaves a page out when not even a minimal part would fit', async () => {
    expect(await fitSection(page, MIN_CUT_CONTENT_TOKENS, 1000)).toBeUndefined();
  });
});

describe('cleanCutEnd', () => {
  it('backs off to a paragraph break', async () => {
    const text = 'First paragraph.\n\nSecond paragraph goes on and on';
    expect(text.slice(0, cleanCutEnd(text, 30))).toBe('First paragraph.');
  });

  it('never ends inside a code fence', async () => {
    const text = 'Intro line.\n\n```js\nconst a = 1;\nconst b = 2;\n```\n\nAfter.';
    const end = cleanCutEnd(text, text.indexOf('const b'));
    expect(text.slice(0, end).trimEnd()).toBe('Intro line.');
  });
});

describe('fitSection on a page with one 100,000-character word', () => {
  it('cuts it within the tokens left, counted as the walk counts (plain o200k took seconds here)', async () => {
    const word = Array.from({ length: 100_000 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
    const long = { index: 1, title: 'Long', url: 'https://example.com/long', content: `Intro.\n\n${word}\n\nEnd.` };
    const fitted = (await fitSection(long, 500, 1000))!;
    expect(fitted.isCut).toBe(true);
    expect(fitted.tokens).toBeLessThanOrEqual(500);
    expect(countTokens(fitted.text)).toBe(fitted.tokens);
  });
});
