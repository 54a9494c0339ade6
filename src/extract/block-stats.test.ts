// visibleTextLength counts without building the text (issue 23): the count is the one the text itself gives.
import { describe, expect, it } from 'vitest';
import { cleanText } from '../clean-text.js';
import { OUTCOME_READABLE_CHARS } from '../outcome.js';
import { isSpaceCode, pageReadableLength, visibleTextLength } from './block-stats.js';
import { parseHtml, textOf, type HtmlDocument } from './parse.js';

/** What visibleTextLength stands for, built as a string. */
const byText = (doc: HtmlDocument) => cleanText(textOf(doc)).replace(/\s+/g, ' ').trim().length;

describe('visibleTextLength', () => {
  it.each([
    ['words and runs of spaces', '<p>  one \n two\t</p><p>three  </p>'],
    [
      'Unicode spaces, line breaks cleaning makes, and invisible characters',
      '<p>a\u00a0\u2028b\u0085c\u200bd\ufeff e</p>',
    ],
    ['joiners and emoji across elements', '<p>👩\u200d💻 <b>\u0628\u200c</b>\u0628 \u200d x</p>'],
    ['scripts and styles, which are not text', '<p>seen</p><script>not seen</script><style>p{}</style>'],
    ['nothing at all', '<p> \n </p>'],
  ])('counts %s as the text does', (_name, html) => {
    const doc = parseHtml(`<html><body>${html}</body></html>`);
    expect(visibleTextLength(doc)).toBe(byText(doc));
  });

  it('counts a text of many pieces (cut at whitespace) as the whole text does', () => {
    const parts = ['\u200d', ' ', '  ', 'word', '\u0628', '\u200c', '👩', '\n', 'x'.repeat(20_000), ' '.repeat(3)];
    let html = '';
    for (let i = 0; i < 600; i++) html += `<span>${parts[(i * 7 + (i >> 3)) % parts.length]}</span>`;
    const doc = parseHtml(`<html><body>${html}</body></html>`);
    expect(textOf(doc).length).toBeGreaterThan(1 << 17); // more than one piece
    expect(visibleTextLength(doc)).toBe(byText(doc));
  });
});

describe('pageReadableLength', () => {
  it('is the exact visible length below the outcome threshold', () => {
    const doc = parseHtml('<html><body><p>Hello   world</p>\n<div> and\u200b more </div></body></html>');
    expect(pageReadableLength(doc)).toBe(visibleTextLength(doc));
    expect(pageReadableLength(doc)).toBe('Hello world and more'.length);
  });

  it('stops at or above the threshold on a long page, never below it', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `<span>word${i}</span> `).join('');
    const doc = parseHtml(`<html><body>${words}</body></html>`);
    const length = pageReadableLength(doc);
    expect(length).toBeGreaterThanOrEqual(OUTCOME_READABLE_CHARS);
    expect(length).toBeLessThan(visibleTextLength(doc));
  });

  it('counts whitespace-only runs as nothing, however many text nodes there are', () => {
    const blanks = '<span>   </span>\n'.repeat(2000);
    const doc = parseHtml(`<html><body>${blanks}<p>Tail</p></body></html>`);
    expect(pageReadableLength(doc)).toBe(4);
  });
});

describe('isSpaceCode', () => {
  it("is JavaScript's \\s for every UTF-16 unit", () => {
    const differ: number[] = [];
    for (let unit = 0; unit < 0x10000; unit++) {
      if (isSpaceCode(unit) !== /\s/.test(String.fromCharCode(unit))) differ.push(unit);
    }
    expect(differ).toEqual([]);
  });
});
