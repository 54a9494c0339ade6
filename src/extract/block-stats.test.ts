// visibleTextLength counts without building the text (issue 23): the count is the one the text itself gives.
import { describe, expect, it } from 'vitest';
import { cleanText } from '../clean-text.js';
import { visibleTextLength } from './block-stats.js';
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
