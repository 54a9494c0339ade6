import { describe, expect, it } from 'vitest';
import { removeHidden } from './clean-hidden.js';
import { selectAll as cssSelectAll } from 'css-select';
import { isElement, parseHtml, textOf, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';
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
    ['text=Sign in', /selector engine/],
    ['xpath=//a', /selector engine/],
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

  it('refuses a chain longer than 16 compound selectors, and a :has() inside a :has(), naming the argument', () => {
    const long = Array(17).fill('div').join(' ');
    expect(selectorProblem('exclude_selectors', long)).toMatch(
      /^exclude_selectors "div div .*" is too complex to run: it chains 17 compound selectors; at most 16/,
    );
    expect(selectorProblem('selector', `p:not(${long})`)).toMatch(/chains 17 compound selectors/);
    expect(selectorProblem('selector', Array(16).fill('div').join(' > '))).toBeUndefined();
    expect(selectorProblem('selector', 'div:has(p:has(a))')).toMatch(/:has\(\) inside a :has\(\)/);
    expect(selectorProblem('selector', 'div:has(p a), section:has(> h2)')).toBeUndefined();
  });
});

describe('descendant chains on a deep page', () => {
  const depth = 500;
  const deep = () => parseHtml(`<body>${'<div>'.repeat(depth)}<p>x</p>${'</div>'.repeat(depth)}</body>`);

  it('a failing 16-step chain ends (each ancestor answered once), and a matching one finds what it should', () => {
    // Without the remembered answers this is 500^15 steps: the test would never end.
    const doc = deep();
    expect(selectElements(doc, `section ${Array(15).fill('div').join(' ')}`)).toEqual([]);
    expect(selectElements(doc, `body ${Array(14).fill('div').join(' ')} p`).map((el) => el.name)).toEqual(['p']);
    const all = selectAll(doc, `body > div ${Array(13).fill('div').join(' ')}`);
    expect(all).toBe(depth - 13);
  });

  it('matches as css-select does without the memory, on a page with many branches', () => {
    const doc = parseHtml(
      '<body><main><section class="a"><div><p class="x">1</p></div><aside><p>2</p></aside></section>' +
        '<div class="a"><section><p class="x">3</p><span><b>4</b></span></section></div><p>5</p></main></body>',
    );
    for (const selector of [
      '.a p',
      'main .a p.x',
      'section div p',
      'div section p, aside p',
      ':not(aside) > p',
      'section b',
    ]) {
      expect(selectElements(doc, selector).map((el) => textOf(el))).toEqual(
        plainSelect(doc, selector).map((el) => textOf(el)),
      );
    }
  });
});

/** How many elements `selector` matches, nested ones too. */
function selectAll(doc: HtmlDocument, selector: string): number {
  return plainSelect(doc, selector, false).length;
}

/** css-select on our tree as it runs with no help: the reference the memoised matching must agree with. */
function plainSelect(doc: HtmlDocument, selector: string, outermostOnly = true): HtmlElement[] {
  type Node = HtmlNode | HtmlDocument;
  const children = (node: Node): Node[] => (node.type === 'tag' || node.type === 'root' ? node.children : []);
  const found = cssSelectAll<Node, HtmlElement>(selector, doc, {
    cacheResults: false,
    adapter: {
      isTag: (node): node is HtmlElement => isElement(node),
      getAttributeValue: (el, name) => el.attribs[name],
      getChildren: children,
      getName: (el) => el.name,
      getParent: (node) => node.parent,
      getSiblings: (node) => (node.type === 'root' || !node.parent ? [node] : node.parent.children),
      getText: (node) => textOf(node),
      hasAttrib: (el, name) => Object.hasOwn(el.attribs, name),
      removeSubsets: (nodes) => [...nodes],
    },
  });
  if (!outermostOnly) return found;
  const set = new Set<Node>(found);
  return found.filter((node) => {
    for (let up = node.parent; up; up = up.parent) if (set.has(up)) return false;
    return true;
  });
}
