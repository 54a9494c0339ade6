import { describe, expect, it } from 'vitest';
import { removeHidden } from './clean-hidden.js';
import { parseHtml } from './parse.js';
import { applySelectors, checkSelector, selectElements, selectorProblem } from './select.js';

describe('selectors on our tree', () => {
  it('match outermost elements in document order', () => {
    const doc = parseHtml('<body><div class="x"><div class="x">inner</div></div><p class="x">p</p></body>');
    expect(selectElements(doc, '.x').map((el) => el.name)).toEqual(['div', 'p']);
  });

  it('sibling combinators see the tree after hidden blocks were removed', () => {
    const doc = parseHtml('<body><h2>T</h2><p hidden>gone</p><p>kept</p></body>');
    removeHidden(doc);
    expect(selectElements(doc, 'h2 + p').map((el) => el.children.length)).toEqual([1]);
  });

  it('exclusions go first: an excluded element is never selected', () => {
    const doc = parseHtml('<body><p class="a">one</p><p class="b">two</p></body>');
    const selection = applySelectors(doc, { selector: 'p', excludeSelectors: ['.a'] });
    expect(selection?.matched).toBe(1);
  });

  it.each([
    ['div[', /Expected name/],
    ['p >', /ends with a combinator/],
    ['> p', /starts with a combinator/],
    ['a:hover', /never match/],
    ['p,', /Empty sub-selector/],
  ])('refuses %s', (selector, reason) => {
    expect(checkSelector(selector)).toMatch(reason);
  });

  it('names the argument and quotes the selector', () => {
    expect(selectorProblem('selector', 'div[')).toMatch(
      /^selector "div\[" is not valid CSS: .*found the end of the selector$/,
    );
    expect(selectorProblem('selector', 'x'.repeat(501))).toContain('at most 500 characters');
    expect(checkSelector('main article > p:first-of-type, #side')).toBeUndefined();
  });
});
