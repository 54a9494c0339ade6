// The main block's other parts: a CMS that splits a body over repeated blocks (steps, text fields) gives each part
// the same tag and class, but a part inside its own wrapper is not the top candidate's sibling, so Readability's
// sibling pass never sees it and, scored apart, it never wins. Measured on the eval sets (bench/extract.mjs).
import { isElement, type HtmlElement } from './parse.js';

// How far up from the top candidate blocks with its tag and class are looked for.
const SAME_CLASS_LEVELS = 3;

/**
 * The content with the top candidate's same-tag, same-class blocks elsewhere under its nearest ancestor (up to three
 * levels up, below `body`) that holds any; those `isPart` accepts join, in document order. `article` is the top with
 * its gathered siblings (or the top itself); it is returned unchanged when nothing joins.
 */
export function withSameClass(
  top: HtmlElement,
  article: HtmlElement,
  body: HtmlElement,
  isPart: (el: HtmlElement) => boolean,
): HtmlElement {
  const className = top.attribs.class;
  if (!className) return article;
  let ancestor: HtmlElement = top;
  for (let level = 0; level < SAME_CLASS_LEVELS; level++) {
    const parent = ancestor.parent;
    if (!parent || !isElement(parent) || parent === body) return article;
    ancestor = parent;
    const matches: HtmlElement[] = [];
    const visit = (el: HtmlElement): void => {
      for (const child of el.children) {
        if (!isElement(child)) continue;
        if (child === top || (child.name === top.name && child.attribs.class === className)) matches.push(child);
        else visit(child);
      }
    };
    visit(ancestor);
    // A block of the same class around the top (nested wrappers) is not a part beside it.
    if (!matches.includes(top)) return article;
    if (matches.length < 2) continue;
    const inArticle = new Set(article === top ? [top] : article.children);
    const parts = matches.filter((match) => match === top || (!inArticle.has(match) && isPart(match)));
    if (parts.length < 2) return article;
    const children = parts.flatMap((part) => (part === top && article !== top ? article.children : [part]));
    return { type: 'tag', name: 'div', attribs: {}, children, parent: null };
  }
  return article;
}
