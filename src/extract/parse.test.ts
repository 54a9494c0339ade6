import { describe, expect, it } from 'vitest';
import {
  findElement,
  isElement,
  MAX_NESTING_DEPTH,
  parseHtml,
  parseMarkup,
  textOf,
  type HtmlDocument,
} from './parse.js';

/** The deepest element nesting under `root`, walked without recursion. */
function maxDepth(root: HtmlDocument): number {
  let deepest = 0;
  const stack: [HtmlDocument | import('./parse.js').HtmlElement, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of node.children) if (isElement(child)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const nested = (count: number, open: string, close: string, inner: string) =>
  `${open.repeat(count)}${inner}${close.repeat(count)}`;

describe('parseHtml depth cap', () => {
  it('nests 100,000 elements no deeper than the cap, keeping the innermost text', () => {
    const doc = parseHtml(`<html><body>${nested(100_000, '<div>', '</div>', 'the bottom')}<p>after</p></body></html>`);
    expect(maxDepth(doc)).toBeLessThanOrEqual(MAX_NESTING_DEPTH);
    expect(textOf(doc)).toBe('the bottomafter');
  });

  it('closes the dropped elements with their own end tags, so what follows lands where it belongs', () => {
    const deep = nested(MAX_NESTING_DEPTH + 100, '<section>', '</section>', 'deep');
    const doc = parseHtml(`<html><body><div id="outer">${deep}</div><p id="after">after</p></body></html>`);
    const after = findElement(doc, (el) => el.attribs.id === 'after')!;
    expect((after.parent as { name?: string }).name).toBe('body');
  });

  it('drops the start tag and attributes of an element past the cap but keeps its text and void elements', () => {
    const inner = '<a href="/x" class="deep">link words</a><img src="/i.png" alt="pic">';
    const doc = parseHtml(`<html><body>${nested(MAX_NESTING_DEPTH + 10, '<div>', '</div>', inner)}</body></html>`);
    expect(findElement(doc, (el) => el.name === 'a')).toBeUndefined();
    expect(findElement(doc, (el) => el.name === 'img')?.attribs.alt).toBe('pic');
    expect(textOf(doc)).toContain('link words');
  });

  it('leaves ordinary pages exactly as htmlparser2 builds them', () => {
    const doc = parseHtml('<html><body><ul><li>a<li>b</ul><p>x<b>y</b></p></body></html>');
    expect(maxDepth(doc)).toBe(4);
    expect(textOf(doc)).toBe('abxy');
  });

  it('caps XML (feeds) the same way', () => {
    const root = parseMarkup(`<rss>${nested(100_000, '<b>', '</b>', 'x')}</rss>`, { xmlMode: true });
    expect(maxDepth(root as unknown as HtmlDocument)).toBeLessThanOrEqual(MAX_NESTING_DEPTH);
  });
});
